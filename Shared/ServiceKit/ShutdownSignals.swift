import Dispatch
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
    public static func install(shuttingDown context: Context, also: (@Sendable () -> Void)? = nil) {
        install { @Sendable _ in
            also?()
            context.shutdown()
        }
    }
}
