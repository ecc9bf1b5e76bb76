@testable import FuelboardCLI
import Foundation
import Messages
import ServiceKit
import Testing

/// price-ingest's figures per feed reach Prometheus, so a stale feed can be alerted on.
struct PrometheusFeedTests {
    @Test func eachFeedsNumbers_areGaugesLabelledByRetailer() throws {
        let json = #"""
            {"service":"price-ingest","requests":3,"requestsByType":{},"errorsByCode":{},"uptimeSeconds":5,
             "latencyMicroseconds":{"count":3,"mean":1,"p50":1,"p90":1,"p99":1,"max":1},
             "details":{"feeds":[{"retailer":"asda","feedAgeHours":30.2,"stations":1662,"version":2,
                                  "lastSuccess":"2026-11-30T17:12:08Z"},
                                 {"retailer":"b\"p","feedAgeHours":417.5,"stations":650,"version":3}]}}
            """#
        let stats = try JSONCoding.decode(StatsBody.self, from: Data(json.utf8))
        let text = PrometheusText.render(["price-ingest": stats])
        #expect(text.contains("# TYPE fuelboard_feed gauge"))
        #expect(text.contains(#"fuelboard_feed{service="price-ingest",retailer="asda",name="feedAgeHours"} 30.2"#),
                "\(text)")
        #expect(text.contains(#"fuelboard_feed{service="price-ingest",retailer="asda",name="stations"} 1662"#))
        #expect(text.contains(#"fuelboard_feed{service="price-ingest",retailer="b\"p",name="feedAgeHours"} 417.5"#))
        #expect(!text.contains("lastSuccess"), "text values are not gauges")
    }

    /// The last minute or two's latency is its own family; a service too old to give it has none.
    @Test func recentLatency_isAGaugeFamilyOfItsOwn_whenGiven() throws {
        let json = #"""
            {"service":"fuel-lookup","requests":3,"requestsByType":{},"errorsByCode":{},"uptimeSeconds":5,
             "latencyMicroseconds":{"count":3,"mean":1,"p50":1,"p90":1,"p99":1,"max":1},
             "recentLatencyMicroseconds":{"count":2,"mean":4,"p50":3,"p90":5,"p99":5.5,"max":6,"windowSeconds":75.5},
             "details":{}}
            """#
        let stats = try JSONCoding.decode(StatsBody.self, from: Data(json.utf8))
        let text = PrometheusText.render(["fuel-lookup": stats])
        #expect(text.contains(#"fuelboard_recent_latency_microseconds{service="fuel-lookup",quantile="0.99"} 5.5"#), "\(text)")
        #expect(StatsCommand.summary(stats).contains("handling p50 1µs p99 1µs (last 1m 15s: p50 3µs p99 6µs)"),
                "\(StatsCommand.summary(stats))")
        var old = stats
        old.recentLatencyMicroseconds = nil
        #expect(!PrometheusText.render(["fuel-lookup": old]).contains("recent"))
    }
}
