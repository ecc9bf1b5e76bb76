@testable import FuelboardCLI
import Testing

/// The chart does not draw a second without replies as 0 ms: its lines break over a band saying
/// so (red when stalled); it shows replies and failures per second, a legend of swatches, and a
/// run that failed or fell behind says so in its title.
struct LoadChartGapsTests {
    private static func second(_ index: Int, requests: Int = 10, waited: Bool? = nil, stalled: Bool? = nil,
                               timeouts: Int = 0) -> LoadRunner.Second {
        LoadRunner.Second(second: index, requests: requests, errors: 0, timeouts: timeouts,
                          p50: requests > 0 ? 1000 : nil, p99: requests > 0 ? 2000 : nil, waited: waited,
                          stalled: stalled)
    }

    private static func report(_ seconds: [LoadRunner.Second], rate: Double? = nil, timeouts: Int = 0,
                               latencies: [Double] = [1000, 2000]) -> LoadReport {
        var settings = LoadRunner.Settings(endpoint: "tcp://127.0.0.1:5599")
        settings.rate = rate
        var result = LoadRunner.Result()
        for value in latencies { result.histogram.record(microseconds: value) }
        result.completed = seconds.map(\.requests).reduce(0, +)
        result.sent = result.completed
        // An open loop's schedule holds its rate over the run: what was not sent was due all the same.
        if let rate { result.unsent = max(0, Int(rate) * seconds.count - result.completed) }
        result.timeouts = timeouts
        result.elapsed = .seconds(Int64(seconds.count))
        result.seconds = seconds
        return LoadReport(settings: settings, plan: LoadPlan(target: .lookup, bodies: [[]], typeName: "lookup.cheapest"),
                          result: result)
    }

    @Test func aSecondWithoutReplies_breaksTheLines_overABand_insteadOfDrawingZero() {
        let seconds = [Self.second(1), Self.second(2), Self.second(3, requests: 0), Self.second(4), Self.second(5)]
        let panel = LoadChart.latencyOverTime(seconds, top: 100)
        // Two runs of seconds for each of p50 and p99: four lines, none through second 3.
        #expect(panel.components(separatedBy: "class=\"line\"").count - 1 == 4, "\(panel)")
        let bottom = String(format: "%.1f", 100 + LoadChart.panelHeight)
        #expect(!["L", " ", "\""].contains { panel.contains("," + bottom + $0) }, "a point at 0 ms: \(panel)")
        #expect(panel.contains("class=\"no-replies\"") && panel.contains(">no measured replies</text>"))
        let stalled = LoadChart.latencyOverTime([Self.second(1), Self.second(2, requests: 0, waited: true, stalled: true)],
                                                top: 100)
        #expect(stalled.contains("class=\"stalled\"") && stalled.contains(">stalled</text>"))
    }

    /// Seconds in which requests waited and were answered late (a server that paused) have a
    /// band of their own: it read "no measured replies", as if nothing had been asked.
    @Test func secondsInWhichRequestsWaited_saySo_inTheBandAndTheLegend() {
        let seconds = [Self.second(1), Self.second(2, requests: 0, waited: true), Self.second(3, requests: 0, waited: true),
                       Self.second(4)]
        let panel = LoadChart.latencyOverTime(seconds, top: 100)
        #expect(panel.components(separatedBy: "class=\"waited\"").count - 1 == 2, "\(panel)")
        #expect(panel.components(separatedBy: ">no replies, requests waiting</text>").count - 1 == 1, "\(panel)")
        #expect(!panel.contains("no measured replies") && !panel.contains("class=\"stalled\""))
        let legend = LoadChart.legend(y: 50, rate: false, seconds: seconds)
        #expect(legend.contains(">no replies, requests waiting<") && !legend.contains("no measured replies"), "\(legend)")
        let all = LoadChart.legend(y: 50, rate: false, seconds: seconds + [Self.second(5, requests: 0),
                                                                           Self.second(6, requests: 0, stalled: true)])
        let order = ["no measured replies", "no replies, requests waiting", ">stalled<"].map {
            all.range(of: $0)?.lowerBound.utf16Offset(in: all) ?? -1
        }
        #expect(order.allSatisfy { $0 >= 0 } && order == order.sorted(), "\(all)")
    }

    @Test func theRepliesAndFailuresOfEachSecond_areDrawn() throws {
        let seconds = [Self.second(1), Self.second(2, timeouts: 3), Self.second(3)]
        let panel = LoadChart.throughputOverTime(seconds, rate: 20, top: 400)
        #expect(panel.components(separatedBy: "class=\"replies\"").count - 1 == 3)
        #expect(panel.components(separatedBy: "class=\"failed\"").count - 1 == 1)
        #expect(panel.contains("stroke-dasharray"), "the rate offered")
        // A run that ended 2.5 s in: the rate offered stops there, not at the axis's 3.
        let partial = LoadChart.throughputOverTime([Self.second(1), Self.second(2),
                                                    LoadRunner.Second(second: 3, requests: 5, errors: 0, timeouts: 0,
                                                                      p50: 1000, p99: 2000, seconds: 0.5)],
                                                   rate: 20, top: 400)
        // Replies are counted whole: no axis of 0.25, 0.5, 0.75 replies when none came.
        let empty = LoadChart.throughputOverTime([Self.second(1, requests: 0)], rate: nil, top: 400)
        #expect(!empty.contains(">0.25<") && !empty.contains(">0.5<") && empty.contains(">1<"), "\(empty)")
        let rateLine = try #require(partial.split(separator: "\n").first { $0.contains("class=\"rate\"") })
        let end = String(format: "L%.1f,", LoadChart.margin + LoadChart.plotWidth * 2.5 / 3)
        #expect(rateLine.contains(end), "\(rateLine)")
    }

