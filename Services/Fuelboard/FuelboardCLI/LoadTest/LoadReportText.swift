import Foundation
import Messages

/// What a person reads: the final report and the progress line printed every second.
extension LoadReport {
    /// What each request asks and where its points come from (the points change the answers: far
    /// from stations, most asks find nothing in range).
    var workload: String {
        let points = options.points == "stations" ? "points near the loaded stations" : "points uniform over the UK"
        let asks = target == LoadPlan.Target.router.rawValue
            ? "generated asks for the cheapest fuel from \(LoadPlan.users) users"
            : "\(options.fuel ?? "mixed") within " + String(format: "%g", options.radiusMiles ?? 5) + " mi, limit 1"
        return "\(asks), at \(points) (seed \(options.seed))"
    }

    var text: String {
        let l = latencyMicroseconds
        func ms(_ micros: Double) -> String { String(format: "%.3f ms", micros / 1000) }
        var lines = [
            "target      \(service) (\(type)) at \(endpoint)",
            "mode        \(mode) loop" + (rate.map { ", \(Self.format(rate: $0)) req/s offered" } ?? "")
                + (concurrency.map { ", \($0) in flight" } ?? "")
                + (connections == 1 ? " on 1 connection" : " over \(connections) connections")
                + (threads == 1 ? "" : " from \(threads) generator threads"),
            "workload    \(workload)",
            "requests    \(Self.count(requests, "reply", "replies")) in "
                + (seconds < 0.1 ? String(format: "%.3f ms", seconds * 1000) : String(format: "%.2f s", seconds))
                + (interrupted ? " (interrupted: a signal, Ctrl-C or SIGTERM, ended the run early)" : "")
                + (rate != nil && !interruptedDuringWarmup
                    ? "; \(Self.count(scheduled, "request")) due on the schedule, \(sent) sent"
                        + (unsent > 0 ? " (\(unsent) due but not sent by the end)" : "") : ""),
            warmupLine,
            "throughput  \(Self.format(rate: throughput)) req/s" + (fellBehind
                ? String(format: ": BEHIND, replies at %.0f%% of the rate offered (the server or this generator could "
                    + "not keep up)", replyRate / (rate ?? 1) * 100) : ""),
            "latency     " + (noReplies
                ? "no replies" + (unansweredInLatency == 0 ? ""
                    // The max is the unanswered requests' own only when none timed out (those are at the timeout).
                    : timeoutsInLatency == 0 ? "; the \(unansweredInLatency) requests unanswered at the end "
                        + String(format: "had waited up to %.1f s", l.max / 1e6)
                    : "; \(unansweredInLatency) requests unanswered at the end and \(timeoutsInLatency) timed out, "
                        + String(format: "in the latencies up to %.1f s", l.max / 1e6))
                : "p50 \(ms(l.p50))  p90 \(ms(l.p90))  p99 \(ms(l.p99))  p99.9 \(ms(l.p999))  max \(ms(l.max))"),
        ]
        if timeoutsInLatency > 0 && !noReplies {
            let (late, atTimeout, lost) = (timeoutsAtRealLatency, timeoutsAtTimeout, timeoutsOnDisconnect)
            lines.append("            with the \(timeoutsInLatency) requests that timed out, "
                + (lost == 0 ? "" : "\(lost) lost when their connection dropped, at their age then"
                    + (late + atTimeout > 0 ? ", " : ""))
                + (late == 0 ? "" : "\(late) answered later at their real latency" + (atTimeout > 0 ? ", " : ""))
                + (atTimeout == 0 ? "" : "\(late + lost == 0 ? "" : "the other \(atTimeout) ")counted at the --timeout "
                    + "(\(ms(Double(options.timeoutSeconds) * 1e6))): a lower bound of theirs"))
        }
        if unansweredInLatency > 0 && !noReplies {
            lines.append("            of \(requests + timeoutsInLatency + unansweredInLatency) requests: \(requests) answered"
                + (timeoutsInLatency > 0 ? ", \(timeoutsInLatency) timed out and " : " and ")
                + "\(unansweredInLatency) unanswered at the end, counted at their age then (a lower bound)")
        }
        if let lag = sendLagMicroseconds {
            var line = "send lag    p50 \(ms(lag.p50))  p99 \(ms(lag.p99))  max \(ms(lag.max)): how late requests went "
                + "out against the schedule (the generator's delay, inside the latencies)"
            if lag.max >= Self.lateSendMicroseconds {
                line += "; up to \(ms(lag.max)) of a latency may be this generator's, not the server's"
            }
            lines.append(line)
        }
        if let load = loadAverageBefore, Double(load) > Double(cores) * Self.busyMachineShare {
            lines.insert(String(format: "machine     load average %.2f on %d cores before the run: other work shares "
                + "the cores with the server and this generator (a run just before counts for about a minute)", load, cores), at: 1)
        }
        if concurrency != nil, !noReplies, l.max > max(20 * l.p99, 100_000) {
            lines.append("            a closed loop waits with the server: a stall shows only in the max and the gap; "
                + "--rate measures each request from when it was due")
        }
        if options.points != options.pointsAsked {
            lines.insert("points      uniform: --points \(options.pointsAsked) asked, but price-ingest gave no station "
                + "positions", at: 2)
        }
        if let outcomes, !outcomes.isEmpty {
            lines.append("answers     " + outcomes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
                .joined(separator: ", "))
        }
        let errors = errorsByCode.sorted { $0.key < $1.key }.map { code, count in
            "\(code) \(count)" + (firstErrorMessages[code].map { " (\"\($0)\")" } ?? "")
        }
        // A code outside the contract's list is the server's mistake too: said, not only counted.
        let strange = errorsByCode.keys.filter {
            !$0.hasPrefix("failure:") && !$0.hasPrefix(Self.degradedPrefix) && ErrorCode(rawValue: $0) == nil
        }.sorted()
        lines.append("errors      " + (errors.isEmpty ? "none" : errors.joined(separator: ", "))
            + (strange.isEmpty ? "" : " (not an error code of the contract: " + strange.joined(separator: ", ") + ")"))
        let reasons = invalidByReason.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
        lines.append("invalid     \(Self.count(invalidReplies, "reply", "replies")) failed validation"
            + (reasons.isEmpty ? "" : " (" + reasons.joined(separator: ", ") + ")") + ", "
            + "\(timeouts) timed out (no reply within the \(Self.format(seconds: timeoutSeconds)) --timeout)"
            + (lateReplies > 0 ? ", \(lateReplies) of them answered later" : ""))
        if !options.checksContent {
            lines.append("checked     envelopes only: the content check is off (--no-check)")
        } else if contentCheck != nil, let contentChecked, let okReplies {
            var line = "checked     content of \(contentChecked) of \(okReplies) ok replies (fuel, radius, "
                + "price, order; all up to \(LoadSession.checkAllUpTo)/s per thread, then "
                + "one in \(LoadSession.sampleEvery) at random)"
            let wrong = invalidByReason.filter { LookupCheck.Problem(rawValue: $0.key) != nil }.values.reduce(0, +)
            if wrong > 0 && contentChecked > 0 && contentChecked < okReplies {
                // Replies past the sample were counted as answered: say what the sample suggests of them.
                line += String(format: "; %d of those checked (%.0f%%) were wrong: the replies not checked, counted "
                    + "as answered, are likely wrong alike", wrong, Double(wrong) / Double(contentChecked) * 100)
            }
            lines.append(line)
        }
        // Behind a stall that lasted to the end they are the stall's (a failure already), not the
        // normal last few; after one the server recovered from, they are the normal last few.
        lines.append("unanswered  \(unanswered) still in flight at the end, sent within the timeout: "
            + (stalledAtTheEnd && unanswered > 0 ? "waiting on a server that had stopped answering (the stall is "
                + "the failure), " : concurrency.map { "normal up to \($0) in a closed loop, " }
                ?? "in the latencies at their age, ")
            + "not failures of their own")
        if let dropped = serverRepliesNotDelivered, dropped > 0 {
            lines.append("dropped     \(Self.count(dropped, "reply", "replies")) the server could not deliver (no room left to "
                + "queue them for a client not reading them fast enough: this generator, or another client); "
                + "among the unanswered and timed out above, they will never come")
        }
        if longestGapSeconds >= 1 {
            lines.append(String(format: "gap         longest without a reply while a request waited: %.1f s",
                                longestGapSeconds))
        }
        if stalledSeconds > 0 {
            lines.append("stalled     no reply at all in \(Self.count(stalledSeconds, "whole second")) of the run while "
                + "requests were waiting: the server stopped answering")
        }
        if let cores = generatorCores {
            var line = String(format: "generator   %.2f of a core (its own CPU time over the run)", cores)
            let busy = Self.busyGenerator * Double(min(threads, ProcessInfo.processInfo.activeProcessorCount))
            if rate != nil && options.spin {
                line += ", including polling through the last millisecond before each send (--spin)"
            } else if rate != nil {
                line += ", including polling just before each send (it sleeps between sends"
                    + (cores >= busy && (rate ?? 0) > 10_000 ? "; above ~10,000 a second the gaps are too short to sleep)"
                        : ")")
            } else if cores >= busy {
                line += threads == 1 ? ": near a whole core, it may be what limits the rate"
                    : ": near all the cores its threads can use, it may be what limits the rate"
            }
            // Half the machine or more (two open-loop threads on two cores: p50 3.5 ms against
            // 0.08 with one, and no send lag to show it): a server here waited for a core.
            let machine = ProcessInfo.processInfo.activeProcessorCount
            if cores >= Double(machine) * Self.generatorShareOfMachine {
                line += String(format: "; that is %.0f%% of this machine's %d cores: a server on this machine "
                    + "waits for a core, and its latencies include that wait (fewer --threads?)",
                               cores / Double(machine) * 100, machine)
            }
            lines.append(line)
        }
        if failed {
            lines.append("FAILED      " + failures.joined(separator: "; "))
        } else if fellBehind {
            lines.append("BEHIND      the server, or this generator taking its replies (its CPU is on the generator "
                + "line), did not keep up with \(Self.format(rate: rate ?? 0)) req/s (exit \(Self.behindExitCode))")
        }
        return lines.joined(separator: "\n")
    }

