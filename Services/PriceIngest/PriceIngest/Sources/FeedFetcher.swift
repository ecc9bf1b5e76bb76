import Foundation
import ServiceKit

/// Fetches a feed document from `http(s)://` or `file://`, blocking the calling thread.
///
/// HTTP: a real request with a User-Agent (some retailers refuse requests without one), a
/// per-attempt timeout, and retries with exponential backoff on network errors and 5xx/429.
/// A 4xx other than 429 is final. Bodies larger than `maxBytes` (uncompressed) are refused, the
/// transfer stopped as soon as the body passes it.
public struct FeedFetcher: Sendable {
    public var timeout: Duration = .seconds(20)
    public var attempts: Int = 3
    public var initialBackoff: Duration = .seconds(1)
    public var maxBytes: Int = 64 << 20
    public var userAgent: String = "FuelBoard-price-ingest/0.1 (+https://github.com/fuelboard)"

    public init() {}

    /// A failed fetch, with a sentence for the reply and the log.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
        /// True for problems with the request itself (bad URL, 404): retrying will not help.
        public let isPermanent: Bool
    }

    /// Why `text` cannot be fetched at all (not a URL, unsupported scheme), or nil when it can.
    public static func problem(with text: String) -> String? {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased() else {
            return "'\(text.prefix(100))' is not a URL"
        }
        guard ["http", "https", "file"].contains(scheme) else {
            return "unsupported URL scheme '\(scheme.prefix(20))' (use http, https or file)"
        }
        if scheme != "file" && (url.host ?? "").isEmpty { return "'\(text.prefix(100))' has no host" }
        return nil
    }

    public func fetch(_ text: String) throws(Failure) -> Data {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased() else {
            throw Failure(description: "'\(text.prefix(100))' is not a URL", isPermanent: true)
        }
        switch scheme {
        case "file":
            return try readFile(url)
        case "http", "https":
            return try fetchHTTP(url)
        default:
            throw Failure(description: "unsupported URL scheme '\(scheme)' (use http, https or file)", isPermanent: true)
        }
    }

    private func readFile(_ url: URL) throws(Failure) -> Data {
        let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
        if let size = attributes?[.size] as? Int, size > maxBytes {
            throw Failure(description: "file is \(size) bytes, over the \(maxBytes)-byte limit", isPermanent: true)
        }
        do {
            return try Data(contentsOf: url)
        } catch {
            throw Failure(description: "cannot read \(FileErrorText.describe(error, path: url.path))", isPermanent: true)
        }
    }

    private func fetchHTTP(_ url: URL) throws(Failure) -> Data {
        var backoff = initialBackoff
        var lastFailure = Failure(description: "not attempted", isPermanent: false)
        for attempt in 1...max(1, attempts) {
            do {
                return try fetchOnce(url)
            } catch {
                lastFailure = error
                if error.isPermanent || attempt == attempts { break }
                Thread.sleep(forTimeInterval: backoff.inSeconds)
                backoff = backoff * 2
            }
        }
        throw lastFailure
    }

    private func fetchOnce(_ url: URL) throws(Failure) -> Data {
        let host = url.host ?? "server"
        let outcome = CurlTransfer(url: url.absoluteString, userAgent: userAgent,
                                   accept: "application/json, text/html;q=0.5, */*;q=0.1",
                                   timeout: timeout, maxBytes: maxBytes).run()
        if outcome.status != 200, outcome.status != 0 {
            let retryable = outcome.status >= 500 || outcome.status == 429 || outcome.status == 408
            throw Failure(description: "HTTP \(outcome.status) from \(host)", isPermanent: !retryable)
        }
        if outcome.tooLarge {
            throw Failure(description: "body is over the \(maxBytes)-byte limit (counted as it arrived, uncompressed); "
                + "nothing was kept", isPermanent: true)
        }
        if outcome.timedOut {
            throw Failure(description: "no answer from \(host) within \(ServiceMain.secondsText(timeout))", isPermanent: false)
        }
        if let error = outcome.error {
            throw Failure(description: "fetch from \(host) failed: \(error)", isPermanent: false)
        }
        guard outcome.status == 200 else { throw Failure(description: "no HTTP response from \(host)", isPermanent: false) }
        return outcome.body
    }
}
