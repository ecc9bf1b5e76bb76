import Foundation

// The intent-service protocol (contract extension): intent services connect a DEALER to the
// router's plug-in ROUTER endpoint (`--plugins`, default tcp://127.0.0.1:5556) and exchange one
// JSON frame per message. See docs/writing-an-intent-service.md for the grammar.

/// Message types of the plug-in protocol (`type` of every frame).
public enum PluginMessageType: String, Codable, Sendable, CaseIterable {
    // service -> router
    case register = "plugin.register"
    case heartbeat = "plugin.heartbeat"
    case reply = "plugin.reply"
    case bye = "plugin.bye"
    // router -> service
    case registered = "plugin.registered"
    case refused = "plugin.refused"
    case request = "plugin.request"
}

/// `router.services`, asked on the router's normal endpoint: what is registered.
public let routerServicesType = "router.services"

/// The head of any plug-in frame: enough to route it. `v` is read as any JSON value, so a frame
/// whose `"v"` is not the number 1 can be told so rather than ignored.
public struct PluginHead: Decodable, Sendable {
    public var v: JSONValue?
    public var type: String?
    /// A reply's request id, as any JSON value (a reply the router cannot use is still named).
    public var id: JSONValue?

    /// Whether `v` is the number this side speaks (`wireVersion`).
    public var speaksWireVersion: Bool { v == .number(Double(wireVersion)) }
}

/// A parameter's type.
public enum PluginParameterType: String, Codable, Sendable, NamedCases {
    /// Free words (or, with `values`, one of them).
    case string
    /// A number said as digits or words.
    case number
    /// One of `values`.
    case `enum`
}

/// One allowed value of a parameter, with the words that mean it.
public struct PluginValue: Codable, Sendable, Equatable {
    public var value: String
    /// Other ways to say it ("petrol" for "E10"); `value` itself is always accepted too.
    public var synonyms: [String]?

    public init(_ value: String, synonyms: [String]? = nil) {
        self.value = value
        self.synonyms = synonyms
    }
}

/// A typed parameter of an intent.
public struct PluginParameter: Codable, Sendable, Equatable {
    public var name: String
    public var type: PluginParameterType
    /// Allowed values (required for `enum`, optional for `string`).
    public var values: [PluginValue]?

    public init(name: String, type: PluginParameterType, values: [PluginValue]? = nil) {
        self.name = name
        self.type = type
        self.values = values
    }
}

/// The stages a request can be for, in SiriKit's order.
public enum PluginStage: String, Codable, Sendable, NamedCases {
    case resolve, confirm, handle
}

/// One intent an intent service offers.
public struct PluginIntent: Codable, Sendable, Equatable {
    /// Unique across the router ("StationPrice").
    public var name: String
    public var parameters: [PluginParameter]?
    /// Templates in the router's syntax; each must contain `{app}`; `{name}` binds a parameter.
    public var phrases: [String]
    /// The stages the service wants asked (default all three).
    public var stages: [PluginStage]?
    /// True when the intent needs where the user is: only then do its requests carry `location`
    /// (the ask's, else the user's last-known one). Absent or false: the user's position is not
    /// shared with the service.
    public var usesLocation: Bool?
    /// A sentence the assistant's help answer adds for this intent, as the user hears it ("You
    /// can also ask me what diesel costs at a named station."): at most 200 characters.
    public var help: String?

    public init(name: String, parameters: [PluginParameter]? = nil, phrases: [String], stages: [PluginStage]? = nil,
                usesLocation: Bool? = nil, help: String? = nil) {
        self.name = name
        self.parameters = parameters
        self.phrases = phrases
        self.stages = stages
        self.usesLocation = usesLocation
        self.help = help
    }
}

/// `plugin.register`: the first frame of a service instance, and again after `plugin.refused`
/// with `reregister: true`.
public struct PluginRegister: Codable, Sendable {
    public var v: Int = wireVersion
    public var type: String = PluginMessageType.register.rawValue
    /// The service's name; replicas share it.
    public var service: String
    /// This process's id, unique per replica (a fresh one on every start).
    public var instance: String
    public var intents: [PluginIntent]
    /// How often this instance sends heartbeats; the router sends its own at the same rate.
    public var heartbeatMs: Int?

