import Foundation

/// Draws a load report as an SVG a person can open: latency over time (p50 and p99 per second)
/// and the latency distribution (latency by percentile, log scale).
enum LoadChart {
    static func svg(_ report: LoadReport) -> String {
        let width = 900.0, panelHeight = 260.0, margin = 60.0
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(panelHeight * 2 + margin * 3))" \
            font-family="sans-serif" font-size="12">
            <rect width="100%" height="100%" fill="white"/>
            <text x="\(margin)" y="24" font-size="15">\(escape("\(report.target) \(report.type): \(Int(report.throughput)) req/s, \(report.mode) loop"))</text>

            """
        // Panel 1: latency over time.
        let top1 = margin
        let seconds = report.perSecond
        let maxLatency = max(1, seconds.map(\.p99).max() ?? 1) * 1.1 / 1000
        svg += axes(x: margin, y: top1, width: width - 2 * margin, height: panelHeight,
                    title: "latency over time (ms): p50 blue, p99 red", yMax: maxLatency, xLabel: "second")
        for (series, color) in [(seconds.map(\.p50), "#1f77b4"), (seconds.map(\.p99), "#d62728")] {
            let points = series.enumerated().map { index, micros -> String in
                let x = margin + (width - 2 * margin) * Double(index) / Double(max(1, series.count - 1))
                let y = top1 + panelHeight - panelHeight * (micros / 1000) / maxLatency
                return String(format: "%.1f,%.1f", x, y)
            }
            svg += "<polyline fill=\"none\" stroke=\"\(color)\" stroke-width=\"2\" points=\"\(points.joined(separator: " "))\"/>\n"
        }
        // Panel 2: distribution by percentile.
        let top2 = top1 + panelHeight + margin
        let distribution = report.distribution
        let maxValue = max(1, distribution.map { $0[1] }.max() ?? 1) * 1.1 / 1000
        svg += axes(x: margin, y: top2, width: width - 2 * margin, height: panelHeight,
                    title: "latency distribution (ms) by percentile", yMax: maxValue, xLabel: "percentile")
        let labels = distribution.enumerated().map { index, pair -> String in
            let x = margin + (width - 2 * margin) * Double(index) / Double(max(1, distribution.count - 1))
            let y = top2 + panelHeight - panelHeight * (pair[1] / 1000) / maxValue
            return String(format: "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"#2ca02c\"/>"
                + "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%@</text>", x, y, x, top2 + panelHeight + 16,
                          pair[0] == 100 ? "max" : String(format: "%g", pair[0]))
        }
        let line = distribution.enumerated().map { index, pair in
            String(format: "%.1f,%.1f", margin + (width - 2 * margin) * Double(index) / Double(max(1, distribution.count - 1)),
                   top2 + panelHeight - panelHeight * (pair[1] / 1000) / maxValue)
        }
        svg += "<polyline fill=\"none\" stroke=\"#2ca02c\" stroke-width=\"2\" points=\"\(line.joined(separator: " "))\"/>\n"
        svg += labels.joined(separator: "\n") + "\n</svg>\n"
        return svg
    }

    private static func axes(x: Double, y: Double, width: Double, height: Double, title: String, yMax: Double,
                             xLabel: String) -> String {
        var text = "<text x=\"\(x)\" y=\"\(y - 8)\">\(escape(title))</text>\n"
        text += "<rect x=\"\(x)\" y=\"\(y)\" width=\"\(width)\" height=\"\(height)\" fill=\"none\" stroke=\"#888\"/>\n"
        for step in 0...4 {
            let value = yMax * Double(step) / 4
            let lineY = y + height - height * Double(step) / 4
            text += String(format: "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#eee\"/>", x, lineY, x + width, lineY)
            text += String(format: "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%.2f</text>\n", x - 6, lineY + 4, value)
        }
        text += "<text x=\"\(x + width)\" y=\"\(y + height + 32)\" text-anchor=\"end\">\(xLabel)</text>\n"
        return text
    }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
    }
}
