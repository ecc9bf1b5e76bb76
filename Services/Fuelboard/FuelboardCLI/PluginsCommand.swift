import Foundation
import Messages
import ServiceKit

/// `fuelboard plugins`: the intent services plugged into the router (`router.services`): each
/// service's intents and live instances, and the endpoint they connect to.
enum PluginsCommand {
    static let spec = (
        usage: "[--forget SERVICE]",
        summary: """
            Lists the intent services plugged into intent-router: their intents ("(location)" marks one
            that receives the user's location), live instances (heartbeat, when last heard, requests in
            flight and handled), how long a service with none has been stopped, and the plug-in endpoint.
            --forget takes a stopped service out (its phrases and intents go, free for others). Exits 69
            when the router does not answer, 1 when --forget was refused (no such service, or one still
            running).
            """,
        options: [
            OptionSpec("--forget", value: "SERVICE", help: "forget this stopped intent service instead of listing"),
        ]
    )

    static func run(_ cli: CLIContext) throws -> Int32 {
        let client = try cli.client(cli.topology.router, retries: 0)
        if let service = cli.arguments.value("--forget") {
            return try forget(service, client, cli)
        }
        let listing: RouterServicesReply
        do {
            listing = try client.call(routerServicesType, EmptyBody(), as: RouterServicesReply.self)
        } catch {
            CLIContext.printError("intent-router does not answer at \(cli.topology.router): \(error.message)")
            return ServiceMain.ExitCode.unavailable
        }
        if cli.json {
            try cli.printJSON(listing)
            return ServiceMain.ExitCode.success
        }
        print("plug-in endpoint \(listing.endpoint)")
        guard !listing.services.isEmpty else {
            print("no intent service is plugged in")
            return ServiceMain.ExitCode.success
        }
        var table = TextTable(headers: ["service", "intents", "instance", "heartbeat", "last heard", "in flight",
                                        "handled"], rightAligned: [3, 4, 5, 6])
        for service in listing.services {
            let intents = Self.intents(service)
            guard !service.instances.isEmpty else {
                table.add([service.service, intents, Self.stopped(service), "", "", "", ""])
                continue
            }
            for instance in service.instances {
                table.add([service.service, intents, Self.instanceName(instance), "\(instance.heartbeatMs) ms",
                           Self.lastHeard(instance), "\(instance.requestsInFlight)", "\(instance.requestsHandled)"])
            }
        }
        print(table.rendered)
        let shared = listing.services.flatMap { service in
            service.instances.filter(\.seemsShared).map { "\(service.service)/\($0.instance)" }
        }
        if !shared.isEmpty {
            print("SHARED instance id? \(shared.joined(separator: ", ")): new connections keep taking its place: two "
                + "processes sharing one id (give each its own), or one whose connection keeps dropping (a frame over "
                + "1 MiB drops it; the router's log says when)")
        }
        return ServiceMain.ExitCode.success
    }

    /// `--forget SERVICE`: one `router.forget`, its reply or error in one line.
    static func forget(_ service: String, _ client: RequestClient, _ cli: CLIContext) throws -> Int32 {
        let reply: RouterForgetReply
        do {
            reply = try client.call(routerForgetType, RouterForgetRequest(service: service), as: RouterForgetReply.self)
        } catch {
            return CLIContext.failed("forget", error)
        }
        if cli.json {
            try cli.printJSON(reply)
        } else {
            print("Forgot \(reply.service) (intents \(reply.intents.joined(separator: ",")))")
        }
        return ServiceMain.ExitCode.success
    }

    /// The instance id, marked "(SHARED?)" when connections keep taking its place.
    static func instanceName(_ instance: RegisteredInstance) -> String {
        instance.seemsShared ? "\(instance.instance) (SHARED?)" : instance.instance
    }

    /// "(none running)", or "(none running for 5 min)" from a router that says since when.
    static func stopped(_ service: RegisteredService) -> String {
        guard let milliseconds = service.stoppedMs else { return "(none running)" }
        let seconds = milliseconds / 1000
        let span = seconds < 120 ? "\(seconds) s" : seconds < 7200 ? "\(seconds / 60) min" : "\(seconds / 3600) h"
        return "(none running for \(span))"
    }

    /// The service's intents, each that receives the user's location marked "(location)".
    static func intents(_ service: RegisteredService) -> String {
        let located = Set(service.locationIntents ?? [])
        return service.intents.map { located.contains($0) ? "\($0) (location)" : $0 }.joined(separator: ",")
    }

    /// "120 ms ago"; "LATE 2400 ms ago" past two heartbeats (it expires after three); "-" from a
    /// router that does not say.
    static func lastHeard(_ instance: RegisteredInstance) -> String {
        guard let heard = instance.lastHeardMs else { return "-" }
        return (heard > 2 * instance.heartbeatMs ? "LATE " : "") + "\(heard) ms ago"
    }
}
