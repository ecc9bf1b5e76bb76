extension StrictJSON {
    /// The one pass over a document: checks it against the grammar and lists the members asked for.
    struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0
        /// Whether members are listed in `members`.
        var collecting = false
        var members: [Member] = []
        /// The member being read at each depth that can be listed (index 0: depth 1).
        var levels = InlineArray<16, Level>(repeating: Level())
        /// An object lay deeper than the deepest listed depth (its members are not listed).
        var passedDeeperObject = false
        /// Set by `string()` when it meets a backslash (a key's escapes, known without a rescan).
        var sawEscape = false
        /// Open containers.
        var stack = ContainerStack()

        init(_ bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
        }

        /// A listed depth's member in progress: its key, whether the key has escapes, where its
        /// value starts (-1 until it does) and where its object opened. Offsets are 32-bit (a frame
        /// is at most a few MiB), so the sixteen levels stay small to set up for every check.
        struct Level {
            var keyStart: Int32 = 0, keyEnd: Int32 = 0
            var valueStart: Int32 = -1
            var object: Int32 = 0
            var escaped = false
        }

        /// Whether members at the innermost depth are listed.
        var listsInnermost: Bool { collecting && stack.depth <= deepestListed }

        func fail(_ reason: String) -> Failure { Failure(offset: index, reason: reason) }

        var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }

        mutating func document() -> Failure? {
            skipWhitespace()
            // Members are listed only under a top-level object (not in objects inside an array).
            collecting = collecting && peek == UInt8(ascii: "{")
            if let failure = value() { return failure }
            skipWhitespace()
            return index == bytes.count ? nil : fail("unexpected text after the JSON value")
        }

        /// Scans one value, including every nested container, without recursion.
        mutating func value() -> Failure? {
            while true {
                // Expect the start of a value.
                skipWhitespace()
                if collecting { memberValueStarts() }
                guard let byte = peek else { return fail("unexpected end of input, expected a value") }
                switch byte {
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    guard stack.depth < StrictJSON.maxDepth else { return fail("nesting deeper than \(StrictJSON.maxDepth)") }
                    let isObject = byte == UInt8(ascii: "{")
                    let opening = index
                    index += 1
                    skipWhitespace()
                    if peek == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                        index += 1
                        break  // empty container: a complete value
                    }
                    stack.push(isObject: isObject)
                    if isObject && listsInnermost { levels[stack.depth - 1].object = Int32(truncatingIfNeeded: opening) }
                    if isObject && stack.depth > deepestListed { passedDeeperObject = true }
                    if isObject, let failure = key() { return failure }
                    continue
                case UInt8(ascii: "\""):
                    if let failure = string() { return failure }
                case UInt8(ascii: "t"):
                    if let failure = literal("true") { return failure }
                case UInt8(ascii: "f"):
                    if let failure = literal("false") { return failure }
                case UInt8(ascii: "n"):
                    if let failure = literal("null") { return failure }
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    if let failure = number() { return failure }
                default:
                    return fail("unexpected character, expected a value")
                }
                // A value is complete: close containers or move to the next element.
                if collecting { memberValueEnds() }
                while true {
                    guard let isObject = stack.innermostIsObject else { return nil }
                    skipWhitespace()
                    guard let next = peek else { return fail("unexpected end of input inside a container") }
                    if next == UInt8(ascii: ",") {
                        index += 1
                        if isObject, let failure = key() { return failure }
                        break
                    }
                    if next == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                        index += 1
                        stack.pop()
                        if collecting { memberValueEnds() }
                        continue
                    }
                    return fail(isObject ? "expected ',' or '}'" : "expected ',' or ']'")
                }
            }
        }

        /// A listed member's value starts here.
        mutating func memberValueStarts() {
            guard stack.innermostIsObject == true, listsInnermost else { return }
            levels[stack.depth - 1].valueStart = Int32(truncatingIfNeeded: index)
        }

        /// The value just completed ends here: list its member if its depth is listed.
        mutating func memberValueEnds() {
            guard stack.innermostIsObject == true, listsInnermost else { return }
            let level = levels[stack.depth - 1]
            guard level.valueStart >= 0 else { return }
            members.append(Member(depth: stack.depth, key: Int(level.keyStart)..<Int(level.keyEnd),
                                  keyHasEscape: level.escaped, value: Int(level.valueStart)..<index,
                                  object: Int(level.object)))
            levels[stack.depth - 1].valueStart = -1
        }

        /// Scans `"name" :` inside an object.
        mutating func key() -> Failure? {
            skipWhitespace()
            guard peek == UInt8(ascii: "\"") else { return fail("expected a quoted member name") }
            let start = index
            sawEscape = false
            if let end = Self.plainKeyEnd(bytes, from: start + 1) {
                index = end + 1  // names are short and plain: a byte loop beats the word scan
            } else if let failure = string() {
                return failure
            }
            if listsInnermost {
                levels[stack.depth - 1].keyStart = Int32(truncatingIfNeeded: start + 1)
                levels[stack.depth - 1].keyEnd = Int32(truncatingIfNeeded: index - 1)
                levels[stack.depth - 1].escaped = sawEscape
            }
            skipWhitespace()
            guard peek == UInt8(ascii: ":") else { return fail("expected ':' after a member name") }
            index += 1
            return nil
        }

        /// Where the closing quote of a name written in plain printable ASCII is (no escape, no
        /// control or non-ASCII byte), looking at most 32 bytes; nil for any other name, which
        /// `string()` then scans and checks. Static: a call on the scanner would copy it.
        static func plainKeyEnd(_ bytes: UnsafeBufferPointer<UInt8>, from first: Int) -> Int? {
            let limit = min(bytes.count, first + 32)
            var position = first
            while position < limit {
                let byte = bytes[position]
                if byte == UInt8(ascii: "\"") { return position }
                guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\\") else { return nil }
                position += 1
            }
            return nil
        }

        mutating func literal(_ word: StaticString) -> Failure? {
            let count = word.utf8CodeUnitCount
            guard index + count <= bytes.count else { return fail("unexpected end of input in a literal") }
            let expected = UnsafeBufferPointer(start: word.utf8Start, count: count)
            for offset in 0..<count where bytes[index + offset] != expected[offset] {
                return fail("invalid literal")
            }
            index += count
            return nil
        }

        mutating func number() -> Failure? {
            if peek == UInt8(ascii: "-") { index += 1 }
            guard let first = peek, isDigit(first) else { return fail("a number needs digits") }
            index += 1
            if first != UInt8(ascii: "0") {
                while let byte = peek, isDigit(byte) { index += 1 }
            }
            if peek == UInt8(ascii: ".") {
                index += 1
                guard let byte = peek, isDigit(byte) else { return fail("a fraction needs digits") }
                while let byte = peek, isDigit(byte) { index += 1 }
            }
            if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
                index += 1
                if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { index += 1 }
                guard let byte = peek, isDigit(byte) else { return fail("an exponent needs digits") }
                while let byte = peek, isDigit(byte) { index += 1 }
            }
            return nil
        }

        func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

        /// Scans a string, checking escapes and that the text is well-formed UTF-8.
        mutating func string() -> Failure? {
            index += 1  // opening quote
            while index < bytes.count {
                // Eight bytes at a time up to the first that needs a closer look (a quote, an
                // escape, a control or non-ASCII byte): most string text is none of these.
                index = ByteWords.skip(bytes, from: index, to: bytes.count, until: ByteWords.needsALook)
                guard index < bytes.count else { break }
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "\""):
                    index += 1
                    return nil
                case UInt8(ascii: "\\"):
                    index += 1
                    sawEscape = true
                    guard let escape = peek else { return fail("unexpected end of input in an escape") }
                    switch escape {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                         UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                        index += 1
                    case UInt8(ascii: "u"):
                        index += 1
                        for _ in 0..<4 {
                            guard let hex = peek, isHex(hex) else { return fail("\\u needs four hex digits") }
                            index += 1
                        }
                    default:
                        return fail("invalid escape")
                    }
                case 0x00..<0x20:
                    return fail("control character in a string")
                case 0x20..<0x80:
                    index += 1
                default:
                    if let failure = utf8Sequence(byte) { return failure }
                }
            }
            return fail("unterminated string")
        }

        func isHex(_ byte: UInt8) -> Bool {
            isDigit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "f"))
        }

        /// Checks one multi-byte UTF-8 sequence (no overlongs, no surrogates, at most U+10FFFF).
        mutating func utf8Sequence(_ lead: UInt8) -> Failure? {
            let length: Int
            var low: UInt8 = 0x80, high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; high = 0x9F
            case 0xF0: length = 4; low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F
            default: return fail("invalid UTF-8")
            }
            guard index + length <= bytes.count else { return fail("truncated UTF-8") }
            for offset in 1..<length {
                let byte = bytes[index + offset]
                let (min, max) = offset == 1 ? (low, high) : (UInt8(0x80), UInt8(0xBF))
                guard byte >= min && byte <= max else { return fail("invalid UTF-8") }
            }
            index += length
            return nil
        }
    }
}
