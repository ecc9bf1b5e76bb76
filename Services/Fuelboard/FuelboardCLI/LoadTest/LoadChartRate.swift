import Foundation

/// The chart's throughput panel (replies and failed requests per second) and its legend.
extension LoadChart {
    /// Panel 2: replies per second as bars (the rate offered dashed, in an open loop) and the
    /// requests that failed each second (errors, timeouts, invalid replies) as red bars on the
    /// same axis, at least `failedLeastHeight` tall, so a few among thousands still show. (On an
    /// axis of their own, 1% failed looked as tall as the replies.)
    static func throughputOverTime(_ seconds: [LoadRunner.Second], rate: Double?, top: Double) -> String {
        let (ends, xAxis, xTicks) = timeAxis(seconds)
        let perSecond = seconds.map { Double($0.requests) / max($0.seconds ?? 1, 0.001) }
        let failed = seconds.map { Double($0.errors + $0.timeouts + $0.invalid) / max($0.seconds ?? 1, 0.001) }
        let most = failed.max() ?? 0
        let yAxis = ChartAxis(upTo: max(perSecond.max() ?? 0, rate ?? 0, most) * 1.05, maxSteps: 4, integers: true)
        let title = most == 0 ? "replies per second"
            : "replies per second (failed in red: errors, timeouts, invalid; a sliver at least when any failed)"
        var svg = axes(top: top, title: title, yAxis: yAxis, xTicks: xTicks, xLabel: "second", height: rateHeight)
        svg += silentBands(seconds, ends: ends, xMax: xAxis.max, top: top, height: rateHeight)
        let bottom = top + rateHeight
        for (index, end) in ends.enumerated() {
            let left = margin + plotWidth * (end - (seconds[index].seconds ?? 1)) / xAxis.max
            let right = margin + plotWidth * end / xAxis.max
            let height = rateHeight * perSecond[index] / yAxis.max
            svg += String(format: "<rect class=\"replies\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
                + "fill=\"%@\" stroke=\"none\"/>\n", left + 1, bottom - height, max(right - left - 2, 0.5), height,
                repliesColor)
        }
        if let rate {
            let y = bottom - rateHeight * rate / yAxis.max
            // Up to where the run ended. A path, not a <line>: ImageMagick's built-in renderer draws
            // a dashed <line> solid.
            svg += String(format: "<path class=\"rate\" d=\"M%.1f,%.1fL%.1f,%.1f\" fill=\"none\" stroke=\"#333\" "
                + "stroke-dasharray=\"6 4\"/>\n", margin, y, margin + plotWidth * (ends.last ?? xAxis.max) / xAxis.max, y)
        }
        guard most > 0 else { return svg }
        for (index, end) in ends.enumerated() where failed[index] > 0 {
            let width = plotWidth / xAxis.max * (seconds[index].seconds ?? 1)
            let center = margin + plotWidth * end / xAxis.max - width / 2
            let height = max(rateHeight * failed[index] / yAxis.max, failedLeastHeight)
            svg += String(format: "<rect class=\"failed\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
                + "fill=\"%@\" stroke=\"none\"/>\n", center - width / 6, bottom - height, width / 3, height, failedColor)
        }
        return svg
    }

    /// The least height of a failed bar, in px: one failure among 20,000 replies still shows.
    static let failedLeastHeight = 3.0

    /// One row of coloured swatches naming what each colour is.
    static func legend(y: Double, rate: Bool, seconds: [LoadRunner.Second], distribution: Bool = true) -> String {
        enum Mark { case line(String, dashed: Bool), box(String) }
        var entries: [(Mark, String)] = []
        if seconds.contains(where: { $0.p50 != nil }) {
            entries += [(.line(p50Color, dashed: false), "p50"), (.line(p99Color, dashed: false), "p99")]
        }
        if seconds.contains(where: { $0.requests > 0 }) { entries.append((.box(repliesColor), "replies/s")) }
        // Only what the chart shows: a legend of marks that appear nowhere sends a reader looking.
        if seconds.contains(where: { $0.errors + $0.timeouts + $0.invalid > 0 }) {
            entries.append((.box(failedColor), "failed/s"))
        }
        let silences = Set(seconds.compactMap(Silence.init))
        for kind in [Silence.noMeasuredReplies, .waited, .stalled] where silences.contains(kind) {
            entries.append((.box(kind.color), kind.label))
        }
        if rate { entries.append((.line("#333", dashed: true), "rate offered")) }
        if distribution { entries.append((.line(distributionColor, dashed: false), "distribution")) }
        var x = margin, svg = ""
        for (mark, label) in entries {
            switch mark {
            case let .line(color, dashed):
                svg += String(format: "<path class=\"swatch\" d=\"M%.1f,%.1fL%.1f,%.1f\" fill=\"none\" "
                    + "stroke=\"%@\" stroke-width=\"3\"%@/>", x, y - 4, x + 18, y - 4, color,
                    dashed ? " stroke-dasharray=\"5 3\"" : "")
            case let .box(color):
                svg += String(format: "<rect class=\"swatch\" x=\"%.1f\" y=\"%.1f\" width=\"18\" height=\"10\" "
                    + "fill=\"%@\" stroke=\"none\"/>", x, y - 9, color)
            }
            svg += String(format: "<text x=\"%.1f\" y=\"%.1f\">", x + 22, y) + escape(label) + "</text>\n"
            x += 30 + Double(label.count) * 6.5
        }
        return svg
    }
}
