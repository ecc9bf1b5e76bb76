import Foundation

/// Draws a load report as an SVG a person can open: latency over time (p50 and p99 per second)
/// and the latency distribution (latency at each percentile), both on round-numbered axes.
enum LoadChart {
    static let width = 900.0, panelHeight = 260.0, margin = 60.0
    static var plotWidth: Double { width - 2 * margin }

    static func svg(_ report: LoadReport) -> String {
        let title = "\(report.service) (\(report.type)): \(Int(report.throughput)) req/s, \(report.mode) loop"
            + (report.noReplies ? ", no replies" : "")
        let load = report.rate.map { "\(LoadReport.format(rate: $0)) req/s offered" }
            ?? "\(report.concurrency ?? 1) in flight"
        let subtitle = "\(report.endpoint), \(load), \(report.connections) connection"
            + (report.connections == 1 ? "" : "s") + String(format: ", %.1f s measured", report.seconds)
            + (report.interrupted ? " (interrupted)" : "") + ", \(Date().formatted(.iso8601))"
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(panelHeight * 2 + margin * 3))" \
            font-family="sans-serif" font-size="12">
            <rect width="100%" height="100%" fill="white"/>
            <text x="\(margin)" y="22" font-size="15">\(escape(title))</text>
            <text x="\(margin)" y="38" fill="#555">\(escape(subtitle))</text>

            """
        svg += latencyOverTime(report.perSecond, top: margin)
        svg += distribution(report.distribution, top: margin + panelHeight + margin)
        return svg + "</svg>\n"
    }

    /// Panel 1: p50 and p99 of each second, seconds on x (0 to the run's length).
    static func latencyOverTime(_ seconds: [LoadRunner.Second], top: Double) -> String {
        let yAxis = ChartAxis(upTo: (seconds.map(\.p99).max() ?? 0) / 1000 * 1.05, maxSteps: 5)
        // A last part of a second ends where the run did (2.5 s), not at a whole second.
        let ends = seconds.map { Double($0.second - 1) + ($0.seconds ?? 1) }
        let xAxis = ChartAxis(upTo: ends.last ?? 0, maxSteps: 10, integers: true)
        let xTicks = xAxis.ticks.map { (position: $0.value / xAxis.max, label: $0.label) }
        var svg = axes(top: top, title: "latency over time (ms): p50 blue, p99 red", yAxis: yAxis,
                       xTicks: xTicks, xLabel: "second")
        for (series, color) in [(seconds.map(\.p50), "#1f77b4"), (seconds.map(\.p99), "#d62728")] {
            let points = zip(ends, series).map { end, micros in
                point(x: end / xAxis.max, y: micros / 1000 / yAxis.max, top: top)
            }
            svg += polyline(points, color: color)
        }
        return svg
    }

    /// Panel 2: latency at each percentile of the distribution (evenly spaced), up to the max. A
    /// max far above the rest (a stall) would flatten every other point at the bottom, so the
    /// axis then stops at the highest percentile below it and the max is written at the top.
    static func distribution(_ pairs: [[Double]], top: Double) -> String {
        let valid = pairs.filter { $0.count == 2 }
        let highest = valid.map { $0[1] }.max() ?? 0
        let belowMax = valid.filter { $0[0] < 100 }.map { $0[1] }.max() ?? highest
        let clipped = highest > 4 * belowMax && belowMax > 0
        let yAxis = ChartAxis(upTo: (clipped ? belowMax : highest) / 1000 * 1.05, maxSteps: 5)
        let spacing = 1 / Double(max(1, valid.count - 1))
        let xTicks = valid.enumerated().map { index, pair in
            (position: Double(index) * spacing, label: pair[0] == 100 ? "max" : String(format: "%g", pair[0]))
        }
        var svg = axes(top: top, title: "latency distribution (ms) by percentile", yAxis: yAxis,
                       xTicks: xTicks, xLabel: "percentile")
        let points = valid.enumerated().map { index, pair in
            point(x: Double(index) * spacing, y: min(pair[1] / 1000 / yAxis.max, 1), top: top)
        }
        svg += polyline(points, color: "#2ca02c")
        if clipped, let last = points.last {
            svg += String(format: "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" fill=\"#2ca02c\">", last.x - 6,
                          last.y + 14) + "max \(String(format: "%.3g", highest / 1000)) ms, off the scale</text>\n"
        }
        svg += points.map { String(format: "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"#2ca02c\"/>\n", $0.x, $0.y) }
            .joined()
        return svg
    }

    /// The SVG position of a point at fractions `x` and `y` of a panel's width and height.
    private static func point(x: Double, y: Double, top: Double) -> (x: Double, y: Double) {
        (margin + plotWidth * x, top + panelHeight - panelHeight * y)
    }

    private static func polyline(_ points: [(x: Double, y: Double)], color: String) -> String {
        let list = points.map { String(format: "%.1f,%.1f", $0.x, $0.y) }.joined(separator: " ")
        return "<polyline fill=\"none\" stroke=\"\(color)\" stroke-width=\"2\" points=\"\(list)\"/>\n"
    }

    /// A panel's frame, title, y grid lines with their labels and x tick labels.
    private static func axes(top: Double, title: String, yAxis: ChartAxis,
                             xTicks: [(position: Double, label: String)], xLabel: String) -> String {
        let left = margin, bottom = top + panelHeight
        var text = "<text x=\"\(left)\" y=\"\(top - 8)\">\(escape(title))</text>\n"
        text += "<rect x=\"\(left)\" y=\"\(top)\" width=\"\(plotWidth)\" height=\"\(panelHeight)\" "
            + "fill=\"none\" stroke=\"#888\"/>\n"
        for tick in yAxis.ticks {
            let y = bottom - panelHeight * tick.value / yAxis.max
            text += String(format: "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#eee\"/>",
                           left, y, left + plotWidth, y)
            text += String(format: "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", left - 6, y + 4)
                + "\(tick.label)</text>\n"
        }
        for tick in xTicks {
            let x = left + plotWidth * tick.position
            text += String(format: "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#888\"/>",
                           x, bottom, x, bottom + 4)
            text += String(format: "<text class=\"x-tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
                           x, bottom + 16)
                + "\(escape(tick.label))</text>\n"
        }
        text += "<text x=\"\(left + plotWidth)\" y=\"\(bottom + 32)\" text-anchor=\"end\">\(xLabel)</text>\n"
        return text
    }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
    }
}
