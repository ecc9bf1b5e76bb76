import Foundation
import Messages
import ServiceKit
import ServiceTesting
import Testing
import ZeroMQ

/// `fuelboard stats`: every service's counters, for operators and scrapers.
struct StatsCommandTests {
    @Test func stats_withPrometheus_printsTheTextFormatForEachServiceAsked() throws {
        let stack = try DataPathStack()
        _ = try stack.ingestClient().call(.sysPing, EmptyBody(), as: PingBody.self)
        let cli = try ServiceProcess("fuelboard", ["stats", "--prometheus", "--only", "price-ingest,fuel-lookup",
                                                   "--ingest", stack.ingestEndpoint,
                                                   "--lookup", stack.lookupEndpoint ?? ""])
        #expect(try cli.waitForExit() == 0)
        let text = cli.log
        #expect(text.contains("# TYPE fuelboard_requests_total counter"))
        #expect(text.contains(#"fuelboard_up{service="price-ingest"} 1"#))
        #expect(text.contains(#"fuelboard_up{service="fuel-lookup"} 1"#))
        #expect(text.contains(#"fuelboard_requests_total{service="price-ingest",type="sys.ping"} 1"#))
        #expect(text.contains(#"fuelboard_latency_microseconds{service="price-ingest",quantile="0.99"}"#))
        #expect(text.contains(#"fuelboard_recent_latency_microseconds{service="price-ingest",quantile="0.99"}"#))
        // A figure given per part (here memory by kind) carries the part as `key`.
        #expect(text.contains(#"fuelboard_detail{service="fuel-lookup",name="memory",key="rssBytes"} "#))
        // Every non-comment line is `name{labels} value`.
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: " ")
            #expect(parts.count == 2 && Double(parts[1]) != nil && parts[0].contains("{"), "\(line)")
        }
    }

    @Test func stats_withPrometheus_whenAServiceIsDown_saysSoAsAMetric_andKeepsStdoutMetricsOnly() throws {
        let nobody = try unservedEndpoint()
        let run = try CommandRun.fuelboard(["stats", "--prometheus", "--only", "fuel-lookup", "--lookup", nobody,
                                            "--timeout", "200ms"])
        let (text, errors) = (run.stdout, run.stderr)
        // 0: a collector's `> f.tmp && mv f.tmp f.prom` then publishes the down service (QA: 69 kept "up").
        #expect(run.status == 0)
        #expect(text.contains(#"fuelboard_up{service="fuel-lookup"} 0"#), "\(text)")
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            #expect(line.split(separator: " ").count == 2 && line.contains("{"), "not a metric: \(line)")
        }
        #expect(errors.contains("fuel-lookup: unreachable at"))
    }

    @Test func stats_whenOneAskedServiceIsDown_printsWhatItGot_andExits69() throws {
        let stack = try DataPathStack(startLookup: false)
        let run = try CommandRun.fuelboard(["stats", "--only", "price-ingest,fuel-lookup", "--ingest", stack.ingestEndpoint,
                                    "--lookup", try unservedEndpoint(), "--timeout", "200ms"])
        #expect(run.status == 69)
        #expect(run.stdout.contains("price-ingest: "), "\(run.stdout)")
        #expect(run.stdout.contains("fuel-lookup: unreachable at"), "\(run.stdout)")
    }

    @Test func stats_whenEveryAskedServiceAnswers_exits0_andSaysTheLatencyIsTheServicesOwn() throws {
        let stack = try DataPathStack(startLookup: false)
        let run = try CommandRun.fuelboard(["stats", "--only", "price-ingest", "--ingest", stack.ingestEndpoint])
        #expect(run.status == 0)
        #expect(run.stdout.contains("price-ingest: "))
        #expect(run.stdout.contains("handling latency"), "\(run.stdout)")
        #expect(run.stdout.contains("not network round trips"), "\(run.stdout)")
        // Under the summary, the figures an operator looks at first (nothing ingested yet).
        #expect(run.stdout.contains("\n    0 feeds, 0 stations; RSS "), "\(run.stdout)")
    }

    @Test func stats_whenOnlyNamesAnUnknownService_refusesItAsAUsageError() throws {
        let run = try CommandRun.fuelboard(["stats", "--only", "fuel-lookpu"])
        #expect(run.status == 64)
        #expect(run.stderrLines.count == 1)
        #expect(run.stderr.contains("fuel-lookpu"))
    }

    @Test func stats_whenNoServiceAnswers_exits69() throws {
        let nobody = try unservedEndpoint()
        let probe = try ServiceProcess("fuelboard", ["stats", "--only", "fuel-lookup", "--lookup", nobody,
                                                     "--timeout", "200ms"])
        #expect(try probe.waitForExit() == 69)
    }

    @Test func stats_takesTheShortNamesOfTheEndpointFlags() throws {
        let stack = try DataPathStack(startLookup: false)
        let run = try CommandRun.fuelboard(["stats", "--only", "ingest", "--ingest", stack.ingestEndpoint])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("price-ingest: "), "\(run.stdout)")
    }

    @Test(arguments: ["", ",", "lookpu"])
    func stats_withOnlyNamingNoKnownService_refusesIt_listingTheNames(only: String) throws {
        let run = try CommandRun.fuelboard(["stats", "--only", only])
        #expect(run.status == 64)
        #expect(run.stderr.contains("fuel-lookup") && run.stderr.contains("dialog-renderer"), "\(run.stderr)")
        #expect(!run.stderr.contains("[\""), "no Swift array literal: \(run.stderr)")
    }

    @Test func statsJSON_hasAnEntryForEveryServiceAsked_thoseDownSayingSo() throws {
        let stack = try DataPathStack(startLookup: false)
        let nobody = try unservedEndpoint()
        let run = try CommandRun.fuelboard(["stats", "--only", "ingest,lookup", "--ingest", stack.ingestEndpoint,
                                    "--lookup", nobody, "--timeout", "300ms", "--json"])
        #expect(run.status == 69)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect((json["price-ingest"] as? [String: Any])?["requests"] != nil, "\(json)")
        let down = try #require(json["fuel-lookup"] as? [String: Any])
        #expect(down["up"] as? Bool == false && down["endpoint"] as? String == nobody, "\(down)")
    }

    @Test func servicesThatDoNotAnswer_costTheTimeoutOnce_notOncePerService() throws {
        var arguments = ["stats", "--timeout", "1s"]
        // Five sockets that take requests and never answer, held for the whole test: a port only
        // released (unservedEndpoint) was once taken by a price-ingest another test started.
        let context = Context()
        var silent: [Socket] = []
        defer { silent.forEach { $0.close() } }
        for flag in ["--router", "--ingest", "--lookup", "--location", "--dialog"] {
            let socket = try Socket(context, .router)
            socket.linger = .zero
            arguments += [flag, try socket.bind("tcp://127.0.0.1:*")]
            silent.append(socket)
        }
        let started = ContinuousClock.now
        let run = try CommandRun.fuelboard(arguments)
        #expect(run.status == 69)
        // Asked one after another, five silent services took five timeouts.
        #expect(ContinuousClock.now - started < .seconds(4), "\(ContinuousClock.now - started)")
        #expect(run.stdout.split(separator: "\n").filter { $0.contains("unreachable at") }.count == 5, "\(run.stdout)")
    }
}