    public init(service: String, instance: String, intents: [PluginIntent], heartbeatMs: Int?) {
        self.service = service
        self.instance = instance
        self.intents = intents
        self.heartbeatMs = heartbeatMs
    }

    /// `heartbeatMs` is read as any JSON number, so one far out of range (`1.5e300`) is clamped by
    /// the router like `-5` is, not refused as "not valid JSON" (an `Int` cannot hold it).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        v = try container.decode(Int.self, forKey: .v)
        type = try container.decode(String.self, forKey: .type)
        service = try container.decode(String.self, forKey: .service)
        instance = try container.decode(String.self, forKey: .instance)
        intents = try container.decode([PluginIntent].self, forKey: .intents)
        heartbeatMs = try container.decodeIfPresent(Double.self, forKey: .heartbeatMs).map { milliseconds in
            guard milliseconds.isFinite else { return Int.max }
            return Int(max(min(milliseconds, 1e12), -1e12))
        }
    }
}

/// `plugin.registered` (router -> service).
public struct PluginRegistered: Codable, Sendable {
    public var v: Int = wireVersion
    public var type: String = PluginMessageType.registered.rawValue
    public var service: String
    public var instance: String
    /// The heartbeat interval both sides use.
    public var heartbeatMs: Int
    public var intents: [String]
    /// Members of the registration the router does not read (`heartbeat_ms`): misspelt, most
    /// likely; absent when there are none.
    public var warnings: [String]?

    public init(service: String, instance: String, heartbeatMs: Int, intents: [String], warnings: [String]? = nil) {
        self.service = service
        self.instance = instance
        self.heartbeatMs = heartbeatMs
        self.intents = intents
        self.warnings = warnings
    }
}

/// `plugin.refused` (router -> service): the registration (or a frame from an instance the router
/// does not know) is refused. With `reregister` the service should simply register again.
public struct PluginRefused: Codable, Sendable {
    public var v: Int = wireVersion
    public var type: String = PluginMessageType.refused.rawValue
    /// `conflict` (intent or phrase collision), `bad_request`, or `unknown_instance`.
    public var code: String
    public var reason: String
    public var reregister: Bool
    /// The request whose `plugin.reply` is refused (it could not be read or used); absent when the
    /// registration or another frame is refused.
    public var id: String?

    public init(code: String, reason: String, reregister: Bool, id: String? = nil) {
        self.code = code
        self.reason = reason
        self.reregister = reregister
        self.id = id
    }
}

/// `plugin.heartbeat` (both ways) and `plugin.bye` (service -> router).
public struct PluginSignal: Codable, Sendable {
    public var v: Int = wireVersion
    public var type: String
    public var instance: String?

    public init(type: PluginMessageType, instance: String? = nil) {
        self.type = type.rawValue
        self.instance = instance
    }
}

/// `plugin.request` (router -> service): one stage of one ask.
public struct PluginRequest: Codable, Sendable {
    public var v: Int = wireVersion
    public var type: String = PluginMessageType.request.rawValue
    /// Echo it in the reply.
    public var id: String
    public var stage: PluginStage
    public var intent: String
    /// Values so far, by parameter name (strings for enum/string values, numbers for numbers).
    public var parameters: [String: JSONValue]
    public var user: String
    public var session: String?
    public var location: Coordinate?
    /// When `location` was observed, for a last-known location from location-cache (it may be hours
    /// old); absent when the location came with the ask itself, or there is none.
    public var locationAt: Date?
    public var locale: String?
    public var now: Date?
    /// Milliseconds left to answer; later replies are dropped (the user has heard a failure).
    public var deadlineMs: Int
    /// True once the user has said yes (to a `confirmationRequired`, or ahead, in a shortcut): a
    /// handle stage that asks for confirmation must then proceed. Absent otherwise.
    public var confirmed: Bool?

