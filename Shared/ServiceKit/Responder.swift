import Messages

/// Answers a deferred request later, on the server's loop thread.
public struct Responder {
    let request: IncomingRequest

    public func reply<Out: Encodable>(_ body: Out) {
        request.server.complete(request, outcome: request.reply(body))
    }

    public func fail(_ error: ServiceError) {
        request.server.complete(request, outcome: request.reply(error: error))
    }
}
