import ServiceKit

/// Everything intent-router needs to start.
public struct RouterConfiguration: Sendable {
    /// Where the router binds its ROUTER socket.
    public var endpoint: String
    public var location: String
    public var lookup: String
    public var dialog: String
    /// The name every phrase must contain.
    public var appName: String
    /// How long a question waits for its answer.
    public var sessionTTL: Duration
    /// How long a user waits at most for an answer, whatever the backends do.
    public var deadline: Duration
    public var maxSessions: Int
    /// What `--max-sessions` takes.
    public static let maxSessionsRange = 1_000...10_000_000
    /// Where the router binds the ROUTER socket intent services connect to (the binary defaults
    /// to `defaultPlugins`; built in code, a free port, so routers in tests never collide).
    public var plugins: String

    /// `--plugins` / `FUELBOARD_PLUGINS` default (a contract extension).
    public static let defaultPlugins = "tcp://127.0.0.1:5556"

    public static let defaultSessionTTL: Duration = .seconds(30)
    public static let defaultDeadline: Duration = .seconds(2)

    public init(endpoint: String, location: String, lookup: String, dialog: String,
                appName: String = AppName.defaultName, sessionTTL: Duration = defaultSessionTTL,
                deadline: Duration = defaultDeadline, maxSessions: Int = 100_000,
                plugins: String = "tcp://127.0.0.1:*") {
        self.plugins = plugins
        self.endpoint = endpoint
        self.location = location
        self.lookup = lookup
        self.dialog = dialog
        self.appName = appName
        self.sessionTTL = sessionTTL
        self.deadline = deadline
        self.maxSessions = maxSessions
    }

    /// The topology's endpoints, binding at `endpoint`.
    public init(topology: Topology, endpoint: String) {
        self.init(endpoint: endpoint, location: topology.location, lookup: topology.lookup, dialog: topology.dialog)
    }
}
