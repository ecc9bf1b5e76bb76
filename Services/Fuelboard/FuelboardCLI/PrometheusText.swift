import Messages
import ServiceKit

/// Renders `sys.stats` replies in the Prometheus text exposition format (version 0.0.4), so
/// `fuelboard stats --prometheus` can feed a node-exporter textfile collector or a scrape job.
enum PrometheusText {
    /// `stats` of the services that answered; `unreachable` ones show only as `fuelboard_up 0`.
    static func render(_ stats: [String: StatsBody], unreachable: [String] = []) -> String {
        var out = ""
        func family(_ name: String, _ type: String, _ help: String, _ samples: [(labels: String, value: Double)]) {
            guard !samples.isEmpty else { return }
            out += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
            for sample in samples { out += "\(name){\(sample.labels)} \(format(sample.value))\n" }
        }
        let services = stats.keys.sorted()
        /// `service="fuel-lookup"`, with `endpoint="..."` for a replica filed as `name@endpoint`.
        func label(_ key: String, _ extra: String = "") -> String {
            let parts = key.split(separator: "@", maxSplits: 1).map(String.init)
            let endpoint = parts.count == 2 ? ",endpoint=\"\(escape(parts[1]))\"" : ""
            return "service=\"\(escape(parts.first ?? key))\"" + endpoint + (extra.isEmpty ? "" : ",\(extra)")
        }
        family("fuelboard_up", "gauge", "1 when the service answered sys.stats, 0 when it did not.",
               Set(services + unreachable).sorted().map { (label($0), stats[$0] == nil ? 0 : 1) })
        family("fuelboard_uptime_seconds", "gauge", "Seconds since the service started.",
               services.map { (label($0), stats[$0]!.uptimeSeconds) })
        family("fuelboard_requests_total", "counter", "Requests answered, by type.",
               services.flatMap { service in
                   stats[service]!.requestsByType.sorted { $0.key < $1.key }.map {
                       (label(service, "type=\"\(escape($0.key))\""), Double($0.value))
                   }
               })
        family("fuelboard_errors_total", "counter", "Error replies, by code.",
               services.flatMap { service in
                   stats[service]!.errorsByCode.sorted { $0.key < $1.key }.map {
                       (label(service, "code=\"\(escape($0.key))\""), Double($0.value))
                   }
               })
        /// A latency's quantiles as samples labelled by quantile (none without a latency).
        func quantiles(_ service: String, _ latency: StatsBody.Latency?) -> [(String, Double)] {
            guard let latency else { return [] }
            return [("0.5", latency.p50), ("0.9", latency.p90), ("0.99", latency.p99), ("1", latency.max)]
                .map { (label(service, "quantile=\"\($0.0)\""), $0.1) }
        }
        family("fuelboard_latency_microseconds", "gauge", "Request latency since start, by quantile.",
               services.flatMap { quantiles($0, stats[$0]!.latencyMicroseconds) })
        family("fuelboard_recent_latency_microseconds", "gauge",
               "Request latency over the last one to two minutes, by quantile.",
               services.flatMap { quantiles($0, stats[$0]!.recentLatencyMicroseconds) })
        // Service-specific numbers (index size, versions, users stored...) as one gauge family; a
        // figure given per part (memory by kind, the router's per backend) carries the part as `key`.
        family("fuelboard_detail", "gauge", "Numeric service-specific figures from sys.stats details.",
               services.flatMap { service in
                   stats[service]!.details.sorted { $0.key < $1.key }.flatMap { key, value -> [(String, Double)] in
                       let name = "name=\"\(escape(key))\""
                       if let number = numeric(value) { return [(label(service, name), number)] }
                       guard case .object(let parts) = value else { return [] }
                       return parts.sorted { $0.key < $1.key }.compactMap { part, value in
                           numeric(value).map { (label(service, name + ",key=\"\(escape(part))\""), $0) }
                       }
                   }
               })
        // price-ingest's figures per feed (age, stations, version), so a stale feed can be alerted on:
        // fuelboard_feed{name="feedAgeHours"} > 48.
        family("fuelboard_feed", "gauge", "Numeric figures of each retailer's feed, from sys.stats details.feeds.",
               services.flatMap { service -> [(String, Double)] in
                   guard case .array(let feeds)? = stats[service]!.details["feeds"] else { return [] }
                   return feeds.flatMap { feed -> [(String, Double)] in
                       guard case .object(let fields) = feed, case .string(let retailer)? = fields["retailer"] else {
                           return []
                       }
                       return fields.sorted { $0.key < $1.key }.compactMap { key, value in
                           numeric(value).map {
                               (label(service, "retailer=\"\(escape(retailer))\",name=\"\(escape(key))\""), $0)
                           }
                       }
                   }
               })
        return out
    }

    /// A number as it is, a flag as 1 or 0; nil for anything else.
    static func numeric(_ value: JSONValue) -> Double? {
        switch value {
        case .number(let number): number
        case .bool(let flag): flag ? 1 : 0
        default: nil
        }
    }

    static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
    }
}
