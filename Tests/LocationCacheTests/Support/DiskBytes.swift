import Foundation
import LocationCache

/// Raw bytes of the store's files (`.sqlite`, `-wal`, `-shm`), to prove what is on disk.
enum DiskBytes {
    /// Every file of the store in `directory`, by name.
    static func storeFiles(in directory: URL) throws -> [String: Data] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasPrefix(LocationStore.fileName) }
        var files: [String: Data] = [:]
        for name in names {
            files[name] = try Data(contentsOf: directory.appendingPathComponent(name))
        }
        return files
    }

    /// The names of the store files that contain `needle` anywhere.
    static func filesContaining(_ needle: Data, in directory: URL) throws -> [String] {
        try storeFiles(in: directory).filter { $0.value.range(of: needle) != nil }.map(\.key).sorted()
    }

    /// A user id as SQLite stores TEXT (UTF-8).
    static func text(_ value: String) -> Data { Data(value.utf8) }

    /// A REAL with a fractional part as SQLite stores it in a record (8 bytes, big-endian IEEE 754).
    static func real(_ value: Double) -> Data {
        withUnsafeBytes(of: value.bitPattern.bigEndian) { Data($0) }
    }

    /// Size of the `-wal` file, or nil when there is none.
    static func walSize(in directory: URL) -> Int? {
        let path = directory.appendingPathComponent(LocationStore.fileName + "-wal").path
        return (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int
    }
}
