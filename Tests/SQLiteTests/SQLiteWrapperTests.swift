import Foundation
import SQLite
import TestSupport
import Testing

/// The SQLite wrapper's reuse of statements: the bytes of text and blob bindings (owned by the
/// statement, which SQLite reads in place) and the connection's kept transaction statements.
/// (`DatabaseTests` covers the rest of the wrapper.)
struct SQLiteWrapperTests {
    func open(_ directory: URL, _ name: String = "test.sqlite", busyTimeout: Int32 = 5_000) throws -> Database {
        try Database(path: directory.appendingPathComponent(name).path, busyTimeoutMilliseconds: busyTimeout)
    }

    /// Every `(id, s)` row of table `t`, in id order, with NULL as nil.
    func rows(_ database: Database) throws -> [(Int, String?)] {
        var rows: [(Int, String?)] = []
        try database.prepare("SELECT id, s FROM t ORDER BY id").forEachRow {
            rows.append(($0.int(at: 0), $0.optionalString(at: 1)))
        }
        return rows
    }

    // MARK: - Bound text and blobs

    @Test func bind_whenTheStringChangesAfterTheStep_storedTextStaysAsBound() throws {
        try withTemporaryDirectory { directory in
            let database = try open(directory)
            try database.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, s TEXT)")
            let insert = try database.prepare("INSERT INTO t VALUES (?, ?)", persistent: true)
            var text = String(repeating: "Café ☕ ", count: 6)  // a heap string, 54 bytes
            let original = text
            try insert.bind(1, at: 1)
            try insert.bind(text, at: 2)
            try insert.run()
            text.removeAll()
            text += String(repeating: "overwritten ", count: 8)
            _ = String(repeating: "reuse the freed heap ", count: 40)
            #expect(try rows(database).map(\.1) == [original])
        }
    }

    @Test func bind_whenTheStringIsFreedBeforeTheStep_storesTheBoundText() throws {
        try withTemporaryDirectory { directory in
            let database = try open(directory)
            try database.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, s TEXT)")
            let insert = try database.prepare("INSERT INTO t VALUES (?, ?)", persistent: true)
            try {
                let small = "user-00042"  // stored inline in the String value
                let large = String(repeating: "ünïcødé ", count: 30) + "nul\u{0}inside"
                try insert.bind(1, at: 1)
                try insert.bind(small, at: 2)
                try insert.run()
                try insert.bind(2, at: 1)
                try insert.bind(large, at: 2)
            }()
            _ = (0..<50).map { String(repeating: "garbage \($0) ", count: 20) }
            try insert.run()
            // Rebinding only the id runs again with the text bound before: its bytes are still held.
            try insert.bind(3, at: 1)
            try insert.run()
            let large = String(repeating: "ünïcødé ", count: 30) + "nul\u{0}inside"
            #expect(try rows(database).map(\.1) == ["user-00042", large, large])
        }
    }

    @Test func bind_whenReboundLongerThenShorterThenEmpty_storesEachExactly() throws {
        try withTemporaryDirectory { directory in
            let database = try open(directory)
            try database.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, s TEXT)")
            let insert = try database.prepare("INSERT INTO t VALUES (?, ?)", persistent: true)
            let values = ["abc", String(repeating: "x", count: 100), "de",
                          String(repeating: "y", count: 2_000), "f", ""]  // 2,000 bytes: left to SQLite to copy
            for (id, value) in values.enumerated() {
                try insert.bind(id, at: 1)
                try insert.bind(value, at: 2)
                try insert.run()
            }
            let stored = try rows(database)
            #expect(stored.map(\.1) == values)  // "" stays '', never NULL
            let lengths = try database.prepare("SELECT length(s) FROM t ORDER BY id")
            var counts: [Int] = []
            try lengths.forEachRow { counts.append($0.int(at: 0)) }
            #expect(counts == values.map(\.utf8.count))
        }
    }

    @Test func bind_whenTheStatementIsBetweenStepAndReset_throwsAndKeepsTheCurrentValue() throws {
        try withTemporaryDirectory { directory in
            let database = try open(directory)
            let echo = try database.prepare("SELECT ?1")
            try echo.bind("first value", at: 1)
            #expect(try echo.step() == .row)
            let error = try #require(throws: SQLiteError.self) { try echo.bind("second value", at: 1) }
            #expect(error.isMisuse)
            #expect(echo.string(at: 0) == "first value")
            echo.reset()
            #expect(try echo.firstRow { $0.string(at: 0) } == "first value")
            try echo.bind("second value", at: 1)
            #expect(try echo.firstRow { $0.string(at: 0) } == "second value")
        }
    }

    @Test func bind_whenTheDataIsChangedAfterTheStep_storedBlobStaysAsBound() throws {
        try withTemporaryDirectory { directory in
            let database = try open(directory)
            try database.execute("CREATE TABLE b (id INTEGER PRIMARY KEY, v BLOB)")
            let insert = try database.prepare("INSERT INTO b VALUES (?, ?)")
            var bytes = Data((0..<200).map { UInt8($0) })
            try insert.bind(1, at: 1)
            try insert.bind(bytes, at: 2)
            try insert.run()
            bytes.resetBytes(in: 0..<bytes.count)
            try insert.bind(2, at: 1)
            try insert.bind(Data([9, 8, 7]), at: 2)
            try insert.run()
            var stored: [Data] = []
            try database.prepare("SELECT v FROM b ORDER BY id").forEachRow { stored.append($0.data(at: 0)) }
            #expect(stored == [Data((0..<200).map { UInt8($0) }), Data([9, 8, 7])])
        }
    }

    @Test func bind_whenTheDatabaseClosesBeforeTheStatementGoes_laterStepThrowsMisuse() throws {
        try withTemporaryDirectory { directory in
            let database = try open(directory)
            var statement: Statement? = try database.prepare("SELECT ?1")
            try statement?.bind("held by the statement", at: 1)
            database.close()
            let error = try #require(throws: SQLiteError.self) { try statement?.step() }
            #expect(error.isMisuse)
            statement = nil  // frees the bound bytes, after close() finalized the statement
        }
    }

    @Test func finalize_whenTextWasBound_laterBindThrowsMisuse() throws {
        try withTemporaryDirectory { directory in
            let database = try open(directory)
            let statement = try database.prepare("SELECT ?1")
            try statement.bind("bound before finalize", at: 1)
            statement.finalize()
            let error = try #require(throws: SQLiteError.self) { try statement.bind("after", at: 1) }
            #expect(error.isMisuse)
            #expect(error.message == "the statement was finalized")
        }
    }
}
