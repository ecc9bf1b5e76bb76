import FeedParsing
import Foundation
import Messages
import SQLite

/// `ingest.remove`: a retailer out of the store and, by the update it publishes, every replica.
extension PriceIngestService {
    func remove(_ request: RemoveRetailerRequest, requestID: String) throws(ServiceError) -> RemoveRetailerReply {
        let retailer: String
        do {
            retailer = try RetailerName.slug(request.retailer)
        } catch {
            throw error.serviceError
        }
        try refuseIfStoreFileGone(retailer: retailer)
        let removed: (version: UInt64, stations: Int)?
        do {
            removed = try store.removeRetailer(retailer)
        } catch {
            let cause = (error as? SQLiteError)?.message ?? "\(error)"
            noteCommitFailure(cause, retailer: retailer)
            throw ServiceError(.internal, "the retailer could not be removed (\(cause)); nothing was changed")
        }
        guard let removed else {
            throw ServiceError.notFound("no stations or feed stored for retailer '\(retailer.prefix(60))'")
        }
        // No stations at this version: a replica holds none of the retailer's from now on (and a
        // replica that syncs later does not find it in the index at all).
        head = nil
        publisher.publish(RetailerState(version: removed.version, retailer: retailer, updated: Date(), stations: []))
        var warnings: [String] = []
        if configuration.feeds.entries.contains(where: { $0.slug == retailer }) {
            warnings.append("\(retailer) is still in the feed list (--feeds): its next poll stores it again")
        }
        logger.notice("retailer removed", metadata: ["svc.request.id": requestID, "retailer": retailer,
                                                     "stations": "\(removed.stations)", "version": "\(removed.version)"])
        return RemoveRetailerReply(retailer: retailer, stations: removed.stations, version: removed.version,
                                   warnings: warnings)
    }
}
