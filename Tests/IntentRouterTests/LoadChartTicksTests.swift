import Dispatch
import Foundation
@testable import FuelboardCLI
import Glibc
import ServiceKit
import Synchronization
import Testing

/// The chart's axes fall on round values (steps of 1, 2, 2.5, 5 × 10^k), the latency-over-time
/// panel labels its seconds, and a chart that cannot be written is said in one line.
struct LoadChartTicksTests {
    @Test(arguments: [
        (0.32, 5, 0.1), (0.29, 4, 0.1), (1.0, 5, 0.2), (10.0, 5, 2.0), (12.0, 5, 2.5), (24.0, 5, 5.0),
        (30.0, 10, 5.0), (7.0, 10, 1.0), (0.0009, 5, 0.0002), (4500.0, 5, 1000.0), (80.0, 4, 20.0),
    ])
    func niceStep_isTheSmallestRoundStepThatCoversTheSpan(span: Double, maxSteps: Int, step: Double) {
        #expect(abs(ChartAxis.niceStep(span: span, maxSteps: maxSteps) - step) < step * 1e-9)
    }

    @Test func niceStep_ofNothing_isOne() {
        #expect(ChartAxis.niceStep(span: 0, maxSteps: 5) == 1)
        #expect(ChartAxis.niceStep(span: .nan, maxSteps: 5) == 1)
    }

    @Test func anAxis_endsOnAWholeStep_withRoundLabels() {
        // The QA run's p99 peak: ticks were 0.00/0.07/0.15/0.22/0.29 ms.
        let axis = ChartAxis(upTo: 0.29, maxSteps: 5)
        #expect(axis.ticks.map(\.label) == ["0.0", "0.1", "0.2", "0.3"])
        #expect(axis.max >= 0.29 && abs(axis.max - 0.3) < 1e-9)
        let quarters = ChartAxis(upTo: 1.2, maxSteps: 5)
        #expect(quarters.ticks.map(\.label) == ["0.00", "0.25", "0.50", "0.75", "1.00", "1.25"])
        #expect(ChartAxis(upTo: 0, maxSteps: 5).max == 1)
    }

    @Test func secondsAxis_usesWholeSteps() {
        #expect(ChartAxis(upTo: 3, maxSteps: 10, integers: true).ticks.map(\.label) == ["0", "1", "2", "3"])
        #expect(ChartAxis(upTo: 25, maxSteps: 10, integers: true).step == 5)
    }

    @Test func theLatencyOverTimePanel_labelsItsSeconds() throws {
        var settings = LoadRunner.Settings(endpoint: "tcp://127.0.0.1:1")
        settings.concurrency = 2
        var result = LoadRunner.Result()
        result.histogram.record(microseconds: 150)
        result.completed = 1
        result.elapsed = .seconds(4)
        result.seconds = (1...4).map {
            LoadRunner.Second(second: $0, requests: 10, errors: 0, timeouts: 0, p50: 120, p99: 290)
        }
        let plan = LoadPlan(target: .lookup, bodies: [[]], typeName: "lookup.cheapest")
        let report = LoadReport(settings: settings, plan: plan, result: result)
        let svg = LoadChart.svg(report)
        let panel = LoadChart.latencyOverTime(report.perSecond, top: LoadChart.margin)
        for second in 0...4 {
            #expect(panel.contains("text-anchor=\"middle\">\(second)</text>"), "no tick label for second \(second)")
        }
        #expect(panel.contains(">0.3</text>") && !panel.contains(">0.29</text>"))
        #expect(svg.hasPrefix("<svg") && svg.trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix("</svg>"))
        #expect(svg.components(separatedBy: "class=\"line\"").count - 1 == 3)
        #expect(svg.contains("fuel-lookup (lookup.cheapest)"))
    }

    @Test func aLogarithmicAxis_hasATickAtEachPowerOfTen_andPlacesValuesByTheirLogarithm() {
        let axis = ChartAxis(logFrom: 0.045, upTo: 2015)
        #expect(axis.ticks.map(\.label) == ["0.01", "0.1", "1", "10", "100", "1000", "10000"])
        #expect(axis.fraction(0.01) == 0 && axis.fraction(10000) == 1)
        #expect(abs(axis.fraction(1) - 2.0 / 6) < 1e-9)
        #expect(axis.fraction(0.001) == 0 && axis.fraction(1e6) == 1)
    }