    /// A generator taking this share of the machine's cores or more is said to crowd the server.
    static let generatorShareOfMachine = 0.6

    /// A send this late (10 ms) makes the generator a suspect in the latencies.
    static let lateSendMicroseconds = 10_000.0
    /// A load average above this share of the cores before the run is said (other work was running).
    static let busyMachineShare = 0.5

    /// 20000 -> "20000", 0.5 -> "0.5".
    static func format(rate: Double) -> String {
        rate >= 10 ? String(format: "%.0f", rate) : String(format: "%g", rate)
    }

    /// The warm-up: its replies (and those to its requests that came after it), or its interruption.
    var warmupLine: String {
        if interruptedDuringWarmup {
            return "warm-up     interrupted after \(Self.format(seconds: warmupSeconds)) "
                + "(\(Self.count(warmupRequests - warmupRepliesAfterWarmup, "reply", "replies"))): nothing was measured"
        }
        guard warmupSeconds > 0 else { return "warm-up     none" }
        let during = warmupRequests - warmupRepliesAfterWarmup
        return "warm-up     \(Self.count(during, "reply", "replies")) in \(Self.format(seconds: warmupSeconds)) first"
            + (warmupRepliesAfterWarmup > 0
                ? ", and \(warmupRepliesAfterWarmup) more to its requests after it; none counted" : ", not counted")
    }

