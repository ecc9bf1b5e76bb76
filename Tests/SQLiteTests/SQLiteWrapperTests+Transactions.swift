import Foundation
import SQLite
import TestSupport
import Testing

/// Transactions run through statements the connection compiles once and keeps.
extension SQLiteWrapperTests {
    private func count(_ database: Database, _ table: String = "t") throws -> Int {
        try database.prepare("SELECT count(*) FROM \(table)").firstRow { $0.int(at: 0) } ?? -1
    }

    /// A transaction that writes a row, then one that NOT NULL refuses.
    private func insertTwoRowsTheSecondRefused(_ database: Database, _ insert: Statement, _ round: Int) throws {
        try database.transaction {
            try insert.bind(1_000 + round, at: 1)
            try insert.bind("written, then rolled back", at: 2)
            try insert.run()
            try insert.bind(2_000 + round, at: 1)
            try insert.bind(nil as String?, at: 2)
            try insert.run()
        }
    }

    /// A transaction that NOT NULL ends (checked: rolled back), then one that commits row `round`.
    private func failThenCommit(_ database: Database, _ insert: Statement, _ round: Int) throws {
        let error = try #require(throws: SQLiteError.self) {
            try insertTwoRowsTheSecondRefused(database, insert, round)
        }
        #expect(error.isConstraintViolation)
        #expect(error.operation == "step")
        #expect(!database.isInTransaction)
        try database.transaction {
            try insert.bind(round, at: 1)
            try insert.bind("kept", at: 2)
            try insert.run()
        }
    }

    @Test func transaction_whenRunManyTimesOnOneConnection_commitsEveryOne() throws {
        try withTemporaryDirectory { directory in
            let database = try open(directory)
            try database.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, s TEXT)")
            let insert = try database.prepare("INSERT INTO t VALUES (?, ?)", persistent: true)
            for id in 0..<300 {
                if id.isMultiple(of: 2) {
                    try database.transaction {
                        try insert.bind(id, at: 1)
                        try insert.bind("row \(id)", at: 2)
                        try insert.run()
                    }
                } else {
                    try database.begin()
                    try insert.bind(id, at: 1)
                    try insert.bind("row \(id)", at: 2)
                    try insert.run()
                    try database.commit()
                }
                #expect(!database.isInTransaction)
            }
            database.close()
            #expect(try count(open(directory)) == 300)
        }
    }

    @Test func transaction_whenAStatementInsideFails_rollsBackEachTimeAndTheNextOneCommits() throws {
        try withTemporaryDirectory { directory in
            let database = try open(directory)
            try database.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, s TEXT NOT NULL)")
            let insert = try database.prepare("INSERT INTO t VALUES (?, ?)", persistent: true)
            for round in 0..<50 {
                try failThenCommit(database, insert, round)
            }
            #expect(try count(database) == 50)
            let rolledBack = try database.prepare("SELECT count(*) FROM t WHERE id >= 1000").firstRow { $0.int(at: 0) }
            #expect(rolledBack == 0)
        }
    }

    @Test func begin_whenATransactionIsOpen_throwsExecErrorAndTheOpenOneStillCommits() throws {
        try withTemporaryDirectory { directory in
            let database = try open(directory)
            try database.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, s TEXT)")
            try database.begin()
            try database.execute("INSERT INTO t VALUES (1, 'a')")
            let error = try #require(throws: SQLiteError.self) { try database.begin() }
            #expect(error.code == 1)  // SQLITE_ERROR
            #expect(error.operation == "exec")
            #expect(error.sql == "BEGIN IMMEDIATE")
            #expect(error.message.contains("within a transaction"))
            #expect(database.isInTransaction)
            try database.commit()
            #expect(try count(database) == 1)
        }
    }

    /// Begins, inserts a child of a missing parent (refused at COMMIT) and checks the commit's error.
    private func commitAnOrphan(_ database: Database) throws {
        try database.begin()
        try database.execute("INSERT INTO child VALUES (1, 99)")
        let error = try #require(throws: SQLiteError.self) { try database.commit() }
        #expect(error.isConstraintViolation)
        #expect(error.extendedCode == 787)  // SQLITE_CONSTRAINT_FOREIGNKEY
        #expect(error.operation == "exec")
        #expect(error.sql == "COMMIT")
        #expect(!database.isInTransaction)
        #expect(try count(database, "child") == 0)
    }

    @Test func commit_whenADeferredForeignKeyFails_rollsBackAndReportsCommit() throws {
        try withTemporaryDirectory { directory in
            let database = try open(directory)
            try database.execute("""
                CREATE TABLE parent (id INTEGER PRIMARY KEY);
                CREATE TABLE child (id INTEGER PRIMARY KEY,
                                    parent INTEGER REFERENCES parent (id) DEFERRABLE INITIALLY DEFERRED);
                """)
            for _ in 0..<3 {
                try commitAnOrphan(database)
            }
            try database.transaction {
                try database.execute("INSERT INTO parent VALUES (99); INSERT INTO child VALUES (1, 99)")
            }
            #expect(try count(database, "child") == 1)
        }
    }

    @Test func begin_whenAnotherConnectionHoldsTheWriteLock_throwsBusyThenWorksOnceReleased() throws {
        try withTemporaryDirectory { directory in
            let database = try open(directory, busyTimeout: 0)
            try database.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, s TEXT)")
            let other = try open(directory)
            try other.begin()
            try expectBusyBegin(database)
            try other.commit()
            try insertInATransaction(database, id: 1)
            #expect(try count(database) == 1)
        }
    }

    /// `begin()` while another connection writes: SQLITE_BUSY, and no transaction left open.
    private func expectBusyBegin(_ database: Database) throws {
        let error = try #require(throws: SQLiteError.self) { try database.begin() }
        #expect(error.isBusy)
        #expect(error.sql == "BEGIN IMMEDIATE")
        #expect(!database.isInTransaction)
    }

    /// Inserts row `id` into `t` inside `transaction`. (A helper of its own: Swift 6.3.1 gave a
    /// closure written after a `#require(throws:)` in the same closure the other's body.)
    private func insertInATransaction(_ database: Database, id: Int) throws {
        try database.transaction { try database.execute("INSERT INTO t VALUES (\(id), 'after the lock')") }
    }

    @Test func transaction_whenTheDatabaseWasClosed_throwsMisuse() throws {
        try withTemporaryDirectory { directory in
            let database = try open(directory)
            try database.transaction { try database.execute("CREATE TABLE t (id INTEGER PRIMARY KEY)") }
            try database.begin()
            database.close()  // finalizes the kept statements with the open transaction's connection
            #expect(!database.isInTransaction)
            let error = try #require(throws: SQLiteError.self) { try database.transaction {} }
            #expect(error.isMisuse)
            #expect(throws: SQLiteError.self) { try database.begin() }
            #expect(throws: SQLiteError.self) { try database.commit() }
        }
    }
}
