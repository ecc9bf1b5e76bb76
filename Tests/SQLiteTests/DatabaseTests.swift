import Foundation
import SQLite
import TestSupport
import Testing

struct DatabaseTests {
    private func open(_ directory: URL, _ name: String = "test.sqlite") throws -> Database {
        try Database(path: directory.appendingPathComponent(name).path)
    }

    @Test func database_whenOpened_usesWALFullSyncAndForeignKeys() throws {
        try withTemporaryDirectory { directory in
            let database = try open(directory)
            #expect(try database.journalMode() == "wal")
            let synchronous = try database.prepare("PRAGMA synchronous")
            #expect(try synchronous.step() == .row)
            #expect(synchronous.int(at: 0) == 2)  // FULL
            let foreignKeys = try database.prepare("PRAGMA foreign_keys")
            #expect(try foreignKeys.step() == .row)
            #expect(foreignKeys.int(at: 0) == 1)
            try database.execute("CREATE TABLE t (x INTEGER)")
            #expect(FileManager.default.fileExists(atPath: database.path + "-wal"))
        }
    }

    @Test func statement_whenBindingEveryType_readsTheSameValuesBack() throws {
        try withTemporaryDirectory { directory in
            let database = try open(directory)
            try database.execute(
                "CREATE TABLE v (i INTEGER, big INTEGER, d REAL, s TEXT, e TEXT, n TEXT, b BLOB, z BLOB)")
            let insert = try database.prepare("INSERT INTO v VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
            // Heap strings and data that are released before the step: SQLite must have copied them.
            try {
                let text = String(repeating: "Café ☕ ", count: 20) + "nul\u{0}inside"
                try insert.bind(-42, at: 1)
                try insert.bind(Int64.min, at: 2)
                try insert.bind(-0.000_123_456_789_012_345, at: 3)
                try insert.bind(text, at: 4)
                try insert.bind("", at: 5)
                try insert.bind(nil as String?, at: 6)
                try insert.bind(Data((0..<300).map { UInt8($0 % 256) }), at: 7)
                try insert.bind(Data(), at: 8)
            }()
            _ = String(repeating: "overwrite the freed heap ", count: 50)
            try insert.run()

            let select = try database.prepare("SELECT i, big, d, s, e, n, b, z FROM v")
            #expect(try select.step() == .row)
            #expect(select.int(at: 0) == -42)
            #expect(select.int64(at: 1) == Int64.min)
            #expect(select.double(at: 2) == -0.000_123_456_789_012_345)
            #expect(select.string(at: 3) == String(repeating: "Café ☕ ", count: 20) + "nul\u{0}inside")
            #expect(select.optionalString(at: 4) == "")
            #expect(select.isNull(at: 5))
            #expect(select.optionalString(at: 5) == nil)
            #expect(select.data(at: 6) == Data((0..<300).map { UInt8($0 % 256) }))
            #expect(select.optionalData(at: 7) == Data())
            #expect(try select.step() == .done)
        }
    }

    @Test func statement_whenResetAndRebound_insertsEachRow() throws {
        try withTemporaryDirectory { directory in
            let database = try open(directory)
            try database.execute("CREATE TABLE t (x INTEGER)")
            let insert = try database.prepare("INSERT INTO t VALUES (?)", persistent: true)
            for value in 1...100 {
                try insert.bind(value, at: 1)
                try insert.run()
            }
            let sum = try database.prepare("SELECT count(*), sum(x) FROM t")
            #expect(try sum.step() == .row)
            #expect(sum.int(at: 0) == 100)
            #expect(sum.int(at: 1) == 5_050)
        }
    }

    @Test func firstRow_readsOneRowOrNilAndLeavesTheStatementReusable() throws {
        try withTemporaryDirectory { directory in
            let database = try open(directory)
            try database.execute("CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (10), (20)")
            let query = try database.prepare("SELECT x FROM t WHERE x >= ? ORDER BY x")
            try query.bind(15, at: 1)
            #expect(try query.firstRow { $0.int(at: 0) } == 20)
            try query.bind(30, at: 1)
            #expect(try query.firstRow { $0.int(at: 0) } == nil)
            try query.bind(0, at: 1)
            #expect(try query.firstRow { $0.int(at: 0) } == 10)
        }
    }

    @Test func statement_whenConstraintFails_throwsCodesMessageAndSQL() throws {
        try withTemporaryDirectory { directory in
            let database = try open(directory)
            try database.execute("CREATE TABLE t (id TEXT PRIMARY KEY)")
            try database.execute("INSERT INTO t VALUES ('a')")
            let insert = try database.prepare("INSERT INTO t VALUES (?)")
            try insert.bind("a", at: 1)
            let error = try #require(throws: SQLiteError.self) { try insert.run() }
            #expect(error.code == 19)  // SQLITE_CONSTRAINT
            #expect(error.extendedCode == 1_555)  // SQLITE_CONSTRAINT_PRIMARYKEY
            #expect(error.isConstraintViolation)
            #expect(error.message.contains("UNIQUE constraint failed: t.id"))
            #expect(error.sql == "INSERT INTO t VALUES (?)")
            #expect(error.operation == "step")
            #expect(error.description.contains("constraint failed"))
        }
    }

    @Test func prepare_whenSQLIsInvalid_throwsWithSQLiteMessage() throws {
        try withTemporaryDirectory { directory in
            let database = try open(directory)
            let error = try #require(throws: SQLiteError.self) { try database.prepare("SELEC 1") }
            #expect(error.code == 1)  // SQLITE_ERROR
            #expect(error.operation == "prepare")
            #expect(error.message.contains("syntax error"))
            #expect(throws: SQLiteError.self) { try database.prepare("SELECT 1; SELECT 2") }
            #expect(throws: SQLiteError.self) { try database.prepare("  ") }
        }
    }

    @Test func bind_whenIndexOutOfRange_throwsRangeError() throws {
        try withTemporaryDirectory { directory in
            let database = try open(directory)
            let statement = try database.prepare("SELECT ?")
            let error = try #require(throws: SQLiteError.self) { try statement.bind(1, at: 2) }
            #expect(error.code == 25)  // SQLITE_RANGE
            #expect(throws: SQLiteError.self) { try statement.bind(1, at: 0) }
        }
    }

    @Test func transaction_whenBodyThrows_rollsBackEverything() throws {
        struct Abort: Error {}
        try withTemporaryDirectory { directory in
            let database = try open(directory)
            try database.execute("CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1)")
            #expect(throws: Abort.self) {
                try database.transaction {
                    try database.execute("DELETE FROM t; INSERT INTO t VALUES (2), (3)")
                    throw Abort()
                }
            }
            #expect(!database.isInTransaction)
            let rows = try database.prepare("SELECT group_concat(x) FROM t")
            #expect(try rows.step() == .row)
            #expect(rows.string(at: 0) == "1")
        }
    }

