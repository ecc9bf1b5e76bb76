import Foundation
import Messages
import ServiceKit

/// An `ingest.feed` body with an inline feed kept as the bytes the client sent: read from the
/// checked frame, never turned into a `JSONValue` tree and written out again (a 20 MB feed cost
/// 400 MB that way, a 56 MB one, refused as too large only after it, 900 MB).
struct InlineIngestBody {
    var retailer: String
    /// The feed's JSON text, nil when absent or null.
    var feed: Data?
    var url: String?

    /// Reads the body by hand; a body it cannot read this way is decoded as `IngestFeedRequest`,
    /// whose error names what is wrong.
    init(_ request: IncomingRequest) throws(ServiceError) {
        if let read = Self.read(request) {
            self = read
            return
        }
        let body = try request.decodeBody(IngestFeedRequest.self)
        retailer = body.retailer
        url = body.url
        feed = nil
        if let inline = body.feed, inline != .null {
            do {
                feed = try JSONCoding.encode(inline)
            } catch {
                throw .badRequest("feed could not be read")
            }
        }
    }

    private init(retailer: String, feed: Data?, url: String?) {
        self.retailer = retailer
        self.feed = feed
        self.url = url
    }

    private static func read(_ request: IncomingRequest) -> InlineIngestBody? {
        var retailer: String?, url: String?, feed: Range<Int>?
        let isObject = try? request.forEachBodyMember { bytes, key, value throws(JSONUnreadable) in
            let slice = JSONSlice(bytes: bytes, range: value)
            if key.matches("retailer") {
                retailer = try slice.string()
            } else if key.matches("url") {
                url = try slice.nonNull?.string()
            } else if key.matches("feed") {
                feed = slice.isNull ? nil : value
            }
        }
        guard isObject == true, let retailer else { return nil }
        let start = request.payload.startIndex
        let data = feed.map { request.payload.subdata(in: (start + $0.lowerBound)..<(start + $0.upperBound)) }
        return InlineIngestBody(retailer: retailer, feed: data, url: url)
    }
}