    /// Failures are drawn on the replies' axis: a tenth of the replies a tenth as tall (on an axis
    /// of their own at the right, 1500 failed looked as tall as 20000 replies, and 1% as tall as
    /// 100%); a few among thousands are a sliver, still there.
    @Test func failedBars_shareTheRepliesAxis_andAFewStillShow() throws {
        func heights(_ panel: String, _ kind: String) -> [Double] {
            panel.split(separator: "\n").filter { $0.contains("class=\"\(kind)\"") }.compactMap { line in
                guard let start = line.range(of: "height=\"")?.upperBound else { return nil }
                return Double(line[start...].prefix { $0 != "\"" })
            }
        }
        let many = LoadChart.throughputOverTime([Self.second(1, requests: 20000), Self.second(2, requests: 18500, timeouts: 1500)],
                                                rate: nil, top: 400)
        let blue = try #require(heights(many, "replies").max()), red = try #require(heights(many, "failed").first)
        #expect(abs(red / blue - 1500.0 / 20000) < 0.01, "red \(red) against blue \(blue)")
        let few = LoadChart.throughputOverTime([Self.second(1, requests: 20000), Self.second(2, requests: 19997, timeouts: 3)],
                                               rate: nil, top: 400)
        #expect(try #require(heights(few, "failed").first) == LoadChart.failedLeastHeight, "\(few)")
        #expect(!few.contains("failed-axis") && !many.contains("failed-axis"))
    }

    /// Every shape says whether it has an outline: ImageMagick's built-in SVG renderer draws one
    /// in black where none is given (bars, bands, swatches, dots and the page itself framed).
    @Test func everyShape_namesItsStroke() {
        let svg = LoadChart.svg(Self.report([Self.second(1, timeouts: 2), Self.second(2, requests: 0),
                                             Self.second(3, requests: 0, stalled: true), Self.second(4)], rate: 10))
        var shapes = 0
        for tag in ["<rect", "<circle", "<path", "<line"] {
            for piece in svg.components(separatedBy: tag).dropFirst() {
                let element = piece.prefix { $0 != ">" }
                shapes += 1
                #expect(element.contains("stroke="), "\(tag)\(element)>")
            }
        }
        #expect(shapes > 20, "\(svg)")
        // Text inherits the root's stroke="none" (ImageMagick outlined it in black, the red title too).
        #expect(svg.prefix { $0 != ">" }.contains("stroke=\"none\""), "\(svg.prefix(300))")
        // ImageMagick draws a dashed <line> solid: dashed marks are paths.
        #expect(!svg.components(separatedBy: "<line").dropFirst().contains { $0.prefix { $0 != ">" }.contains("dasharray") })
        #expect(svg.contains("class=\"rate\""), "the rate offered, dashed")
    }

    /// A run of adjacent silent seconds is labelled once, inside the panel, and never over another
    /// label: in a QA run two labels printed over each other ("sta​stalled"), and the first began
    /// left of the panel's frame.
    @Test func bandLabels_oncePerRun_insideThePanel_neverOverlapping() throws {
        func labels(_ panel: String, _ text: String) -> [Double] {
            panel.split(separator: "\n").filter { $0.hasSuffix(">\(text)</text>") }.compactMap { line in
                guard let start = line.range(of: "<text x=\"")?.upperBound else { return nil }
                return Double(line[start...].prefix { $0 != "\"" })
            }
        }
        let short = LoadChart.latencyOverTime([Self.second(1, requests: 0), Self.second(2, requests: 0),
                                               Self.second(3, requests: 0, stalled: true),
                                               Self.second(4, requests: 0, stalled: true), Self.second(5)], top: 100)
        #expect(short.components(separatedBy: "class=\"no-replies\"").count - 1 == 2)
        let grey = labels(short, "no measured replies"), red = labels(short, "stalled")
        #expect(grey.count == 1 && red.count == 1, "\(short)")
        let half = 19 * LoadChart.bandLabelCharacterWidth / 2
        #expect(try #require(grey.first) - half >= LoadChart.margin, "inside the frame: \(grey)")
        var long = (1...60).map { Self.second($0) }
        long[20] = Self.second(21, requests: 0)
        long[21] = Self.second(22, requests: 0, stalled: true)
        long[40] = Self.second(41, requests: 0, stalled: true)
        let panel = LoadChart.latencyOverTime(long, top: 100)
        #expect(panel.components(separatedBy: "class=\"stalled\"").count - 1 == 2)
        // Seconds 21 and 22 are 13 px wide each: one label for the two, then second 41's.
        #expect(labels(panel, "no measured replies").count == 1 && labels(panel, "stalled").count == 1, "\(panel)")
    }