    @Test func latencies_getALogarithmicAxisOnlyWhenAStallDwarfsTheRest() {
        #expect(ChartAxis.latency(low: 0.1, high: 0.3, maxSteps: 5).logMin == nil)
        #expect(ChartAxis.latency(low: 0.1, high: 1.9, maxSteps: 5).logMin == nil)
        #expect(ChartAxis.latency(low: 0.1, high: 2000, maxSteps: 5).logMin == 0.1)
        #expect(ChartAxis.latency(low: 0, high: 2000, maxSteps: 5).logMin == nil)
    }

    /// A 2 s stall beside 0.1 ms replies (the QA run's chart drew the ordinary seconds at 0 ms):
    /// both are readable, on a logarithmic axis, each second at its middle.
    @Test func theLatencyPanel_withAStall_isLogarithmic_andDrawsEachSecondAtItsMiddle() {
        let seconds = [LoadRunner.Second(second: 1, requests: 10, errors: 0, timeouts: 0, p50: 100, p99: 250),
                       LoadRunner.Second(second: 2, requests: 10, errors: 0, timeouts: 0, p50: 1_000_000,
                                         p99: 2_000_000),
                       LoadRunner.Second(second: 3, requests: 10, errors: 0, timeouts: 0, p50: 100, p99: 250)]
        let panel = LoadChart.latencyOverTime(seconds, top: LoadChart.margin)
        #expect(panel.contains("latency over time (ms, logarithmic)"))
        #expect(panel.contains(">0.1</text>") && panel.contains(">1000</text>"))
        let firstX = LoadChart.margin + LoadChart.plotWidth * 0.5 / 3
        #expect(panel.contains(String(format: "d=\"M%.1f,", firstX)), "\(panel)")
        let steady = LoadChart.latencyOverTime([seconds[0], seconds[2]], top: LoadChart.margin)
        #expect(steady.contains("latency over time (ms)<"))
    }

    @Test func aChartThatCannotBeWritten_isOneLineWithTheReason() {
        let path = "/nonexistent-loadtest-dir/x.svg"
        let error = #expect(throws: LoadChart.WriteError.self) { try LoadChart.write("<svg/>", to: path) }
        #expect(error?.description == "cannot write chart to \(path): No such file or directory")
    }

    /// The report goes to standard output: a chart there came out mangled (written over the
    /// report when stdout went to a file), so it is refused before the run.
    @Test func aChartToTheStandardOutput_isRefused() {
        let error = #expect(throws: ConfigurationError.self) { try LoadChart.checkWritable("/dev/stdout") }
        #expect(error?.description == "--svg: /dev/stdout is the standard output, where the report goes: "
            + "give the chart a file of its own")
    }

    /// A link is written through, never replaced: `--svg /dev/stdout` with stdout sent to a file
    /// would have had the temporary file renamed over the link (and `--svg /dev/full`, as root, made
    /// /dev/full a regular file holding the chart).
    @Test func aChartThroughALink_reachesItsTarget_andLeavesTheLink() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("loadtest-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = directory.appendingPathComponent("chart.svg").path
        let link = directory.appendingPathComponent("link.svg").path
        #expect(FileManager.default.createFile(atPath: target, contents: Data("old, longer than the chart".utf8)))
        try #require(symlink(target, link) == 0)
        try LoadChart.checkWritable(link)
        try LoadChart.write("<svg></svg>\n", to: link)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "<svg></svg>\n")
        var status = stat()
        #expect(lstat(link, &status) == 0 && (status.st_mode & S_IFMT) == S_IFLNK, "the link was replaced")
    }

    @Test func aChartToAPipe_reachesItsReader() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("loadtest-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("chart.svg").path
        try #require(mkfifo(fifo, 0o600) == 0)
        let received = Mutex<Data?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread {
            let reader = FileHandle(forReadingAtPath: fifo)  // blocks until the writer opens
            let data = reader?.readDataToEndOfFile()          // and until it closes
            received.withLock { $0 = data }
            done.signal()
        }.start()
        try LoadChart.write("<svg></svg>\n", to: fifo)
        #expect(done.wait(timeout: .now() + 5) == .success)
        #expect(received.withLock { $0 } == Data("<svg></svg>\n".utf8))
        var status = stat()
        #expect(stat(fifo, &status) == 0 && (status.st_mode & S_IFMT) == S_IFIFO, "the pipe was replaced")
    }

    @Test func aChartIsWrittenWhole() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("loadtest-\(UUID()).svg").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try LoadChart.write("<svg></svg>\n", to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "<svg></svg>\n")
    }
}