    public init(id: String, stage: PluginStage, intent: String, parameters: [String: JSONValue], user: String,
                session: String?, location: Coordinate?, locale: String?, now: Date?, deadlineMs: Int,
                confirmed: Bool? = nil, locationAt: Date? = nil) {
        self.id = id
        self.stage = stage
        self.intent = intent
        self.parameters = parameters
        self.user = user
        self.session = session
        self.location = location
        self.locationAt = locationAt
        self.locale = locale
        self.now = now
        self.deadlineMs = deadlineMs
        self.confirmed = confirmed
    }
}

/// The typed result of one stage, after SiriKit's resolution and response codes.
public enum PluginResultCode: String, Codable, Sendable, NamedCases {
    case success, needsValue, disambiguation, confirmationRequired, failure, inProgress
}

/// One choice of a disambiguation.
public struct PluginOption: Codable, Sendable, Equatable {
    /// What the parameter becomes when chosen ("tesco-selby-1"): the service's id, never matched
    /// against what the user says. On the wire a string or a number (`10` is kept as "10").
    public var value: String
    /// How it is said ("Doncaster Road").
    public var title: String
    public var synonyms: [String]?

    public init(value: String, title: String, synonyms: [String]? = nil) {
        self.value = value
        self.title = title
        self.synonyms = synonyms
    }

    private enum CodingKeys: String, CodingKey { case value, title, synonyms }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        title = try container.decode(String.self, forKey: .title)
        synonyms = try container.decodeIfPresent([String].self, forKey: .synonyms)
        if let number = try? container.decode(Double.self, forKey: .value) {
            value = Self.text(of: number)
            return
        }
        do {
            value = try container.decode(String.self, forKey: .value)
        } catch DecodingError.typeMismatch(_, let context) {
            throw DecodingError.typeMismatch(String.self, DecodingError.Context(
                codingPath: context.codingPath, debugDescription: "an option's value must be a string or a number"))
        }
    }

    /// A number as an option value's text: whole numbers without a decimal point ("10").
    static func text(of number: Double) -> String {
        guard number == number.rounded(), abs(number) < 1e15 else { return "\(number)" }
        return String(Int64(number))
    }
}

/// What a stage produced: the body of `plugin.reply`.
public struct PluginResult: Codable, Sendable, Equatable {
    public var result: PluginResultCode
    /// What is spoken (required for every result but `success` of resolve and confirm).
    public var dialog: String?
    /// needsValue / disambiguation: the parameter asked for.
    public var parameter: String?
    /// disambiguation: the choices.
    public var options: [PluginOption]?
    /// The short answer.
    public var value: String?
    public var snippet: Snippet?
    public var opensURL: String?
    /// Resolved values to carry on (resolve may normalise "petrol" to "E10").
    public var parameters: [String: JSONValue]?

    public init(result: PluginResultCode, dialog: String? = nil, parameter: String? = nil,
                options: [PluginOption]? = nil, value: String? = nil, snippet: Snippet? = nil,
                opensURL: String? = nil, parameters: [String: JSONValue]? = nil) {
        self.result = result
        self.dialog = dialog
        self.parameter = parameter
        self.options = options
        self.value = value
        self.snippet = snippet
        self.opensURL = opensURL
        self.parameters = parameters
    }

    public static func success(_ dialog: String? = nil, value: String? = nil, snippet: Snippet? = nil,
                               opensURL: String? = nil, parameters: [String: JSONValue]? = nil) -> PluginResult {
        PluginResult(result: .success, dialog: dialog, value: value, snippet: snippet, opensURL: opensURL,
                     parameters: parameters)
    }

    public static func needsValue(_ parameter: String, _ dialog: String) -> PluginResult {
        PluginResult(result: .needsValue, dialog: dialog, parameter: parameter)
    }

