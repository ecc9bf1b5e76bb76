@testable import FuelboardCLI
import ServiceKit
import Testing

/// What the chart shows beyond its axes: how the load was made, and a stall's max without
/// flattening the rest of the distribution.
struct LoadChartTests {
    private static func report(latencies: [Double], seconds: [LoadRunner.Second], threads: Int = 1) -> LoadReport {
        var settings = LoadRunner.Settings(endpoint: "tcp://127.0.0.1:5599")
        settings.threads = threads
        settings.concurrency = 8
        settings.connections = 2
        var result = LoadRunner.Result()
        for value in latencies { result.histogram.record(microseconds: value) }
        result.completed = latencies.count
        result.elapsed = .milliseconds(2500)
        result.seconds = seconds
        return LoadReport(settings: settings, plan: LoadPlan(target: .lookup, bodies: [[]], typeName: "lookup.cheapest"),
                          result: result)
    }

    private static func second(_ index: Int, length: Double? = nil) -> LoadRunner.Second {
        LoadRunner.Second(second: index, requests: 10, errors: 0, timeouts: 0, p50: 100, p99: 200, seconds: length)
    }

    @Test func theSubtitle_saysWhereAndHowTheLoadWasMade() {
        let svg = LoadChart.svg(Self.report(latencies: [100, 200], seconds: [Self.second(1)]))
        #expect(svg.contains("tcp://127.0.0.1:5599, 8 in flight, 2 connections, 2.50 s measured"), "\(svg)")
        let threaded = LoadChart.svg(Self.report(latencies: [100, 200], seconds: [Self.second(1)], threads: 2))
        #expect(threaded.contains("8 in flight, 2 connections from 2 threads, 2.50 s measured"), "\(threaded)")
    }

    @Test func aMaxFarAboveTheRest_isWrittenAtTheTop_insteadOfFlatteningTheDistribution() throws {
        let latencies = Array(repeating: 150.0, count: 10_000) + [1_000_000]
        let svg = LoadChart.svg(Self.report(latencies: latencies, seconds: [Self.second(1)]))
        #expect(svg.contains("max 1e+03 ms, off the scale") || svg.contains("max 1000 ms, off the scale"), "\(svg)")
        // Not drawn as a point at the axis's top joined to the rest (that read as a max of the
        // top value, and the line crossed the note): an arrow at the top, the note above the panel.
        let panel = LoadChart.distribution([[0, 150], [50, 150], [99, 150], [99.9, 160], [100, 1_000_000]], top: 500)
        #expect(panel.components(separatedBy: "<circle").count - 1 == 4, "\(panel)")
        #expect(panel.contains("class=\"off-scale\""))
        let line = try #require(panel.components(separatedBy: "class=\"line\"").dropFirst().first)
        #expect(line.prefix { $0 != ">" }.components(separatedBy: "L").count - 1 == 3, "three segments, not four: \(line)")
        let note = try #require(panel.split(separator: "\n").first { $0.contains("off the scale") })
        #expect(note.contains("y=\"492.0\""), "above the panel (top 500): \(note)")
        let calm = LoadChart.svg(Self.report(latencies: [100, 120, 150, 300], seconds: [Self.second(1)]))
        #expect(!calm.contains("off the scale"))
    }

    /// ImageMagick's built-in SVG renderer strokes a polyline as if closed (a straight line from
    /// its last point back to the first, across the chart): each segment is a subpath of its own.
    @Test func aLine_isOneSubpathPerSegment_soNoRendererClosesIt() {
        let line = LoadChart.polyline([(x: 10, y: 20), (x: 30, y: 40), (x: 50, y: 60)], color: "#123456")
        #expect(line.hasPrefix("<path ") && !line.contains("polyline"), "\(line)")
        #expect(line.contains("d=\"M10.0,20.0L30.0,40.0 M30.0,40.0L50.0,60.0\""), "\(line)")
        #expect(line.contains("fill=\"none\"") && line.contains("stroke=\"#123456\""))
        #expect(!line.contains("Z") && !line.contains("z"), "never closed")
    }

    @Test func aLastPartOfASecond_endsTheTimeAxisWhereTheRunEnded() {
        let svg = LoadChart.latencyOverTime([Self.second(1), Self.second(2), Self.second(3, length: 0.5)], top: 60)
        // The axis runs to 3 (whole-second ticks); each second is drawn at its middle, the last
        // half second at 2.25 s, not at 2.5 or 3.
        let at = { (seconds: Double) in String(format: "%.1f,", LoadChart.margin + LoadChart.plotWidth * seconds / 3) }
        #expect(svg.contains("d=\"M" + at(0.5)), "\(svg)")
        #expect(svg.contains("L" + at(2.25)) && !svg.contains("L" + at(2.5)) && !svg.contains("L" + at(3)), "\(svg)")
    }
}
