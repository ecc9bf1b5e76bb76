import Dispatch
import Foundation
import Glibc
import ZeroMQ

/// Turns SIGTERM and SIGINT into `Context.shutdown()`, so every blocked loop wakes with ETERM,
/// stops cleanly and the process exits 0.
///
/// Nonisolated on purpose: a handler closure written in `main.swift` would inherit MainActor
/// isolation and crash when Dispatch runs it on its own queue (Swift 6).
public enum ShutdownSignals {
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []

    /// Installs the handlers. Call once, from main, before the loop starts.
    public static func install(_ signals: [Int32] = [SIGTERM, SIGINT], onSignal: @escaping @Sendable (Int32) -> Void) {
        let queue = DispatchQueue(label: "fuelboard.signals")
        for signalNumber in signals {
            signal(signalNumber, SIG_IGN)
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
    public static func install(shuttingDown context: Context, grace: Duration = .seconds(3), logger: Logger,
                               also: (@Sendable () -> Void)? = nil) {
        install { @Sendable signalNumber in
            also?()
            context.shutdown()
            let watchdog = Thread { @Sendable in
                Thread.sleep(forTimeInterval: Double(grace.components.seconds)
                    + Double(grace.components.attoseconds) / 1e18)
                logger.error("stopped by force", metadata: [
                    "signal": "\(signalNumber)", "grace": "\(grace.components.seconds)s",
                    "why": "still busy after the grace (a long ingest or call); committed data is safe"])
                _exit(0)
            }
            watchdog.start()
        }
    }
}
