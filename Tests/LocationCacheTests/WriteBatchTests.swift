import Foundation
import LocationCache
import Messages
import ServiceKit
import ServiceTesting
import SQLite
import Testing
import ZeroMQ

/// Group commit: puts and forgets queued together are committed together, each acknowledged only
/// after its commit (a forget also after the WAL is emptied), and any other request sees every
/// write sent before it.
struct WriteBatchTests {
    private static func start(_ directory: TemporaryDirectory) throws -> InProcessService {
        let url = directory.url
        return try InProcessService.start { context in
            try LocationCacheService(context: context,
                                     configuration: LocationCacheConfiguration(endpoint: "tcp://127.0.0.1:*",
                                                                               dataDirectory: url),
                                     logger: Logger(label: "location-cache", level: .critical),
                                     log: EventLog { _ in }).server
        }
    }

    private static func frame(_ id: String, _ type: MessageType, _ body: String) -> Data {
        Data(#"{"v":1,"id":"\#(id)","type":"\#(type.rawValue)","body":\#(body)}"#.utf8)
    }

    /// Sends every frame at once (they queue together), then reads one reply per frame by id.
    private static func pipelined(_ service: InProcessService, _ frames: [Data]) throws -> [String: [String: Any]] {
        let socket = try Socket(service.context, .dealer)
        defer { socket.close() }
        socket.receiveTimeout = .seconds(5)
        try socket.connect(service.endpoint)
        for frame in frames { try socket.send([frame]) }
        var replies: [String: [String: Any]] = [:]
        for _ in frames {
            let reply = try socket.receive()
            let json = try #require(try JSONSerialization.jsonObject(with: reply.last ?? Data()) as? [String: Any])
            replies[json["id"] as? String ?? "?"] = json
        }
        return replies
    }

    private static func stats(_ service: InProcessService) throws -> StatsBody {
        let client = try RequestClient(context: Context(), endpoint: service.endpoint, timeout: .seconds(5), retries: 0)
        return try client.call(.sysStats, EmptyBody(), as: StatsBody.self)
    }

    @Test func queuedPuts_areCommittedTogether_andEachIsAcknowledged() throws {
        let directory = try TemporaryDirectory()
        let service = try Self.start(directory)
        defer { service.stop() }
        let count = 200
        let frames = (0..<count).map { Self.frame("p\($0)", .locationPut, #"{"user":"u\#($0)","lat":53.78,"lng":-1.06}"#) }
        let replies = try Self.pipelined(service, frames)
        #expect(replies.count == count)
        #expect(replies.values.allSatisfy { $0["ok"] as? Bool == true })
        #expect(replies.values.allSatisfy { ($0["body"] as? [String: Any])?["stored"] as? Bool == true })

        let details = try Self.stats(service).details
        let batches = try #require(details["putBatches"].flatMap { if case .number(let n) = $0 { n } else { nil } })
        #expect(details["putsInBatches"] == .number(Double(count)))
        #expect(batches >= 1 && batches < Double(count), "\(batches) commits for \(count) queued puts")
        #expect(details["usersStored"] == .number(Double(count)), "every acknowledged put is in the file")
    }

    /// A load test's users forgotten in one `sys.batch`-sized run: one commit and one emptied WAL
    /// for many forgets (each took its own), every reply after the erasure, and writes queued
    /// around them in order.
    @Test func queuedForgets_areCommittedTogether_afterWhichTheWALIsEmpty() throws {
        let directory = try TemporaryDirectory()
        let service = try Self.start(directory)
        defer { service.stop() }
        let count = 200
        _ = try Self.pipelined(service, (0..<count).map {
            Self.frame("p\($0)", .locationPut, #"{"user":"u\#($0)","lat":53.78,"lng":-1.06}"#)
        })
        let commitsBefore = try #require(Self.number(try Self.stats(service).details["putBatches"]))
        var frames = (0..<count).map { Self.frame("f\($0)", .locationForget, #"{"user":"u\#($0)"}"#) }
        frames.append(Self.frame("again", .locationPut, #"{"user":"u7","lat":51.5,"lng":-0.12}"#))
        frames.append(Self.frame("none", .locationForget, #"{"user":"nobody"}"#))
        frames.append(Self.frame("bad", .locationForget, #"{"user":""}"#))
        let replies = try Self.pipelined(service, frames)
        #expect((0..<count).allSatisfy { (replies["f\($0)"]?["body"] as? [String: Any])?["forgotten"] as? Bool == true })
        #expect((replies["none"]?["body"] as? [String: Any])?["forgotten"] as? Bool == false)
        #expect((replies["bad"]?["error"] as? [String: Any])?["code"] as? String == "bad_request")
        #expect(replies["again"]?["ok"] as? Bool == true)

        let details = try Self.stats(service).details
        let commits = try #require(Self.number(details["putBatches"])) - commitsBefore
        #expect(details["forgetsInBatches"] == .number(Double(count + 1)))
        #expect(commits >= 1 && commits < Double(count) / 4, "\(commits) commits for \(count + 2) queued writes")
        #expect(details["usersForgotten"] == .number(Double(count)))
        #expect(details["usersStored"] == .number(1), "u7, put again after its forget")
        #expect(details["checkpointPending"] == .bool(false))
        let wal = directory.url.appendingPathComponent(LocationStore.fileName + "-wal").path
        let walBytes = (try? FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int) ?? 0
        #expect(walBytes == 0, "the WAL, emptied after the last batch of forgets, holds \(walBytes) bytes")
    }

    private static func number(_ value: JSONValue?) -> Double? {
        if case .number(let number) = value { number } else { nil }
    }

    @Test func aGetQueuedBehindPuts_seesThem_andABadPutFailsAlone() throws {
        let directory = try TemporaryDirectory()
        let service = try Self.start(directory)
        let replies: [String: [String: Any]]
        do {
            defer { service.stop() }
            replies = try Self.pipelined(service, [
                Self.frame("put-1", .locationPut, #"{"user":"alice","lat":53.78,"lng":-1.06}"#),
                Self.frame("bad", .locationPut, #"{"user":"bob","lat":91,"lng":0}"#),
                Self.frame("put-2", .locationPut, #"{"user":"carol","lat":51.5,"lng":-0.12}"#),
                Self.frame("get", .locationGet, #"{"user":"alice"}"#),
                Self.frame("put-3", .locationPut, #"{"user":"alice","lat":52.0,"lng":-1.5}"#),
            ])
        }
        #expect(replies["put-1"]?["ok"] as? Bool == true)
        #expect((replies["bad"]?["error"] as? [String: Any])?["code"] as? String == "bad_request")
        #expect(replies["put-2"]?["ok"] as? Bool == true)
        #expect((replies["get"]?["body"] as? [String: Any])?["lat"] as? Double == 53.78)
        #expect(replies["put-3"]?["ok"] as? Bool == true)

        // After restarting on the same file, all three good puts are there.
        let again = try Self.start(directory)
        defer { again.stop() }
        let after = try Self.pipelined(again, ["alice", "bob", "carol"].map {
            Self.frame($0, .locationGet, #"{"user":"\#($0)"}"#)
        })
        #expect((after["alice"]?["body"] as? [String: Any])?["lat"] as? Double == 52.0)
        #expect((after["bob"]?["error"] as? [String: Any])?["code"] as? String == "not_found")
        #expect((after["carol"]?["body"] as? [String: Any])?["lat"] as? Double == 51.5)
    }

    @Test func aBatchSQLiteRolledBackByItself_failsEveryPutInIt_andNoneIsAcknowledgedLater() throws {
        let directory = try TemporaryDirectory()
        try Self.start(directory).stop()  // creates the file and its tables
        // A put for "boom" makes SQLite roll the whole transaction back, as an I/O error would.
        let database = try Database(path: directory.url.appendingPathComponent(LocationStore.fileName).path)
        try database.execute("""
            CREATE TRIGGER boom BEFORE INSERT ON locations WHEN NEW.user_id = 'boom'
            BEGIN SELECT RAISE(ROLLBACK, 'simulated failure'); END
            """)
        database.close()
        let service = try Self.start(directory)
        defer { service.stop() }
        let replies = try Self.pipelined(service, [
            Self.frame("first", .locationPut, #"{"user":"first","lat":53.78,"lng":-1.06}"#),
            Self.frame("alice", .locationPut, #"{"user":"alice","lat":53.78,"lng":-1.06}"#),
            Self.frame("boom", .locationPut, #"{"user":"boom","lat":53.78,"lng":-1.06}"#),
        ])
        let later = try Self.pipelined(service, [
            Self.frame("carol", .locationPut, #"{"user":"carol","lat":51.5,"lng":-0.12}"#),
            Self.frame("get-first", .locationGet, #"{"user":"first"}"#),
            Self.frame("get-alice", .locationGet, #"{"user":"alice"}"#),
        ])
        func failed(_ id: String) -> Bool {
            (replies[id]?["error"] as? [String: Any])?["code"] as? String == "internal"
        }
        #expect(failed("boom"))
        #expect(later["carol"]?["ok"] as? Bool == true)
        // The puts usually arrive together and share boom's batch; one the socket handed over
        // earlier is committed on its own. Either way a put is acknowledged exactly when it is
        // stored, and a batch is all or nothing: if "first" shared boom's batch, so did "alice".
        for id in ["first", "alice"] {
            let stored = (later["get-\(id)"]?["body"] as? [String: Any])?["lat"] as? Double == 53.78
            let acknowledged = replies[id]?["ok"] as? Bool == true
            #expect(acknowledged == stored, "\(id): acknowledged \(acknowledged), stored \(stored)")
            #expect(acknowledged || failed(id), "\(id) neither acknowledged nor failed: \(replies[id] ?? [:])")
            if !stored {
                #expect((later["get-\(id)"]?["error"] as? [String: Any])?["code"] as? String == "not_found")
            }
        }
        if failed("first") { #expect(failed("alice"), "a batch failed in part") }
    }

    @Test func aBatchWhoseCommitFails_failsItsPuts_storesNothing_andTheNextBatchCommits() throws {
        let directory = try TemporaryDirectory()
        try Self.start(directory).stop()
        // A put for "late-boom" leaves a deferred foreign-key violation: its statements succeed
        // and the COMMIT of its batch fails, leaving the transaction open for the service to end.
        let database = try Database(path: directory.url.appendingPathComponent(LocationStore.fileName).path)
        try database.execute("""
            CREATE TABLE parent (id TEXT PRIMARY KEY);
            CREATE TABLE child (parent_id TEXT REFERENCES parent (id) DEFERRABLE INITIALLY DEFERRED);
            CREATE TRIGGER late_boom AFTER INSERT ON locations WHEN NEW.user_id = 'late-boom'
            BEGIN INSERT INTO child VALUES ('missing'); END
            """)
        database.close()
        let service = try Self.start(directory)
        defer { service.stop() }
        let failed = try Self.pipelined(service, [
            Self.frame("boom", .locationPut, #"{"user":"late-boom","lat":53.78,"lng":-1.06}"#),
        ])
        #expect((failed["boom"]?["error"] as? [String: Any])?["code"] as? String == "internal")
        let later = try Self.pipelined(service, [
            Self.frame("carol", .locationPut, #"{"user":"carol","lat":51.5,"lng":-0.12}"#),
        ])
        #expect(later["carol"]?["ok"] as? Bool == true)
        let reads = try Self.pipelined(service, ["late-boom", "carol"].map {
            Self.frame($0, .locationGet, #"{"user":"\#($0)"}"#)
        })
        #expect((reads["late-boom"]?["error"] as? [String: Any])?["code"] as? String == "not_found")
        #expect((reads["carol"]?["body"] as? [String: Any])?["lat"] as? Double == 51.5)
    }

    @Test func stats_commitTheOpenBatchFirst_soThePutIsAnsweredBeforeIt() throws {
        let directory = try TemporaryDirectory()
        let service = try Self.start(directory)
        defer { service.stop() }
        let socket = try Socket(service.context, .dealer)
        defer { socket.close() }
        socket.receiveTimeout = .seconds(5)
        try socket.connect(service.endpoint)
        try socket.send([Self.frame("alice", .locationPut, #"{"user":"alice","lat":53.78,"lng":-1.06}"#)])
        try socket.send([Self.frame("stats", .sysStats, "{}")])
        var order: [String] = []
        var counted: Any?
        for _ in 0..<2 {
            let json = try #require(try JSONSerialization.jsonObject(with: socket.receive().last ?? Data()) as? [String: Any])
            order.append(json["id"] as? String ?? "?")
            if let details = (json["body"] as? [String: Any])?["details"] as? [String: Any] {
                counted = details["usersStored"]
            }
        }
        #expect(order == ["alice", "stats"], "the put's commit comes before the counts")
        #expect(counted as? Int == 1)
    }

    @Test func aPutWhosePreferencesCannotBeRead_changesNothing() throws {
        let directory = try TemporaryDirectory()
        try Self.start(directory).stop()
        let database = try Database(path: directory.url.appendingPathComponent(LocationStore.fileName).path)
        try database.execute("PRAGMA ignore_check_constraints = ON")
        try database.execute("INSERT INTO preferences (user_id, unit) VALUES ('dave', 'furlongs')")
        database.close()
        let service = try Self.start(directory)
        defer { service.stop() }
        let replies = try Self.pipelined(service, [
            Self.frame("put", .locationPut, #"{"user":"dave","lat":53.78,"lng":-1.06}"#),
        ])
        #expect((replies["put"]?["error"] as? [String: Any])?["code"] as? String == "internal")
        let after = try Self.pipelined(service, [Self.frame("get", .locationGet, #"{"user":"dave"}"#)])
        #expect((after["get"]?["error"] as? [String: Any])?["code"] as? String == "not_found")
    }
}
