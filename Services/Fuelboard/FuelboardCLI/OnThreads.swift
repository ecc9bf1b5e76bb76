import Foundation
import ServiceKit
import Synchronization

/// Runs work that mostly waits (on a socket, a timeout) all at once, one thread each. Dispatch's
/// `concurrentPerform` would run only as many at a time as there are cores.
enum OnThreads {
    /// `body(index)` for every index in `0..<count`, each on a thread named `name-<index + 1>`;
    /// returns when all have finished, with their results in index order.
    static func map<Result: Sendable>(_ count: Int, name: String,
                                      _ body: @escaping @Sendable (Int) -> Result) -> [Result] {
        let results = Mutex<[Int: Result]>([:])
        let finished = DispatchGroup()
        for index in 0..<count {
            finished.enter()
            Thread {
                Thread.nameCurrent("\(name)-\(index + 1)")
                let result = body(index)
                results.withLock { $0[index] = result }
                finished.leave()
            }.start()
        }
        finished.wait()
        let collected = results.withLock { $0 }
        return (0..<count).compactMap { collected[$0] }
    }
}