    public static func disambiguation(_ parameter: String, options: [PluginOption], _ dialog: String) -> PluginResult {
        PluginResult(result: .disambiguation, dialog: dialog, parameter: parameter, options: options)
    }

    public static func confirmationRequired(_ dialog: String) -> PluginResult {
        PluginResult(result: .confirmationRequired, dialog: dialog)
    }

    public static func failure(_ dialog: String) -> PluginResult {
        PluginResult(result: .failure, dialog: dialog)
    }

    public static func inProgress(_ dialog: String) -> PluginResult {
        PluginResult(result: .inProgress, dialog: dialog)
    }
}

/// `plugin.reply` (service -> router): the result of request `id`.
public struct PluginReply: Codable, Sendable {
    public var v: Int = wireVersion
    public var type: String = PluginMessageType.reply.rawValue
    public var id: String
    public var result: PluginResultCode
    public var dialog: String?
    public var parameter: String?
    public var options: [PluginOption]?
    public var value: String?
    public var snippet: Snippet?
    public var opensURL: String?
    public var parameters: [String: JSONValue]?

    public init(id: String, _ result: PluginResult) {
        self.id = id
        self.result = result.result
        dialog = result.dialog
        parameter = result.parameter
        options = result.options
        value = result.value
        snippet = result.snippet
        opensURL = result.opensURL
        parameters = result.parameters
    }

    public var body: PluginResult {
        PluginResult(result: result, dialog: dialog, parameter: parameter, options: options, value: value,
                     snippet: snippet, opensURL: opensURL, parameters: parameters)
    }
}

/// `router.services` reply body.
public struct RouterServicesReply: Codable, Sendable, Equatable {
    /// Where intent services connect.
    public var endpoint: String
    public var services: [RegisteredService]

    public init(endpoint: String, services: [RegisteredService]) {
        self.endpoint = endpoint
        self.services = services
    }
}

/// One service as `router.services` lists it.
public struct RegisteredService: Codable, Sendable, Equatable {
    public var service: String
    public var intents: [String]
    /// The intents (of `intents`) declared `usesLocation`: the only ones whose requests carry the
    /// user's location. Absent from older routers.
    public var locationIntents: [String]?
    /// Live replicas (an empty list: every instance is gone; asks fail at once).
    public var instances: [RegisteredInstance]
    /// With no instance: milliseconds since the last one went (`router.forget` takes it out).
    /// Absent while one runs, and from older routers.
    public var stoppedMs: Int?

    public init(service: String, intents: [String], locationIntents: [String]? = nil, instances: [RegisteredInstance],
                stoppedMs: Int? = nil) {
        self.service = service
        self.intents = intents
        self.locationIntents = locationIntents
        self.instances = instances
        self.stoppedMs = stoppedMs
    }
}

public struct RegisteredInstance: Codable, Sendable, Equatable {
    public var instance: String
    public var heartbeatMs: Int
    public var requestsInFlight: Int
    public var requestsHandled: Int
    /// Milliseconds since the router last heard from the instance (any frame); a frozen instance
    /// shows here long before it expires (after 3 heartbeats). Absent from older routers.
    public var lastHeardMs: Int?
    /// Times in a row this instance id came from a new connection while the old one was still
    /// registered (absent when none): two processes sharing an id take each other's place.
    public var takeovers: Int?

    /// Takeovers in a row from which an instance id is taken to be shared by two processes.
    public static let sharedIdTakeovers = 3

    /// Whether connections keep taking this instance id's place (`sharedIdTakeovers` or more).
    public var seemsShared: Bool { (takeovers ?? 0) >= Self.sharedIdTakeovers }

    public init(instance: String, heartbeatMs: Int, requestsInFlight: Int, requestsHandled: Int,
                lastHeardMs: Int? = nil, takeovers: Int? = nil) {
        self.instance = instance
        self.heartbeatMs = heartbeatMs
        self.requestsInFlight = requestsInFlight
        self.requestsHandled = requestsHandled
        self.lastHeardMs = lastHeardMs
        self.takeovers = takeovers
    }
}
