/// A clock the test moves by hand, so session expiry needs no sleeping.
final class TestClock {
    private(set) var now = ContinuousClock.now

    func advance(by duration: Duration) {
        now = now + duration
    }
}
