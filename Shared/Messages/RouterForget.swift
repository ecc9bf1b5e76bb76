import Foundation

/// `router.forget`, asked on the router's normal endpoint: forget an intent service none of whose
/// instances runs (one retired, or a name registered by mistake).
public let routerForgetType = "router.forget"

/// `router.forget` request body.
public struct RouterForgetRequest: Codable, Sendable {
    public var service: String
    public init(service: String) { self.service = service }
}

/// `router.forget` reply body: the service and the intents it gave up.
public struct RouterForgetReply: Codable, Sendable, Equatable {
    public var service: String
    public var intents: [String]

    public init(service: String, intents: [String]) {
        self.service = service
        self.intents = intents
    }
}
