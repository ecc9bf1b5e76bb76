import DialogRenderer
import Foundation
import Messages
@testable import ServiceKit
import Testing
import ZeroMQ

/// `dialog.render` requests as the server hands them to the handler: the frame checked once by
/// `decodeHead`, which lists the members the wire reader takes the body from.
final class CheckedRequests {
    private let context = Context()
    private let server: ReplyServer

    /// A source of requests; with a `handler`, its server also answers `dialog.render` with it.
    init(serving handler: RenderHandler? = nil) throws {
        server = try ReplyServer(name: "dialog-test", context: context, bind: "tcp://127.0.0.1:*",
                                 logger: Logger(label: "dialog-test", level: .critical))
        if let handler {
            server.on(MessageType.dialogRender.rawValue) { request in handler.reply(to: request) }
        }
    }

    deinit { context.shutdown() }

    /// The request whose body is `body` (JSON text), with `id` as its id's JSON text.
    func request(body: String, id: String = "7") throws -> IncomingRequest {
        let frame = #"{"v":1,"id":"# + id + #","type":"dialog.render","body":"# + body + "}"
        var request = IncomingRequest(route: [], payload: Data(frame.utf8), server: server)
        try request.decodeHead()
        return request
    }

    /// The reply's JSON text for a whole frame, as the server dispatches it (`sys.batch` included).
    func dispatch(frame: String) -> String {
        var request = IncomingRequest(route: [], payload: Data(frame.utf8), server: server)
        return Self.replyText(server.dispatch(&request))
    }

    /// An id whose objects nest `depth` deep: a frame carrying it is deeper than the check's index
    /// reaches (`StrictJSON.deepestListed`), so its members are not a whole index.
    static func nestedID(depth: Int) -> String {
        String(repeating: #"{"n":"#, count: depth) + "1" + String(repeating: "}", count: depth)
    }

    /// The JSON text of a reply.
    static func replyText(_ outcome: ReplyServer.Outcome) -> String {
        guard case .reply(let bytes, _) = outcome else {
            Issue.record("the handler deferred its reply")
            return ""
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
