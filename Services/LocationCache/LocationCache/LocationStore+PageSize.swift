import SQLite

/// The file's page size. Every put rewrites one leaf page, and a batch's commit writes each page
/// it changed to the WAL (and checksums it): a row is about 50 bytes, so with SQLite's default
/// 4096-byte pages a put wrote some 80 times what it changed. Pages of 1024 bytes cut those bytes
/// by four and still hold a row inline when its user id has up to about 190 bytes (every id of
/// 128 ASCII characters); a longer UTF-8 id spills into an overflow page, which `secure_delete`
/// zeroes like any other when the row goes.
extension LocationStore {
    /// The page size this code gives the file.
    public static let pageSize = 1024

    /// The page size of the open file.
    static func pageSize(of database: Database) throws -> Int {
        try database.prepare("PRAGMA page_size").firstRow { $0.int(at: 0) } ?? 0
    }

    /// Rebuilds the file with `pageSize` pages when it has others (a new file, or one written
    /// before this code). A page size can change only outside WAL mode, through `VACUUM`: the
    /// file is switched to a rollback journal for the rebuild, which is as crash-safe as any
    /// transaction, then back to WAL. The rebuilt copy is made in memory (as large as the file,
    /// once), not in a temporary file elsewhere. If the rebuild cannot run (another connection
    /// holds the file in WAL mode) or fails, the file keeps its page size and it is tried again
    /// at the next start; if WAL mode cannot be restored, this throws and the store does not open.
    static func usePageSize(_ database: Database) throws {
        guard try pageSize(of: database) != pageSize else { return }
        do {
            try database.execute("PRAGMA temp_store = MEMORY")
            try database.execute("PRAGMA journal_mode = DELETE")
            if try database.journalMode() == "delete" {
                try database.execute("PRAGMA page_size = \(pageSize)")
                try database.execute("VACUUM")
            }
        } catch {
            // The file keeps its page size; WAL mode is restored below either way.
        }
        try? database.execute("PRAGMA temp_store = DEFAULT")
        try database.execute("PRAGMA journal_mode = WAL")
        guard try database.journalMode() == "wal" else {
            throw LocationStoreError.walUnavailable
        }
    }
}
