import Foundation
import Messages
import ServiceKit
import ServiceTesting
import Testing
import ZeroMQ

/// The store's file deleted while price-ingest runs: ingests were acknowledged into a file nobody
/// would open again, and the restart found nothing (a chaos test). Now each is refused saying so,
/// and sys.stats counts the failed commits with their cause.
struct StoreFileGoneTests {
    @Test func ingest_afterTheStoreFileWasDeleted_isRefusedAndCounted() throws {
        let stack = try DataPathStack(startLookup: false)
        let feed = try stack.writeFeed(FeedFixtures.feed(FeedFixtures.selby), name: "tesco")
        _ = try stack.ingestFile(feed, retailer: "tesco")
        for suffix in ["", "-wal", "-shm"] {
            try? FileManager.default.removeItem(at: stack.dataDirectory.appendingPathComponent("price-ingest.sqlite" + suffix))
        }
        do {
            _ = try stack.ingestFile(feed, retailer: "asda")
            Issue.record("an ingest into a deleted store was acknowledged")
        } catch let error as ServiceError {
            #expect(error.code == .internal)
            #expect(error.message.contains("is gone (deleted or replaced while price-ingest ran)"), "\(error.message)")
        }
        // A removal too: the retailer would be back after the restart.
        do {
            _ = try stack.ingestClient().call(.ingestRemove, RemoveRetailerRequest(retailer: "tesco"),
                                              as: RemoveRetailerReply.self)
            Issue.record("a removal from a deleted store was acknowledged")
        } catch let error as ServiceError {
            #expect(error.code == .internal && error.message.contains("is gone"), "\(error.message)")
        }
        let stats = try stack.ingestClient().call(.sysStats, EmptyBody(), as: StatsBody.self)
        #expect(stats.details["commitFailures"] == .number(2))
        guard case .string(let cause)? = stats.details["lastCommitError"] else {
            Issue.record("no lastCommitError: \(stats.details)")
            return
        }
        #expect(cause.contains("is gone"))
        #expect(stats.details["storeFileGone"] == .bool(true))
        // A readiness check says so, where it said "up" while every ingest was refused (operator QA).
        let health = try CommandRun.fuelboard(["health", "--only", "ingest", "--ingest", stack.ingestEndpoint, "--ready"])
        #expect(health.status == 69, "\(health.stdout)")
        #expect(health.stdout.contains("its store file is gone"), "\(health.stdout)")
    }

    /// Another file put at the path while it runs (a copy put back without stopping it): the
    /// commits would still go to the deleted file, acknowledged (a re-check).
    @Test func ingest_afterTheStoreFileWasReplaced_isRefused() throws {
        let stack = try DataPathStack(startLookup: false)
        let feed = try stack.writeFeed(FeedFixtures.feed(FeedFixtures.selby), name: "tesco")
        _ = try stack.ingestFile(feed, retailer: "tesco")
        let store = stack.dataDirectory.appendingPathComponent("price-ingest.sqlite")
        let copy = stack.dataDirectory.appendingPathComponent("copy.sqlite")
        try FileManager.default.copyItem(at: store, to: copy)
        try FileManager.default.removeItem(at: store)
        try FileManager.default.moveItem(at: copy, to: store)
        do {
            _ = try stack.ingestFile(feed, retailer: "asda")
            Issue.record("an ingest into a replaced store was acknowledged")
        } catch let error as ServiceError {
            #expect(error.message.contains("deleted or replaced"), "\(error.message)")
        }
    }
}
