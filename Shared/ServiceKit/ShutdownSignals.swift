import Dispatch
import Foundation
import Glibc
import Synchronization
import ZeroMQ

/// Turns SIGTERM and SIGINT into `Context.shutdown()`, so every blocked loop wakes with ETERM,
/// stops cleanly and the process exits 0.
///
/// Nonisolated on purpose: a handler closure written in `main.swift` would inherit MainActor
/// isolation and crash when Dispatch runs it on its own queue (Swift 6).
public enum ShutdownSignals {
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []

    /// What a service handles: SIGTERM and SIGINT stop it; SIGHUP (a reload, to most daemons) is
    /// logged and changes nothing, where it ended price-ingest with status 129 and no line (QA).
    public static let serviceSignals = [SIGTERM, SIGINT, SIGHUP]

    /// Blocks `signals` in the calling thread, and so in every thread it starts from now on. Call
    /// first thing in main, before any thread exists (libzmq's I/O threads, Dispatch's workers).
    ///
    /// On Linux a Dispatch signal source reads its signal through a `signalfd`, which only sees a
    /// signal that is blocked: a thread started earlier, with the signal unblocked, can take it
    /// instead, and with the disposition `SIG_IGN` it is dropped. A SIGTERM was lost that way in
    /// about 1 of 200 starts (the service then ran on until killed).
    public static func blockForDelivery(_ signals: [Int32] = [SIGTERM, SIGINT]) {
        var set = sigset_t()
        sigemptyset(&set)
        for signalNumber in signals { sigaddset(&set, signalNumber) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Installs the handlers. Call once, from main, before the loop starts (and `blockForDelivery`
    /// before any thread is started).
    public static func install(_ signals: [Int32] = [SIGTERM, SIGINT], onSignal: @escaping @Sendable (Int32) -> Void) {
        blockForDelivery(signals)
        let queue = DispatchQueue(label: "fuelboard.signals")
        for signalNumber in signals {
            // The disposition stays as it is: the signal is blocked, so the source's signalfd
            // reads it, and one that came while the service was starting (blocked, pending) is
            // read too. Setting SIG_IGN here discarded such a pending signal (POSIX), and a
            // SIGTERM 10-50 ms after start was lost: the service ran on.
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
            source.setEventHandler { @Sendable in onSignal(signalNumber) }
            source.resume()
            sources.append(source)
        }
    }

    /// Shuts `context` down on SIGTERM/SIGINT.
    ///
    /// A watchdog then gives the process `grace` to stop by itself; if it has not (a loop stuck
    /// in a call that never returns), it says so on stderr and ends the process with status 0, as
    /// the contract promises for a signal. Stored data is safe either way: every commit is atomic.
    ///
    /// With `drain`, the first signal calls it instead (the loop answers what is in flight and
    /// ends by itself, within `grace`), and a second signal shuts the context down at once.
    public static func install(shuttingDown context: Context, grace: Duration = .seconds(3), logger: Logger,
                               drain: (@Sendable () -> Void)? = nil) {
        let signalsSeen = Atomic<Int>(0)
        install { @Sendable signalNumber in
            let (_, count) = signalsSeen.add(1, ordering: .relaxed)
            if let drain, count == 1 {
                drain()
            } else {
                context.shutdown()
            }
            guard count == 1 else { return }
            let watchdog = Thread { @Sendable in
                Thread.sleep(forTimeInterval: grace.inSeconds)
                logger.error("stopped by force", metadata: [
                    "signal": "\(signalNumber)", "grace": ServiceMain.secondsText(grace),
                    "why": "still busy after the grace (a long ingest or call); committed data is safe"])
                _exit(0)
            }
            watchdog.start()
        }
        install([SIGHUP]) { @Sendable _ in
            logger.notice("SIGHUP ignored", metadata: [
                "why": "settings are read at the start only: restart the service to change them"])
        }
    }
}
