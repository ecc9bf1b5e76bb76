import Foundation
import Messages
import ServiceKit
import ServiceTesting
import Testing
import ZeroMQ

/// `fuelboard loadtest --target router` reads each answer, not only the envelope: it counts the
/// outcomes, and an answer that failed (prices unreachable, say) is an error, not a success.
struct LoadTestAnswersTests {
    private static func run(_ services: RealServices, _ extra: [String] = [],
                            requests: Int = 200) throws -> (status: Int32, report: [String: Any]) {
        let cli = try ServiceProcess("fuelboard", ["loadtest", "--target", "router", "--router", services.routerEndpoint,
                                                   "--location", services.locationEndpoint,
                                                   "--points", "uniform", "--concurrency", "4", "--requests", "\(requests)",
                                                   "--warmup", "0s", "--json"] + extra)
        let status = try cli.waitForExit(timeout: .seconds(60))
        let report = try jsonReport(in: cli.log)
        return (status, report)
    }

    @Test func answersThatFailed_areErrorsByOutcome_andFailTheRun() throws {
        // The only fuel-lookup never loads prices: every lookup is `unavailable`.
        let services = try RealServices(lookupReplicas: 0, loadingReplicas: 1)
        defer { services.stop() }
        let (status, report) = try Self.run(services)
        #expect(status == 1)
        #expect(report["errorsByCode"] as? [String: Int] == ["failure:pricesUnavailable": 200], "\(report)")
        #expect(report["outcomes"] as? [String: Int] == ["pricesUnavailable": 200], "\(report)")
    }

    /// Answers given without a backend (dialog-renderer down, location-cache hanging) are errors
    /// by what they lacked, and fail the run: the run passed, the whole path not measured (QA).
    @Test(arguments: [(false, true, "degraded:dialog-renderer", "dialog-renderer"),
                      (true, false, "degraded:location-cache", "location-cache")])
    func answersGivenWithoutABackend_areErrorsNamingIt_andFailTheRun(locationHangs: Bool, dialogDown: Bool,
                                                                     code: String, service: String) throws {
        let services = try RealServices(dialogDown: dialogDown, locationHangs: locationHangs)
        defer { services.stop() }
        let (status, report) = try Self.run(services, ["--keep-users"], requests: 40)
        #expect(status == 1, "\(report)")
        let errors = try #require(report["errorsByCode"] as? [String: Int])
        #expect(errors[code] ?? 0 > 0 && errors.keys.allSatisfy { $0 == code || $0.hasPrefix("failure:") }, "\(errors)")
        let failures = try #require(report["failures"] as? [String])
        #expect(failures.contains { $0.hasPrefix("answers given without \(service)") }, "\(failures)")
    }

