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
        ticks = (0...count).map { index in
            let value = Double(index) * step
            return Tick(value: value, label: String(format: "%.\(decimals)f", value))
        }
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