    @Test func transaction_whenBodySucceeds_commitsAndReturnsItsValue() throws {
        try withTemporaryDirectory { directory in
            let database = try open(directory)
            try database.execute("CREATE TABLE t (x INTEGER)")
            let value = try database.transaction {
                try database.execute("INSERT INTO t VALUES (7)")
                return database.changes
            }
            #expect(value == 1)
            database.close()
            let reopened = try open(directory)
            let rows = try reopened.prepare("SELECT x FROM t")
            #expect(try rows.step() == .row)
            #expect(rows.int(at: 0) == 7)
        }
    }

    @Test func transaction_whenNested_throwsMisuseAndOuterStillCommits() throws {
        try withTemporaryDirectory { directory in
            let database = try open(directory)
            try database.execute("CREATE TABLE t (x INTEGER)")
            try database.transaction {
                try database.execute("INSERT INTO t VALUES (1)")
                let error = try #require(throws: SQLiteError.self) { try database.transaction {} }
                #expect(error.isMisuse)
            }
            let rows = try database.prepare("SELECT count(*) FROM t")
            #expect(try rows.step() == .row)
            #expect(rows.int(at: 0) == 1)
        }
    }

    @Test func userVersion_whenSet_persistsAcrossReopen() throws {
        try withTemporaryDirectory { directory in
            let database = try open(directory)
            #expect(try database.userVersion() == 0)
            try database.setUserVersion(42)
            database.close()
            #expect(try open(directory).userVersion() == 42)
        }
    }

    @Test func checkpoint_whenTruncating_emptiesTheWALFile() throws {
        try withTemporaryDirectory { directory in
            let database = try open(directory)
            try database.execute("CREATE TABLE t (x BLOB); INSERT INTO t VALUES (zeroblob(100000))")
            let walPath = database.path + "-wal"
            let before = try FileManager.default.attributesOfItem(atPath: walPath)[.size] as? Int
            #expect((before ?? 0) > 100_000)
            let result = try database.checkpoint(truncate: true)
            #expect(result.walFrames == 0)
            let after = try FileManager.default.attributesOfItem(atPath: walPath)[.size] as? Int
            #expect(after == 0)
            #expect(try database.integrityCheck() == ["ok"])
        }
    }

    @Test func close_whenCalledTwice_isSafeAndLaterUseThrows() throws {
        try withTemporaryDirectory { directory in
            let database = try open(directory)
            try database.execute("CREATE TABLE t (x INTEGER)")
            let statement = try database.prepare("SELECT x FROM t")
            database.close()
            database.close()
            #expect(!database.isOpen)
            let execError = try #require(throws: SQLiteError.self) { try database.execute("SELECT 1") }
            #expect(execError.isMisuse)
            let stepError = try #require(throws: SQLiteError.self) { try statement.step() }
            #expect(stepError.isMisuse)
        }
    }

    @Test func open_whenDirectoryIsMissing_throwsCantOpen() throws {
        try withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("missing/test.sqlite").path
            let error = try #require(throws: SQLiteError.self) { try Database(path: path) }
            #expect(error.code == 14)  // SQLITE_CANTOPEN
            #expect(error.operation == "open")
        }
    }
}
