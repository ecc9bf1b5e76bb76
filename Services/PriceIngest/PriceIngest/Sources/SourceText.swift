import Foundation

/// A feed's URL as price-ingest stores, shows and logs it: without a user name, password or query
/// string, which may carry a retailer's credentials or token (`ingest.status` showed them to any
/// client, and the log kept them).
enum SourceText {
    static func shown(_ url: String) -> String {
        guard var parts = URLComponents(string: url) else { return String(url.prefix(200)) }
        let hidden = parts.user != nil || parts.password != nil || parts.query != nil
        parts.user = nil
        parts.password = nil
        if parts.query != nil { parts.query = "…" }
        guard hidden, let text = parts.string else { return url }
        return text.replacingOccurrences(of: "?%E2%80%A6", with: "?…")
    }
}
