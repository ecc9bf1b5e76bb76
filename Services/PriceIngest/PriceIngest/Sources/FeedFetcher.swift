import FeedParsing
import Foundation
import Messages
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
    /// The parser's limit: a larger body would only be fetched to be refused.
    public var maxBytes: Int = FeedParser.maxFeedBytes
    public var userAgent: String = "FuelBoard-price-ingest/0.1 (+https://github.com/fuelboard)"
    /// Where `file://` feeds may be read; nil: any file this user can read (`--file-root`).
    public var fileRoot: FileFeedRoot?

    public init() {}

    /// A failed fetch, with a sentence for the reply and the log.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
        /// The reply's error code: `not_found` (404, 410, no such file), `too_large`, `bad_request`
        /// (a URL that cannot be fetched as given: another 4xx, a refused redirect), or `unavailable`
        /// (the server failed or did not answer: worth trying again later).
        public let code: ErrorCode
        /// True for problems with the request itself (bad URL, 404): retrying will not help.
        public var isPermanent: Bool { code != .unavailable }

        public init(description: String, code: ErrorCode) {
            self.description = description
            self.code = code
        }
    }

    /// Why `text` cannot be fetched at all (not a URL, unsupported scheme), or nil when it can.
    public static func problem(with text: String) -> String? {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased() else {
            return "'\(text.prefix(100))' is not a URL"
        }
        guard ["http", "https", "file"].contains(scheme) else {
            return "unsupported URL scheme '\(scheme.prefix(20))' (use http, https or file)"
        }
        if scheme == "file" { return fileProblem(url) }
        if (url.host ?? "").isEmpty { return "'\(text.prefix(100))' has no host" }
        return nil
    }

    /// Why a `file://` URL cannot be read here: one naming another machine (`file://host/path`;
    /// only an empty host or `localhost` is this one), or nil.
    private static func fileProblem(_ url: URL) -> String? {
        let host = (url.host ?? "").lowercased()
        guard host.isEmpty || host == "localhost" else {
            return "file URL names another machine ('\(host.prefix(60))'): only file:///path or file://localhost/path is read"
        }
        return nil
    }

    public func fetch(_ text: String) throws(Failure) -> Data {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased() else {
            throw Failure(description: "'\(text.prefix(100))' is not a URL", code: .badRequest)
        }
        switch scheme {
        case "file":
            return try readFile(url)
        case "http", "https":
            return try fetchHTTP(url)
        default:
            throw Failure(description: "unsupported URL scheme '\(scheme)' (use http, https or file)", code: .badRequest)
        }
    }

    private func readFile(_ url: URL) throws(Failure) -> Data {
        if let problem = Self.fileProblem(url) { throw Failure(description: problem, code: .badRequest) }
        if let refusal = fileRoot?.refusal(of: url.path) { throw Failure(description: refusal, code: .badRequest) }
        return try readRegularFile(atPath: url.path, within: fileRoot)
    }

    private func fetchHTTP(_ url: URL) throws(Failure) -> Data {
        var backoff = initialBackoff
        var lastFailure = Failure(description: "not attempted", code: .unavailable)
        var tried = 0
        for attempt in 1...max(1, attempts) {
            do {
                tried = attempt
                return try fetchOnce(url)
            } catch {
                lastFailure = error
                if error.isPermanent || attempt == attempts { break }
                Thread.sleep(forTimeInterval: backoff.inSeconds)
                backoff = backoff * 2
            }
        }
        // Said of the whole fetch: "no answer within 3s" of a fetch that took 12 s in three
        // attempts read as a 3 s fetch (operator QA).
        guard tried > 1 else { throw lastFailure }
        throw Failure(description: lastFailure.description + " (the last of \(tried) attempts)", code: lastFailure.code)
    }

    private func fetchOnce(_ url: URL) throws(Failure) -> Data {
        let host = url.host ?? "server"
        let outcome = CurlTransfer(url: url.absoluteString, userAgent: userAgent,
                                   accept: "application/json, text/html;q=0.5, */*;q=0.1",
                                   timeout: timeout, maxBytes: maxBytes).run()
        if outcome.timedOut {
            throw Failure(description: "no answer from \(host) within \(ServiceMain.secondsText(timeout))", code: .unavailable)
        }
        if (300..<400).contains(outcome.status), let error = outcome.error {
            // The last answer was a redirect that went nowhere: refused (libcurl follows http and https
            // only, at most 5), or followed to a server that failed, worth trying again.
            guard outcome.redirectRefused else {
                throw Failure(description: "fetch from \(host) failed: \(error)", code: .unavailable)
            }
            throw Failure(description: "\(host) redirected (HTTP \(outcome.status)) where it cannot be followed "
                + "(only http and https, at most 5 redirects): \(error)", code: .badRequest)
        }
        if outcome.status != 200, outcome.status != 0 {
            let code: ErrorCode = switch outcome.status {
            case 404, 410: .notFound
            case 500..., 429, 408: .unavailable
            default: .badRequest
            }
            throw Failure(description: "HTTP \(outcome.status) from \(host)", code: code)
        }
        if outcome.tooLarge {
            throw Failure(description: "body is over the \(maxBytes)-byte limit (counted as it arrived, uncompressed); "
                + "nothing was kept", code: .tooLarge)
        }
        if let error = outcome.error {
            throw Failure(description: "fetch from \(host) failed: \(error)", code: .unavailable)
        }
        guard outcome.status == 200 else { throw Failure(description: "no HTTP response from \(host)", code: .unavailable) }
        return outcome.body
    }
}
