import Foundation
import ServiceKit
import ZeroMQ

// zmq-echo: the floor any ZeroMQ service of ours can reach. A bare ROUTER on our ZeroMQ layer
// (the same socket options and drain loop as ReplyServer) that answers every request with a valid
// reply envelope of a fixed size, `{"body":{"pad":"xxx"},"id":<the request's id>,"ok":true,"v":1}`,
// without any JSON library. `fuelboard loadtest --lookup <its endpoint>` drives it unchanged.
// Its I/O thread keeps libzmq's default scheduling (the services' yields to their own thread):
// the floor is a bare libzmq service.

let main = ServiceMain(
    name: "zmq-echo",
    summary: """
        Bare request-reply echo for benchmarks: binds a ROUTER (default tcp://127.0.0.1:*), logs
        `listening svc.endpoint=...`, and answers every request with a reply envelope of exactly
        --reply-bytes bytes whose id is the request's (found by a byte scan, no JSON decoding).
        Exits 0 on SIGTERM/SIGINT.
        """,
    options: [
        OptionSpec("--reply-bytes", value: "N", help: "size of every reply frame in bytes (default 512)"),
    ],
    uses: [],
    yieldingIOThreads: false)

let replyBytes = main.option("--reply-bytes", default: 512) { text in
    Int(text).flatMap { (1...(16 << 20)).contains($0) ? $0 : nil }
}

/// Builds replies of a fixed size around the request's id.
struct EchoReply {
    static let head = Array(#"{"body":{"pad":""#.utf8)
    static let middle = Array(#""},"id":"#.utf8)
    static let tail = Array(#","ok":true,"v":1}"#.utf8)
    static let null = Array("null".utf8)
    static var overhead: Int { head.count + middle.count + tail.count }

    let size: Int
    private let pad: [UInt8]

    init(size: Int) {
        self.size = size
        pad = [UInt8](repeating: UInt8(ascii: "x"), count: max(0, size - Self.overhead))
    }

    /// The reply for a request: exactly `size` bytes when the id leaves room for any padding.
    func reply(to request: Data) -> Data {
        request.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Data in
            let bytes = raw.bindMemory(to: UInt8.self)
            let id = Self.idRange(in: bytes).map { UnsafeBufferPointer(rebasing: bytes[$0]) }
            let idCount = id?.count ?? Self.null.count
            var out = Data(capacity: max(size, Self.overhead + idCount))
            out.append(contentsOf: Self.head)
            out.append(contentsOf: pad.prefix(max(0, size - Self.overhead - idCount)))
            out.append(contentsOf: Self.middle)
            if let id { out.append(id) } else { out.append(contentsOf: Self.null) }
            out.append(contentsOf: Self.tail)
            return out
        }
    }

    /// The raw JSON token after the first `"id":` (a string with its quotes, or a bare number),
    /// or nil when there is none. Our requests put `id` before `body`, so the first one is the
    /// envelope's.
    static func idRange(in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        let key = Array(#""id":"#.utf8)
        guard bytes.count > key.count else { return nil }
        var start = 0
        search: while start + key.count < bytes.count {
            for offset in 0..<key.count where bytes[start + offset] != key[offset] {
                start += 1
                continue search
            }
            break
        }
        var index = start + key.count
        while index < bytes.count, bytes[index] == UInt8(ascii: " ") { index += 1 }
        guard index < bytes.count else { return nil }
        let tokenStart = index
        if bytes[index] == UInt8(ascii: "\"") {
            index += 1
            while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
            }
            guard index < bytes.count else { return nil }
            return tokenStart..<(index + 1)
        }
        while index < bytes.count, isNumberByte(bytes[index]) { index += 1 }
        return index > tokenStart ? tokenStart..<index : nil
    }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
            || byte == UInt8(ascii: "+")
    }
}

/// Serves until the context is shut down; the same loop shape as ReplyServer's.
func serve(context: Context, bind: String, replyBytes: Int, logger: Logger) throws(ZMQError) {
    let socket = try Socket(context, .router)
    socket.maxMessageSize = 16 << 20
    socket.setRouterMandatory(true)
    socket.sendTimeout = .milliseconds(100)
    socket.sendHighWaterMark = 100_000
    socket.receiveHighWaterMark = 100_000
    let endpoint = try socket.bind(bind)
    let echo = EchoReply(size: replyBytes)
    logger.info("listening", metadata: ["svc.endpoint": endpoint, "replyBytes": "\(replyBytes)"])
    while true {
        // Wait in the receive for the first request, then take what else is queued (up to 1000).
        var handled = 0
        while handled < 1000 {
            let frames: [Data]
            do {
                frames = try socket.receive(dontWait: handled > 0)
            } catch where error.isTimeout {
                break
            }
            handled += 1
            guard frames.count >= 2, let payload = frames.last else { continue }
            do {
                try socket.send(Array(frames.dropLast()) + [echo.reply(to: payload)])
            } catch where !error.isTerminated {
                logger.warning("reply not delivered", metadata: ["error": "\(error)"])
            }
        }
    }
}

let bind = main.bindEndpoint(default: "tcp://127.0.0.1:*")
main.finishConfigurationCheck(["bind": bind, "reply-bytes": "\(replyBytes)"])
ShutdownSignals.install(shuttingDown: main.context, logger: main.logger)
do {
    try serve(context: main.context, bind: bind, replyBytes: replyBytes, logger: main.logger)
} catch where error.isTerminated {
    main.logger.info("stopped")
    exit(ServiceMain.ExitCode.success)
} catch {
    main.logger.error("stopped on error", metadata: ["error": "\(error)"])
    exit(ServiceMain.ExitCode.failure)
}