    /// Asks naming another app than the router's are not understood: the failure says to check
    /// the app name (it read only "failure:notUnderstood 3182").
    @Test func asksNamingAnotherApp_failSayingToCheckTheAppName() throws {
        let services = try RealServices()
        defer { services.stop() }
        let (status, report) = try Self.run(services, ["--app-name", "PetrolPal", "--keep-users"], requests: 20)
        #expect(status == 1)
        let failures = try #require(report["failures"] as? [String])
        #expect(failures.contains("the router did not understand 20 asks: does it answer to the app name the asks "
            + "use? (--app-name, $FUELBOARD_APP_NAME)"), "\(failures)")
    }

    @Test func answersThatSucceeded_areCountedByOutcome_withoutErrors() throws {
        let services = try RealServices()
        defer { services.stop() }
        let (status, report) = try Self.run(services)
        #expect(status == 0, "\(report)")
        #expect((report["errorsByCode"] as? [String: Int])?.isEmpty == true)
        let outcomes = try #require(report["outcomes"] as? [String: Int])
        // Points spread over the UK: nearly all far from the two stations of the test feed.
        #expect(outcomes.values.reduce(0, +) == 200 && (outcomes["nothingInRange"] ?? 0) > 0, "\(outcomes)")
    }

    /// A router that says ok but gives no answer (here a lookup's body) is broken: its replies fail
    /// validation, and the run fails (they passed as "answers unknown").
    @Test func okRepliesWithoutAnAnswer_failValidation() throws {
        let router = try InProcessService.start { context in
            let server = try ReplyServer(name: "router", context: context, bind: "tcp://127.0.0.1:*",
                                         logger: Logger(label: "router", level: .critical))
            server.on("assistant.ask") { request in request.reply(bodyJSON: Array(#"{"results":[]}"#.utf8)) }
            return server
        }
        defer { router.stop() }
        let cli = try ServiceProcess("fuelboard", ["loadtest", "--target", "router", "--router", router.endpoint,
                                                   "--keep-users", "--points", "uniform", "--requests", "20",
                                                   "--warmup", "0s", "--json"])
        #expect(try cli.waitForExit(timeout: .seconds(30)) == 1, "\(cli.log.suffix(600))")
        let report = try jsonReport(in: cli.log)
        #expect(report["invalidReplies"] as? Int == 20, "\(report)")
        let reasons = try #require(report["invalidByReason"] as? [String: Int])
        #expect(reasons.keys.first?.hasPrefix("ok, but no assistant answer") == true, "\(reasons)")
        #expect((report["outcomes"] as? [String: Int] ?? [:]).isEmpty, "\(report)")
    }

    @Test func theUsersALoadTestAskedAs_areForgottenAfterIt() throws {
        let services = try RealServices()
        defer { services.stop() }
        let (status, _) = try Self.run(services)
        #expect(status == 0)
        let client = try RequestClient(context: Context(), endpoint: services.locationEndpoint, timeout: .seconds(5),
                                       retries: 0)
        let stats = try client.call(.sysStats, EmptyBody(), as: StatsBody.self)
        // Stored by the router for each ask (200 asks: load-0 ... load-199), then forgotten: those
        // 200 only (all 5,000 possible users were, one erase from disk each).
        #expect((stats.requestsByType["location.put"] ?? 0) >= 200, "\(stats.requestsByType)")
        #expect(stats.requestsByType["location.forget"] == 200, "\(stats.requestsByType)")
        #expect(stats.details["usersStored"] == .number(0), "\(stats.details)")
    }

    /// An open loop far past what the router answers leaves asks queued with it at the end, each
    /// storing its user's position when the router gets to it: the users are forgotten once the
    /// router is through them (forgotten before, thousands came back).
    @Test func theUsersOfAnOverloadedRun_areForgottenOnceTheRouterIsThroughItsAsks() throws {
        let services = try RealServices()
        defer { services.stop() }
        let cli = try ServiceProcess("fuelboard", ["loadtest", "--target", "router", "--router", services.routerEndpoint,
                                                   "--location", services.locationEndpoint, "--points", "uniform",
                                                   "--rate", "30000", "--warmup", "0s", "--duration", "1s", "--json"])
        // BEHIND (3), or failed (1) where the overload made answers late or degraded.
        #expect([1, 3].contains(try cli.waitForExit(timeout: .seconds(90))), "\(cli.log.suffix(800))")
        #expect(cli.log.contains("waiting for intent-router to answer the asks the run left with it"),
                "\(cli.log.suffix(800))")
        #expect(cli.log.contains("forgot the load test's") && !cli.log.contains("still answering"),
                "\(cli.log.suffix(800))")
        let client = try RequestClient(context: Context(), endpoint: services.locationEndpoint, timeout: .seconds(5),
                                       retries: 0)
        let stats = try client.call(.sysStats, EmptyBody(), as: StatsBody.self)
        #expect(stats.details["usersStored"] == .number(0), "\(stats.details)")
    }

    @Test func keepUsers_leavesThemInLocationCache() throws {
        let services = try RealServices()
        defer { services.stop() }
        #expect(try Self.run(services, ["--keep-users"]).status == 0)
        let client = try RequestClient(context: Context(), endpoint: services.locationEndpoint, timeout: .seconds(5),
                                       retries: 0)
        let stats = try client.call(.sysStats, EmptyBody(), as: StatsBody.self)
        #expect(stats.requestsByType["location.forget"] == nil && stats.details["usersStored"] == .number(200),
                "\(stats.details)")
    }
}
