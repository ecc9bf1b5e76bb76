import ServiceKit
import Testing

struct ConfigurationTests {
    @Test func topology_whenFlagAndEnvironmentBothSet_flagWins() throws {
        let arguments = try ParsedArguments(["--lookup", "tcp://10.0.0.1:7000"], options: Topology.options)
        let topology = try Topology(arguments: arguments, environment: [
            "FUELBOARD_LOOKUP": "tcp://127.0.0.1:6000", "FUELBOARD_INGEST": "tcp://127.0.0.1:6001",
        ])
        #expect(topology.lookup == "tcp://10.0.0.1:7000")
        #expect(topology.ingest == "tcp://127.0.0.1:6001")
        #expect(topology.router == "tcp://127.0.0.1:5550")
        #expect(topology.dataDir == "./var")
    }

    @Test func topology_whenNothingSet_usesContractDefaults() throws {
        let topology = try Topology(arguments: ParsedArguments([], options: Topology.options), environment: [:])
        #expect(topology.ingestPub == "tcp://127.0.0.1:5552")
        #expect(topology.dialog == "tcp://127.0.0.1:5555")
        #expect(topology.location == "tcp://127.0.0.1:5554")
    }

    @Test(arguments: ["127.0.0.1:5553", "tcp://127.0.0.1", "tcp://host:99999", "http://x:1", "tcp://:5"])
    func topology_whenEndpointUnparseable_throws(endpoint: String) throws {
        #expect(throws: ConfigurationError.self) {
            try Topology(arguments: ParsedArguments([], options: Topology.options),
                         environment: ["FUELBOARD_LOOKUP": endpoint])
        }
    }

    @Test func topology_whenSeveralReplicasListed_acceptsEachAndRefusesABadOne() throws {
        let good = try Topology(arguments: ParsedArguments([], options: Topology.options),
                                environment: ["FUELBOARD_LOOKUP": "tcp://10.0.0.1:5553, tcp://10.0.0.2:5553"])
        #expect(good.lookup == "tcp://10.0.0.1:5553, tcp://10.0.0.2:5553")
        #expect(throws: ConfigurationError.self) {
            try Topology(arguments: ParsedArguments([], options: Topology.options),
                         environment: ["FUELBOARD_LOOKUP": "tcp://10.0.0.1:5553,nonsense"])
        }
    }

    @Test func arguments_whenUnknownOption_throws() {
        #expect(throws: ConfigurationError.self) { try ParsedArguments(["--nope"], options: Topology.options) }
    }

    /// The last of two values silently won (`--duration 10s ... --duration 65s`): now refused,
    /// naming both; the same value twice (a script adding a default again) is one value.
    @Test func arguments_whenAnOptionIsGivenTwiceWithDifferentValues_throwsNamingBoth() throws {
        do {
            _ = try ParsedArguments(["--lookup", "tcp://127.0.0.1:1", "--lookup=tcp://127.0.0.1:2"],
                                    options: Topology.options)
            Issue.record("two different values were taken")
        } catch {
            #expect(error.description == "--lookup is given twice ('tcp://127.0.0.1:1' and 'tcp://127.0.0.1:2'): "
                + "give it once")
        }
        let same = try ParsedArguments(["--lookup", "tcp://127.0.0.1:1", "--lookup", "tcp://127.0.0.1:1"],
                                       options: Topology.options)
        #expect(same.value("--lookup") == "tcp://127.0.0.1:1")
    }

    @Test func arguments_whenValueMissing_throws() {
        #expect(throws: ConfigurationError.self) { try ParsedArguments(["--lookup"], options: Topology.options) }
    }

    @Test func arguments_whenEqualsForm_readsValue() throws {
        let parsed = try ParsedArguments(["--lookup=tcp://127.0.0.1:1"], options: Topology.options)
        #expect(parsed.value("--lookup") == "tcp://127.0.0.1:1")
    }

    @Test func duration_parsesUnits() {
        #expect(ServiceMain.parseDuration("30m") == .seconds(1800))
        #expect(ServiceMain.parseDuration("500ms") == .milliseconds(500))
        #expect(ServiceMain.parseDuration("2h") == .seconds(7200))
        #expect(ServiceMain.parseDuration("45") == .seconds(45))
        #expect(ServiceMain.parseDuration("-1s") == nil)
        #expect(ServiceMain.parseDuration("soon") == nil)
    }

    @Test(arguments: [
        ("24", "--ttl: '24' has no unit: write 24s, 24m or 24h"),
        ("1.5", "--ttl: '1.5' has no unit: write 1.5s, 1.5m or 1.5h"),
        ("0s", "--ttl: must be more than 0, got '0s'"),
        ("0", "--ttl: must be more than 0, got '0'"),
        ("soon", "--ttl: expected a duration such as 30s, 500ms, 10m or 2h, got 'soon'"),
        ("100000h", "--ttl: at most a year (8760h), got '100000h'"),
        ("1e300s", "--ttl: at most a year (8760h), got '1e300s'"),
        ("infs", "--ttl: expected a duration such as 30s, 500ms, 10m or 2h, got 'infs'"),
    ])
    func durationOption_whenUnitMissingOrTooShort_saysWhy(text: String, message: String) {
        let error = #expect(throws: ConfigurationError.self) {
            try ServiceMain.readDuration(text, option: "--ttl", atLeast: .nanoseconds(1))
        }
        #expect(error?.description == message)
    }

    @Test func durationOption_belowItsMinimum_namesTheMinimum() throws {
        let error = #expect(throws: ConfigurationError.self) {
            try ServiceMain.readDuration("2s", option: "--poll-interval", atLeast: .seconds(10))
        }
        #expect(error?.description == "--poll-interval: must be at least 10s, got '2s'")
        #expect(try ServiceMain.readDuration("24h", option: "--ttl", atLeast: .nanoseconds(1)) == .seconds(86_400))
    }

    @Test func duration_pastAYearOrNotFinite_isRefusedNotATrap() {
        #expect(ServiceMain.parseDuration("8760h") == .seconds(365 * 24 * 3600))
        #expect(ServiceMain.parseDuration("8761h") == nil)
        #expect(ServiceMain.parseDuration("1e30s") == nil)
        #expect(ServiceMain.parseDuration("inf") == nil)
        #expect(ServiceMain.parseDuration("nan") == nil)
    }

    @Test func duration_belowAMillisecond_isKeptNotTruncated() {
        #expect(ServiceMain.parseDuration("0.5ms") == .microseconds(500))
        #expect(ServiceMain.parseDuration("1.9ms") == .microseconds(1900))
        #expect(ServiceMain.parseDuration("0.25s") == .milliseconds(250))
    }

    @Test func histogram_quantiles_areWithinBucketPrecision() {
        var histogram = LatencyHistogram()
        for value in 1...1000 { histogram.record(microseconds: Double(value)) }
        #expect(abs(histogram.quantile(0.5) - 500) / 500 < 0.05)
        #expect(abs(histogram.quantile(0.99) - 990) / 990 < 0.05)
        #expect(histogram.quantile(1.0) == 1000)
        #expect(histogram.count == 1000)
    }

    /// A value recorded at a timeout moves to its real latency when the late reply comes: the
    /// count stays, the distribution and the mean follow.
    @Test func histogram_replace_movesOneValue() {
        var histogram = LatencyHistogram()
        for _ in 0..<99 { histogram.record(microseconds: 100) }
        histogram.record(microseconds: 200_000)
        histogram.replace(microseconds: 200_000, with: 2_000_000)
        #expect(histogram.count == 100 && histogram.maxMicroseconds == 2_000_000)
        #expect(histogram.quantile(1.0) == 2_000_000 && abs(histogram.quantile(0.99) - 100) / 100 < 0.05)
        #expect(abs(histogram.meanMicroseconds - (99 * 100 + 2_000_000) / 100.0) < 1e-6)
        // Nothing recorded at the old value: the new one is recorded, nothing else changes.
        histogram.replace(microseconds: 5_000, with: 6_000)
        #expect(histogram.count == 101)
    }
}
