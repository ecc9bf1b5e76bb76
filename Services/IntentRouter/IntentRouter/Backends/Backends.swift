import ZeroMQ

/// The router's three backends: location-cache, fuel-lookup and dialog-renderer.
final class Backends {
    let location: BackendChannel
    let lookup: BackendChannel
    let dialog: BackendChannel

    init(context: Context, location: String, lookup: String, dialog: String,
         schedule: @escaping (@escaping () -> Void) -> Void) throws(ZMQError) {
        self.location = try BackendChannel(name: "location", context: context, endpoint: location, schedule: schedule)
        self.lookup = try BackendChannel(name: "lookup", context: context, endpoint: lookup, schedule: schedule)
        self.dialog = try BackendChannel(name: "dialog", context: context, endpoint: dialog, schedule: schedule)
    }

    var all: [BackendChannel] { [location, lookup, dialog] }

    /// How an answer names a backend it was given without (`AssistantReply.degraded`).
    static let locationCacheName = "location-cache"
    static let dialogRendererName = "dialog-renderer"

    func expire(now: ContinuousClock.Instant) {
        for channel in all { channel.expire(now: now) }
    }
}