    @Test func theLegend_isSwatches_ofWhatTheChartShows() {
        let plain = LoadChart.svg(Self.report([Self.second(1)]))
        #expect(plain.components(separatedBy: "class=\"swatch\"").count - 1 == 4, "p50, p99, replies/s, distribution")
        #expect(!plain.contains("p50 blue"))
        #expect(!plain.contains(">failed/s<") && !plain.contains(">stalled<") && !plain.contains(">no measured replies<"))
        let troubled = LoadChart.svg(Self.report([Self.second(1, timeouts: 2), Self.second(2, requests: 0),
                                                  Self.second(3, requests: 0, stalled: true)], rate: 10))
        for label in ["failed/s", "no measured replies", "stalled", "rate offered"] {
            #expect(troubled.contains(">\(label)</text>"), "\(label)")
        }
    }

    /// The distribution's note goes inside its panel's bottom right, within the chart's width (it ran
    /// past the edge after the title), and the latency-over-time panel says it holds replies only.
    @Test func theNotes_sayWhatEachPanelHolds_withinTheChart() throws {
        var report = Self.report([Self.second(1), Self.second(2)], timeouts: 40)
        report.timeoutsInLatency = 40
        report.unansweredInLatency = 7
        let svg = LoadChart.svg(report)
        #expect(svg.contains("latency over time (ms): replies only (40 timed out and 7 unanswered at the end are in the "
            + "distribution)"), "\(svg)")
        report.timeoutsInLatency = 0
        #expect(LoadChart.svg(report).contains("replies only (7 unanswered at the end are in the distribution)"),
                "no timeouts are named when none timed out")
        report.unansweredInLatency = 1
        #expect(LoadChart.svg(report).contains("replies only (1 unanswered at the end is in the distribution)"))
        let note = try #require(svg.split(separator: "\n").first { $0.contains("40 timed out (at the timeout, a lower bound)") })
        #expect(note.contains("x=\"832.0\"") && note.contains("text-anchor=\"end\""), "\(note)")
    }

    @Test func aFailedRun_andOneThatFellBehind_sayItInTheTitle() {
        let failed = LoadChart.svg(Self.report([Self.second(1)], timeouts: 2))
        #expect(failed.contains(">FAILED: fuel-lookup") && failed.contains("2 requests timed out"), "\(failed)")
        let behind = LoadChart.svg(Self.report([Self.second(1), Self.second(2)], rate: 1000))
        #expect(behind.contains(">BEHIND: fuel-lookup") && behind.contains("did not keep up"))
        let fine = LoadChart.svg(Self.report([Self.second(1), Self.second(2)], rate: 10))
        #expect(!fine.contains("BEHIND") && !fine.contains("FAILED"))
        // Failed and behind: the title says both, as the text report does.
        let both = LoadChart.svg(Self.report([Self.second(1), Self.second(2)], rate: 1000, timeouts: 2))
        #expect(both.contains(">FAILED and BEHIND: fuel-lookup"), "\(both.prefix(600))")
    }

    @Test func anOffScaleMax_isInWholeMilliseconds() {
        let latencies = Array(repeating: 150.0, count: 10_000) + [2_004_300]
        let svg = LoadChart.svg(Self.report([Self.second(1)], latencies: latencies))
        #expect(svg.contains("max 2004 ms, off the scale"), "\(svg)")
        #expect(LoadChart.formatMilliseconds(12.34) == "12.3" && LoadChart.formatMilliseconds(0.0567) == "0.057")
    }

    /// A slow rate's throughput is in the title as the report gives it ("0 req/s" was 0.67).
    @Test func theTitle_givesASlowThroughputInHundredths() {
        let svg = LoadChart.svg(Self.report([Self.second(1, requests: 1), Self.second(2, requests: 0), Self.second(3, requests: 1)]))
        #expect(svg.contains("(lookup.cheapest): 0.67 req/s"), "\(svg.prefix(600))")
    }

    /// A run that measured no latency draws no curve at 0 ms and lists no line it does not draw.
    @Test func aRunWithoutLatencies_drawsNoCurve_andSaysSo() {
        let svg = LoadChart.svg(Self.report([Self.second(1, requests: 0), Self.second(2, requests: 0)], latencies: []))
        #expect(svg.contains("class=\"nothing-measured\"") && !svg.contains("<circle"), "\(svg)")
        #expect(!svg.contains(">distribution</text>") && !svg.contains(">p50</text>"), "\(svg)")
        #expect(!svg.contains(">replies/s</text>"), "a replies swatch with no replies drawn")
        #expect(LoadChart.svg(Self.report([Self.second(1)])).contains(">replies/s</text>"))
    }
}
