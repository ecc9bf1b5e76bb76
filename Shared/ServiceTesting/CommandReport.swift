import Foundation

/// The JSON object a command printed with `--json` (`fuelboard loadtest`, say), read from its log,
/// where its progress lines on stderr come first: the object from the first line opening with `{`.
public func jsonReport(in output: String) throws -> [String: Any] {
    let start = output.hasPrefix("{") ? output.startIndex : output.range(of: "\n{")?.lowerBound
    guard let start,
          let report = try JSONSerialization.jsonObject(with: Data(output[start...].utf8)) as? [String: Any] else {
        throw ServiceProcess.LaunchError(description: "no JSON report in the output:\n\(output.suffix(800))")
    }
    return report
}
