import Foundation

/// Draws a load report as an SVG a person can open: latency over time (p50 and p99 per second)
/// and the latency distribution (latency at each percentile), both on round-numbered axes.
enum LoadChart {
    static let width = 900.0, panelHeight = 260.0, rateHeight = 130.0, margin = 60.0
    static var plotWidth: Double { width - 2 * margin }
    static let p50Color = "#1f77b4", p99Color = "#d62728", repliesColor = "#9ecae1", failedColor = "#d62728"
    static let silentColor = "#e0e0e0", waitedColor = "#f7dfae", stalledColor = "#f4b6b6", distributionColor = "#2ca02c"

    static func svg(_ report: LoadReport) -> String {
        let verdict = report.interruptedDuringWarmup ? "INTERRUPTED in the warm-up"
            : report.failed ? (report.fellBehind ? "FAILED and BEHIND" : "FAILED") : report.fellBehind ? "BEHIND" : nil
        let title = (verdict.map { "\($0): " } ?? "")
            + "\(report.service) (\(report.type)): \(LoadReport.format(rate: report.throughput)) req/s, \(report.mode) loop"
            + (report.noReplies ? ", no replies" : "")
        let load = report.rate.map { "\(LoadReport.format(rate: $0)) req/s offered" }
            ?? "\(report.concurrency ?? 1) in flight"
        let subtitle = "\(report.endpoint), \(load), \(report.connections) connection"
            + (report.connections == 1 ? "" : "s") + (report.threads == 1 ? "" : " from \(report.threads) threads")
            + String(format: report.seconds < 10 ? ", %.2f s measured" : ", %.1f s measured", report.seconds)
            + (report.interrupted ? " (interrupted)" : "") + ", \(report.startedAt)"
        let workload = report.workload
        let why = report.failed ? report.failures.joined(separator: "; ")
            : report.fellBehind ? "the server or the load generator did not keep up with the rate offered" : nil
        let latencyTop = 126.0, rateTop = latencyTop + panelHeight + margin
        let distributionTop = rateTop + rateHeight + margin
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" \
            height="\(Int(distributionTop + panelHeight + margin))" font-family="sans-serif" font-size="12" \
            stroke="none">
            <rect width="100%" height="100%" fill="white" stroke="none"/>
            <text x="\(margin)" y="22" font-size="15"\(verdict == nil ? "" : " fill=\"#b00000\"")>\(escape(title))</text>
            <text x="\(margin)" y="38" fill="#555">\(escape(subtitle))</text>
            <text x="\(margin)" y="52" fill="#555">\(escape(workload))</text>

            """
        for (index, line) in wrap(why ?? "", width: 130).prefix(2).enumerated() {
            svg += "<text x=\"\(margin)\" y=\"\(68 + 14 * index)\" fill=\"#b00000\">\(escape(line))</text>\n"
        }
        let measured = report.requests + report.timeoutsInLatency + report.unansweredInLatency > 0
        svg += legend(y: 102, rate: report.rate != nil, seconds: report.perSecond, distribution: measured)
        let leftOut = [(report.timeoutsInLatency, "timed out"), (report.unansweredInLatency, "unanswered at the end")]
            .filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }.joined(separator: " and ")
        svg += latencyOverTime(report.perSecond, top: latencyTop,
                               note: leftOut.isEmpty ? "" : ": replies only (\(leftOut) "
                                   + (report.timeoutsInLatency + report.unansweredInLatency == 1 ? "is" : "are")
                                   + " in the distribution)")
        svg += throughputOverTime(report.perSecond, rate: report.rate, top: rateTop)
        var parts: [String] = []
        if report.timeoutsOnDisconnect > 0 {
            parts.append("\(report.timeoutsOnDisconnect) lost when their connection dropped (their age then)")
        }
        if report.timeoutsAtRealLatency > 0 { parts.append("\(report.timeoutsAtRealLatency) answered after the timeout") }
        if report.timeoutsAtTimeout > 0 {
            parts.append("\(report.timeoutsAtTimeout) timed out (at the timeout, a lower bound)")
        }
        if report.unansweredInLatency > 0 {
            parts.append("\(report.unansweredInLatency) unanswered at the end (their age then, a lower bound)")
        }
        let note = parts.isEmpty ? "" : "\(report.requests) answered, " + parts.joined(separator: ", ")
        svg += measured ? distribution(report.distribution, top: distributionTop, note: note)
            : nothingMeasured(top: distributionTop)
        return svg + "</svg>\n"
    }

    /// Panel 1: p50 and p99 of each second, drawn at the middle of its second, seconds on x (0 to
    /// the run's length); a logarithmic y axis when a stall dwarfs the rest. A second without
    /// replies has no latency: the lines break there, over a band saying so (red when stalled).
    static func latencyOverTime(_ seconds: [LoadRunner.Second], top: Double, note: String = "") -> String {
        let values = (seconds.compactMap(\.p50) + seconds.compactMap(\.p99)).filter { $0 > 0 }
        let yAxis = ChartAxis.latency(low: (values.min() ?? 0) / 1000, high: (values.max() ?? 0) / 1000, maxSteps: 5)
        let (ends, xAxis, xTicks) = timeAxis(seconds)
        let middles = zip(seconds, ends).map { second, end in end - (second.seconds ?? 1) / 2 }
        let scale = yAxis.logMin == nil ? "latency over time (ms)" : "latency over time (ms, logarithmic)"
        var svg = axes(top: top, title: scale + note, yAxis: yAxis, xTicks: xTicks, xLabel: "second")
        svg += silentBands(seconds, ends: ends, xMax: xAxis.max, top: top, height: panelHeight)
        for (series, color) in [(seconds.map(\.p50), p50Color), (seconds.map(\.p99), p99Color)] {
            // Runs of seconds with replies, each its own line (a lone one a dot).
            var run: [(x: Double, y: Double)] = []
            for (middle, micros) in zip(middles, series) + [(0, nil)] {
                if let micros {
                    run.append(point(x: middle / xAxis.max, y: yAxis.fraction(micros / 1000), top: top))
                    continue
                }
                if run.count == 1, let only = run.first {
                    svg += String(format: "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%@\" "
                                  + "stroke=\"none\"/>\n", only.x, only.y, color)
                } else if run.count > 1 {
                    svg += polyline(run, color: color)
                }
                run = []
            }
        }
        return svg
    }

    /// Where each second ends (a last part of a second ends where the run did, 2.5 s, not at a
    /// whole second), and the time axis.
    static func timeAxis(_ seconds: [LoadRunner.Second])
        -> (ends: [Double], axis: ChartAxis, ticks: [(position: Double, label: String)]) {
        let ends = seconds.map { Double($0.second - 1) + ($0.seconds ?? 1) }
        let xAxis = ChartAxis(upTo: ends.last ?? 0, maxSteps: 10, integers: true)
        return (ends, xAxis, xAxis.ticks.map { (position: $0.value / xAxis.max, label: $0.label) })
    }

    /// What a second without a measured reply was, for its band and the legend.
    enum Silence: Equatable {
        /// Nobody waited through it (the server may have answered warm-up requests).
        case noMeasuredReplies
        /// Requests waited through it and were answered later, in time: the server paused.
        case waited
        /// Requests waited through it and got no reply in time: the server stopped answering.
        case stalled

        init?(_ second: LoadRunner.Second) {
            guard second.requests == 0 else { return nil }
            self = second.stalled == true ? .stalled : second.waited == true ? .waited : .noMeasuredReplies
        }

        var label: String {
            switch self {
            case .noMeasuredReplies: "no measured replies"
            case .waited: "no replies, requests waiting"
            case .stalled: "stalled"
            }
        }

        var cssClass: String {
            switch self {
            case .noMeasuredReplies: "no-replies"
            case .waited: "waited"
            case .stalled: "stalled"
            }
        }

        var color: String {
            switch self {
            case .noMeasuredReplies: silentColor
            case .waited: waitedColor
            case .stalled: stalledColor
            }
        }
    }

    /// Shaded bands over the seconds without a measured reply: grey "no measured replies" (the
    /// server may have answered warm-up requests), amber while requests waited and were answered
    /// late, red "stalled" (they never were). Each run of adjacent seconds of one kind is
    /// labelled once, at its middle, kept inside the panel, unless the label would run into the
    /// one before it (the legend names the colours).
    static func silentBands(_ seconds: [LoadRunner.Second], ends: [Double], xMax: Double, top: Double,
                            height: Double) -> String {
        var svg = ""
        var run: (kind: Silence, left: Double, right: Double)?
        var labelledUpTo = -Double.infinity
        func label() {
            guard let run else { return }
            let text = run.kind.label
            let half = Double(text.count) * bandLabelCharacterWidth / 2
            let center = min(max((run.left + run.right) / 2, margin + half + 2), margin + plotWidth - half - 2)
            guard center - half >= labelledUpTo + 6 else { return }
            labelledUpTo = center + half
            svg += String(format: "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"10\" fill=\"#700\">",
                          center, top + 14) + text + "</text>\n"
        }
        for (second, end) in zip(seconds, ends) {
            guard let kind = Silence(second) else {
                label()
                run = nil
                continue
            }
            let length = second.seconds ?? 1
            let left = margin + plotWidth * (end - length) / xMax, right = margin + plotWidth * end / xMax
            svg += String(format: "<rect class=\"%@\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
                          + "fill=\"%@\" stroke=\"none\"/>",
                          kind.cssClass, left, top, right - left, height, kind.color)
            if let current = run, current.kind == kind {
                run?.right = right
            } else {
                label()
                run = (kind, left, right)
            }
        }
        label()
        return svg
    }

    /// The width a band label takes per character (font size 10, sans-serif), generously.
    static let bandLabelCharacterWidth = 5.8

    /// Panel 3: latency at each percentile of the distribution (evenly spaced), up to the max, on
    /// a logarithmic axis when the top percentiles dwarf the median (a stall). Otherwise a max far
    /// above the rest would flatten every other point at the bottom, so the axis then stops at the
    /// highest percentile below it and the max is written at the top.
    static func distribution(_ pairs: [[Double]], top: Double, note: String = "") -> String {
        let valid = pairs.filter { $0.count == 2 }
        let highest = valid.map { $0[1] }.max() ?? 0
        let belowMax = valid.filter { $0[0] < 100 }.map { $0[1] }.max() ?? highest
        let median = valid.first { $0[0] >= 50 }?[1] ?? 0
        let logarithmic = median > 0 && belowMax > 20 * median
        let clipped = !logarithmic && highest > 4 * belowMax && belowMax > 0
        let lowest = valid.map { $0[1] }.filter { $0 > 0 }.min() ?? median
        let yAxis = logarithmic ? ChartAxis(logFrom: lowest / 1000, upTo: highest / 1000)
            : ChartAxis(upTo: (clipped ? belowMax : highest) / 1000 * 1.05, maxSteps: 5)
        let spacing = 1 / Double(max(1, valid.count - 1))
        let xTicks = valid.enumerated().map { index, pair in
            (position: Double(index) * spacing, label: pair[0] == 100 ? "max" : String(format: "%g", pair[0]))
        }
        let title = "latency distribution (ms" + (logarithmic ? ", logarithmic" : "") + ") by percentile"
        var svg = axes(top: top, title: title, yAxis: yAxis, xTicks: xTicks, xLabel: "percentile")
        // What the percentiles hold, inside the panel's bottom right (the curve rises to the right,
        // leaving that corner empty): after the title it ran past the chart's edge.
        let noteLines = Array(wrap(note, width: 90).prefix(2))
        for (index, line) in noteLines.enumerated() {
            let y = top + panelHeight - 10 - 14 * Double(noteLines.count - 1 - index)
            svg += String(format: "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" fill=\"#555\">",
                          margin + plotWidth - 8, y) + escape(line) + "</text>\n"
        }
        let points = valid.enumerated().map { index, pair in
            point(x: Double(index) * spacing, y: yAxis.fraction(pair[1] / 1000), top: top)
        }
        // A max off the scale is not a point on it: the line stops before it, an arrow at the top
        // marks where it went, and its value is written above the panel, clear of the curve (drawn
        // at the top and joined to the rest, it read as a max of the axis's top value).
        let onScale = clipped ? Array(points.dropLast()) : points
        svg += polyline(onScale, color: distributionColor)
        if clipped, let last = points.last {
            svg += String(format: "<path class=\"off-scale\" d=\"M%.1f,%.1fL%.1f,%.1fL%.1f,%.1fZ\" fill=\"#2ca02c\" "
                          + "stroke=\"none\"/>\n", last.x - 5, top + 9, last.x, top + 1, last.x + 5, top + 9)
            svg += String(format: "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" fill=\"#2ca02c\">",
                          margin + plotWidth, top - 8) + "max \(formatMilliseconds(highest / 1000)) ms, off the scale ↑</text>\n"
        }
        for point in onScale {
            svg += String(format: "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"#2ca02c\" stroke=\"none\"/>\n",
                          point.x, point.y)
        }
        return svg
    }

    /// The distribution panel of a run that measured no latency at all (every reply invalid, or
    /// none): said in it, instead of a curve at 0 ms.
    static func nothingMeasured(top: Double) -> String {
        axes(top: top, title: "latency distribution (ms) by percentile", yAxis: ChartAxis(upTo: 1, maxSteps: 1),
             xTicks: [], xLabel: "percentile")
            + String(format: "<text class=\"nothing-measured\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
                + "fill=\"#555\">no latency measured: no request was answered, timed out or left unanswered</text>\n",
                margin + plotWidth / 2, top + panelHeight / 2)
    }

    /// `text` in lines of at most `width` characters, broken between words.
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = [], line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        return line.isEmpty ? lines : lines + [line]
    }

    /// 2004.3 -> "2004", 12.34 -> "12.3", 0.0567 -> "0.057": whole milliseconds from 100 up.
    static func formatMilliseconds(_ value: Double) -> String {
        value >= 100 ? String(format: "%.0f", value) : value >= 1 ? String(format: "%.1f", value)
            : String(format: "%.3f", value)
    }

    /// The SVG position of a point at fractions `x` and `y` of a panel's width and height.
    static func point(x: Double, y: Double, top: Double, height: Double = panelHeight) -> (x: Double, y: Double) {
        (margin + plotWidth * x, top + height - height * y)
    }

    /// A line through `points`, drawn as a path whose every segment is a subpath of its own
    /// (`M a L b M b L c ...`). ImageMagick's built-in SVG renderer (what `convert chart.svg
    /// chart.png` uses where librsvg is not installed) strokes a `<polyline>` or a one-piece
    /// path as if closed, with a straight line from its last point back to its first; closing a
    /// one-segment subpath draws nothing new, so the line looks the same in every renderer.
    static func polyline(_ points: [(x: Double, y: Double)], color: String) -> String {
        let coordinates = points.map { String(format: "%.1f,%.1f", $0.x, $0.y) }
        let segments = zip(coordinates, coordinates.dropFirst()).map { "M\($0)L\($1)" }.joined(separator: " ")
        return "<path class=\"line\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"2\" d=\"\(segments)\"/>\n"
    }

    /// A panel's frame, title, y grid lines with their labels and x tick labels.
    static func axes(top: Double, title: String, yAxis: ChartAxis, xTicks: [(position: Double, label: String)],
                     xLabel: String, height: Double = panelHeight) -> String {
        let left = margin, bottom = top + height, panelHeight = height
        var text = "<text x=\"\(left)\" y=\"\(top - 8)\">\(escape(title))</text>\n"
        text += "<rect x=\"\(left)\" y=\"\(top)\" width=\"\(plotWidth)\" height=\"\(panelHeight)\" "
            + "fill=\"none\" stroke=\"#888\"/>\n"
        for tick in yAxis.ticks {
            let y = bottom - panelHeight * yAxis.fraction(tick.value)
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

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
    }
}
