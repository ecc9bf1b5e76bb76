import CSQLite
import Foundation
import SQLite
import Testing

/// What the SQLite layer sets once for the process before its first connection.
struct SQLiteSetUpTests {
    /// SQLite keeps no count of the memory it holds (a mutex per allocation nobody reads): after
    /// real writes through a connection, the count it reports has not moved from zero.
    @Test func aConnectionThatWrites_leavesSQLitesMemoryCountOff() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sqlite-setup-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try Database(path: directory.appendingPathComponent("count.sqlite").path)
        try database.execute("CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT)")
        for index in 0..<200 {
            try database.execute("INSERT INTO t (v) VALUES ('\(String(repeating: "x", count: 100 + index))')")
        }
        #expect(sqlite3_memory_used() == 0)
    }
}