    /// Why a run without a measured reply failed, in plain words.
    var noRepliesReason: String {
        if invalidReplies > 0 {
            return "no valid replies: every reply from \(endpoint) failed validation"
        }
        if warmupRepliesAfterWarmup > 0 {
            return "no measured request was answered: the \(warmupRepliesAfterWarmup) replies after the warm-up "
                + "were to its requests (\(endpoint) was still working through them)"
        }
        if lateReplies > 0 {
            return "no reply came in time: all \(lateReplies) replies to measured requests from \(endpoint) "
                + "came later than the --timeout"
        }
        if warmupRequests > 0 {
            return "no replies came from \(endpoint) after the warm-up (\(warmupRequests) came during it)"
        }
        // The ping before the run was answered: something answers there, but not these requests.
        return "no replies came from \(endpoint) though it answered the ping: is \(service) stuck, "
            + "or something else listening there?"
    }

    /// The line printed after each measured second (or the run's last part of one, its rate
    /// scaled to a second); timeouts appear when there were some.
    static func progressLine(_ second: LoadRunner.Second) -> String {
        // One width for whole and partial seconds ("[   3s]", "[ 12.5s]"), so the columns stay in line.
        let label = second.seconds.map { String(format: "[%5.1fs]", Double(second.second - 1) + $0) }
            ?? String(format: "[%5ds]", second.second)
        let rate = second.seconds.map { Double(second.requests) / max($0, 0.001) } ?? Double(second.requests)
        var line = label + String(format: " %6.0f req/s  errors %d", rate, second.errors)
        if second.timeouts > 0 { line += "  timeouts \(second.timeouts)" }
        if second.invalid > 0 { line += "  invalid \(second.invalid)" }
        if let p50 = second.p50, let p99 = second.p99, second.requests > 0 {
            line += String(format: "  p50 %.3f ms  p99 %.3f ms", p50 / 1000, p99 / 1000)
        } else {
            // Replies to warm-up requests, late or invalid ones may have come: none was measured.
            line += second.stalled == true ? "  no replies: stalled"
                : second.waited == true ? "  no replies, requests waiting" : "  no measured replies"
        }
        return line
    }

    /// The line printed each second of the warm-up.
    static func warmupLine(replies: Int, left: Duration) -> String {
        String(format: "warming up: %d replies, %.0fs left", replies, max(0, LoadReport.seconds(left)).rounded(.up))
    }

    /// A duration as a person would write it: "500 ms", "10 s", "5 min", "25 h".
    static func format(duration: Duration) -> String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
        switch seconds {
        case ..<1: return String(format: "%g ms", (seconds * 1000).rounded())
        case ..<120: return String(format: "%g s", (seconds * 1000).rounded() / 1000)
        case ..<7200: return String(format: "%g min", (seconds / 60 * 10).rounded() / 10)
        default: return String(format: "%g h", (seconds / 3600 * 10).rounded() / 10)
        }
    }

    /// 5 -> "5 s", 0.3 -> "300 ms".
    static func format(seconds: Double) -> String {
        seconds > 0 && seconds < 1 ? String(format: "%g ms", (seconds * 1000).rounded())
            : String(format: "%g s", seconds)
    }
}
