/// How a backend channel names its calls on the wire: `<prefix>-<number>` for a call and
/// `<prefix>-b<number>` for a batch. The prefix is random for each channel, so a reply meant for
/// another channel (one before a restart) is not taken for one of this channel's calls.
struct CallIDs {
    let prefix = String(UInt32.random(in: 0 ... UInt32.max), radix: 36)
    private let prefixBytes: [UInt8]

    init() {
        prefixBytes = Array(prefix.utf8)
    }

    /// The call or batch number in one of these ids (nil: an id this channel never gave), read
    /// byte by byte (the `-`, an optional `b`, then digits only).
    func number(_ id: String) -> (number: UInt64, isBatch: Bool)? {
        var id = id
        return id.withUTF8 { bytes -> (UInt64, Bool)? in
            guard bytes.count > prefixBytes.count + 1, bytes.starts(with: prefixBytes),
                  bytes[prefixBytes.count] == UInt8(ascii: "-") else { return nil }
            var index = prefixBytes.count + 1
            let isBatch = bytes[index] == UInt8(ascii: "b")
            if isBatch { index += 1 }
            guard index < bytes.count, bytes.count - index <= 19 else { return nil }
            var number: UInt64 = 0
            while index < bytes.count {
                let digit = bytes[index] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                number = number * 10 + UInt64(digit)
                index += 1
            }
            return (number, isBatch)
        }
    }
}
