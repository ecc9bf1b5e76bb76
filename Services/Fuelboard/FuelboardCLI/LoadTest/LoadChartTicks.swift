import Foundation

/// Axis ticks on round values: steps of 1, 2, 2.5 or 5 × 10^k, so labels read 0.1, 0.2, 0.3,
/// not 0.07, 0.15, 0.22.
struct ChartAxis: Equatable {
    struct Tick: Equatable {
        var value: Double
        var label: String
    }

    /// The top of the axis: a whole number of steps at or above the data's largest value.
    let max: Double
    let step: Double
    let ticks: [Tick]
    /// The bottom of a logarithmic axis (a power of ten); nil for a linear axis from 0.
    let logMin: Double?

    /// An axis from 0 that holds `dataMax` in at most `maxSteps` round steps (whole ones when
    /// `integers`, for counts such as seconds). No data (0 or less) gets an axis from 0 to 1.
    init(upTo dataMax: Double, maxSteps: Int, integers: Bool = false) {
        let top = dataMax.isFinite && dataMax > 0 ? dataMax : 1
        var step = Self.niceStep(span: top, maxSteps: maxSteps)
        if integers && step < 1 { step = 1 }
        if integers && step == 2.5 { step = 5 }
        let count = Swift.max(1, Int((top / step * (1 - 1e-12)).rounded(.up)))
        let decimals = Self.decimals(step)
        self.step = step
        self.max = Double(count) * step
        logMin = nil
        ticks = (0...count).map { index in
            let value = Double(index) * step
            return Tick(value: value, label: String(format: "%.\(decimals)f", value))
        }
    }

    /// A logarithmic axis from the power of ten at or below `low` to the one at or above `high`,
    /// a tick at each power (`0.01`, `0.1`, `1`, `10`...): for latencies where a stall of seconds
    /// would flatten every ordinary fraction of a millisecond onto the bottom of a linear axis.
    init(logFrom low: Double, upTo high: Double) {
        let bottom = (low.isFinite && low > 0 ? log10(low) : -3).rounded(.down)
        let top = Swift.max(bottom + 1, (high.isFinite && high > 0 ? log10(high) : 0).rounded(.up))
        logMin = pow(10, bottom)
        max = pow(10, top)
        step = 10
        ticks = stride(from: bottom, through: top, by: 1).map { power in
            Tick(value: pow(10, power), label: String(format: "%.\(Swift.max(0, Int(-power)))f", pow(10, power)))
        }
    }

    /// Where `value` sits on the axis, 0 at the bottom and 1 at the top (clamped).
    func fraction(_ value: Double) -> Double {
        guard let logMin else { return Swift.min(Swift.max(value / max, 0), 1) }
        guard value > logMin else { return 0 }
        return Swift.min(log10(value / logMin) / log10(max / logMin), 1)
    }

    /// The axis for latencies from `low` to `high` (ms): linear from 0, unless the highest is
    /// more than `spread` times the lowest (a stall beside ordinary replies), then logarithmic.
    static func latency(low: Double, high: Double, maxSteps: Int, spread: Double = 20) -> ChartAxis {
        low > 0 && high > spread * low ? ChartAxis(logFrom: low, upTo: high)
            : ChartAxis(upTo: high * 1.05, maxSteps: maxSteps)
    }

    /// The smallest of 1, 2, 2.5, 5 × 10^k that covers `span` in at most `maxSteps` steps
    /// (1 for a span that is not a positive number).
    static func niceStep(span: Double, maxSteps: Int) -> Double {
        guard span.isFinite, span > 0, maxSteps > 0 else { return 1 }
        let least = span / Double(maxSteps)
        let magnitude = pow(10, (log10(least)).rounded(.down))
        for factor in [1, 2, 2.5, 5] where factor * magnitude >= least * (1 - 1e-12) {
            return factor * magnitude
        }
        return 10 * magnitude
    }

    /// Decimals that show every multiple of `step` exactly (0.25 -> 2, 20 -> 0).
    static func decimals(_ step: Double) -> Int {
        for decimals in 0...12 {
            let scaled = step * pow(10, Double(decimals))
            if abs(scaled - scaled.rounded()) < 1e-6 * Swift.max(1, scaled) { return decimals }
        }
        return 12
    }
}
