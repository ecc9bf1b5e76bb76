import Foundation

/// The JSON object a command printed with `--json` (`fuelboard loadtest`, say), read from its log,
/// among its status lines on stderr: the object from the first line opening with `{` to the first
/// line that is `}` alone (pretty-printed, the object's own end; status lines may follow it).
public func jsonReport(in output: String) throws -> [String: Any] {
    let start = output.hasPrefix("{") ? output.startIndex : output.range(of: "\n{")?.lowerBound
    guard let start else {
        throw ServiceProcess.LaunchError(description: "no JSON report in the output:\n\(output.suffix(800))")
    }
    let end = output[start...].range(of: "\n}")?.upperBound ?? output.endIndex
    guard let report = try JSONSerialization.jsonObject(with: Data(output[start..<end].utf8)) as? [String: Any] else {
        throw ServiceProcess.LaunchError(description: "no JSON report in the output:\n\(output.suffix(800))")
    }
    return report
}
