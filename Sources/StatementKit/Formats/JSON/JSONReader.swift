/// A strict RFC 8259 reader that pulls JSON from a byte source, value by value, in one pass.
///
/// It holds only a small window of the input, so a statement file of any size is read in
/// constant memory: a caller walks the outer objects and arrays with `nextMember` and
/// `nextElement` and builds a tree (`readValue`) only of what it needs at once, such as one
/// transaction. Every value knows its line and column, counted as the bytes go by (LF, CRLF
/// and a lone CR end a line; columns count Unicode scalars), never by looking back.
///
/// Rejects trailing commas, comments, single quotes, control characters in strings, invalid
/// UTF-8 and lone surrogate escapes. A UTF-8 byte order mark at the start is skipped. Arrays
/// and objects nest at most `maximumDepth` levels.
///
/// - Complexity: O(n) in the size of the input, whatever its line structure.
struct JSONReader<Source: ByteSource>: ~Copyable {
    /// How deeply arrays and objects may nest; a statement file needs four levels.
    static var maximumDepth: Int { 64 }

    private var source: Source
    private let buffer: UnsafeMutableRawBufferPointer
    /// The valid bytes in `buffer`.
    private var count = 0
    /// The index in `buffer` of the next byte.
    private var index = 0
    /// The file offset of `buffer[0]`.
    private var base = 0
    private var isAtEnd = false
    private var depth = 0
    /// The line of the next byte, the file offset where that line starts, and how many UTF-8
    /// continuation bytes the reader had passed there and has passed now.
    private var line = 1
    private var lineStart = 0
    private var continuationsAtLineStart = 0
    private var continuations = 0
    /// The file offset just past the last CR, whose LF (if next) ends no further line.
    private var carriageReturnEnd = -1

    /// Creates a reader of the bytes a source hands out.
    init(source: Source, chunkSize: Int = 256 << 10) {
        self.source = source
        buffer = .allocate(byteCount: max(chunkSize, 16), alignment: 1)
    }

    deinit { buffer.deallocate() }

    /// How many bytes have been consumed.
    var offset: Int { base + index }

    /// The line and column of the next byte.
    var position: SourcePosition {
        SourcePosition(
            line: line,
            column: offset - lineStart - (continuations - continuationsAtLineStart) + 1)
    }

    // MARK: Walking

    /// Skips a byte order mark and white space, and returns the first byte of the next value
    /// without consuming it; `nil` at the end of the input.
    mutating func peekValue() throws(JSONSyntaxError) -> UInt8? {
        if offset == 0 {
            try fill(3)
            if count >= 3 && buffer[0] == 0xEF && buffer[1] == 0xBB && buffer[2] == 0xBF {
                index = 3
                lineStart = 3
            }
        }
        return try skipWhitespace()
    }

    /// Requires the input to end after the value just read, apart from white space.
    mutating func expectEnd() throws(JSONSyntaxError) {
        if try skipWhitespace() != nil { throw error("unexpected text after the JSON value") }
    }

    /// Consumes the `{` that opens an object.
    mutating func beginObject() throws(JSONSyntaxError) {
        try enterContainer()
    }

    /// Consumes the `[` that opens an array.
    mutating func beginArray() throws(JSONSyntaxError) {
        try enterContainer()
    }

    /// Reads the next key of the object being walked and the `:` after it; `nil` when the
    /// object closes (its `}` is consumed).
    ///
    /// - Parameter isFirst: `true` before the first member; the reader sets it to `false`.
    mutating func nextMember(isFirst: inout Bool)
        throws(JSONSyntaxError) -> (key: String, position: SourcePosition)?
    {
        var byte = try skipWhitespace()
        if isFirst {
            isFirst = false
            if byte == UInt8(ascii: "}") {
                closeContainer()
                return nil
            }
        } else {
            switch byte {
            case UInt8(ascii: ","):
                index += 1
                byte = try skipWhitespace()
            case UInt8(ascii: "}"):
                closeContainer()
                return nil
            default: throw error("expected ',' or '}' in the object")
            }
        }
        guard byte == UInt8(ascii: "\"") else { throw error("expected a string key") }
        let keyPosition = position
        let key = try readString()
        guard try skipWhitespace() == UInt8(ascii: ":") else {
            throw error("expected ':' after the key")
        }
        index += 1
        return (key, keyPosition)
    }

    /// Moves to the next element of the array being walked; `false` when the array closes
    /// (its `]` is consumed).
    ///
    /// - Parameter isFirst: `true` before the first element; the reader sets it to `false`.
    mutating func nextElement(isFirst: inout Bool) throws(JSONSyntaxError) -> Bool {
        let byte = try skipWhitespace()
        if isFirst {
            isFirst = false
            if byte == UInt8(ascii: "]") { closeContainer() }
            return byte != UInt8(ascii: "]")
        }
        switch byte {
        case UInt8(ascii: ","):
            index += 1
            return true
        case UInt8(ascii: "]"):
            closeContainer()
            return false
        default: throw error("expected ',' or ']' in the array")
        }
    }

    /// Reads the next value whole, as a tree.
    mutating func readValue() throws(JSONSyntaxError) -> JSONNode {
        guard let byte = try skipWhitespace() else {
            throw error("unexpected end of file, a value was expected")
        }
        let start = position
        switch byte {
        case UInt8(ascii: "{"):
            try enterContainer()
            var members: [JSONMember] = []
            var isFirst = true
            while let (key, keyPosition) = try nextMember(isFirst: &isFirst) {
                members.append(
                    JSONMember(key: key, keyPosition: keyPosition, node: try readValue()))
            }
            return JSONNode(value: .object(members), position: start)
        case UInt8(ascii: "["):
            try enterContainer()
            var elements: [JSONNode] = []
            var isFirst = true
            while try nextElement(isFirst: &isFirst) { elements.append(try readValue()) }
            return JSONNode(value: .array(elements), position: start)
        case UInt8(ascii: "\""): return JSONNode(value: .string(try readString()), position: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return JSONNode(value: .number(try readNumber()), position: start)
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return JSONNode(value: .bool(true), position: start)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return JSONNode(value: .bool(false), position: start)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return JSONNode(value: .null, position: start)
        default: throw error("unexpected character, a value was expected")
        }
    }

    /// Reads past the next value, checking it as strictly as `readValue` but keeping nothing.
    mutating func skipValue() throws(JSONSyntaxError) {
        switch try skipWhitespace() {
        case UInt8(ascii: "{"):
            try enterContainer()
            var isFirst = true
            while try nextMember(isFirst: &isFirst) != nil { try skipValue() }
        case UInt8(ascii: "["):
            try enterContainer()
            var isFirst = true
            while try nextElement(isFirst: &isFirst) { try skipValue() }
        default:
            _ = try readValue()
        }
    }

    // MARK: Bytes

    /// Makes at least `wanted` bytes from `index` on available, unless the input ends first.
    private mutating func fill(_ wanted: Int) throws(JSONSyntaxError) {
        while count - index < wanted && !isAtEnd {
            if index > 0 {
                let rest = count - index
                if rest > 0 {
                    buffer.baseAddress!.copyMemory(
                        from: buffer.baseAddress! + index, byteCount: rest)
                }
                base += index
                count = rest
                index = 0
            }
            let read: Int
            do {
                read = try source.read(
                    into: UnsafeMutableRawBufferPointer(rebasing: buffer[count...]))
            } catch {
                throw self.error("cannot read the file: \(error)")
            }
            if read == 0 { isAtEnd = true } else { count += read }
        }
    }

    /// The next byte, without consuming it; `nil` at the end.
    private mutating func peek() throws(JSONSyntaxError) -> UInt8? {
        if index == count { try fill(1) }
        return index < count ? buffer[index] : nil
    }

    /// Skips white space, counting lines, and returns the next byte without consuming it.
    private mutating func skipWhitespace() throws(JSONSyntaxError) -> UInt8? {
        // Most values follow their separator directly (always, in minified JSON).
        if index < count, buffer[index] > UInt8(ascii: " ") { return buffer[index] }
        while let byte = try peek() {
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"):
                index += 1
            case UInt8(ascii: "\n"):
                // The LF of a CRLF ends the line the CR already ended.
                if carriageReturnEnd != offset { line += 1 }
                index += 1
                startLine()
            case UInt8(ascii: "\r"):
                line += 1
                index += 1
                carriageReturnEnd = offset
                startLine()
            default:
                return byte
            }
        }
        return nil
    }

    private mutating func startLine() {
        lineStart = offset
        continuationsAtLineStart = continuations
    }

    private func error(_ message: String, back: Int = 0) -> JSONSyntaxError {
        let here = position
        return JSONSyntaxError(
            position: SourcePosition(line: here.line, column: here.column - back),
            message: message, isTooDeep: false)
    }

    private mutating func enterContainer() throws(JSONSyntaxError) {
        depth += 1
        guard depth <= Self.maximumDepth else {
            throw JSONSyntaxError(
                position: position, message: "nesting deeper than \(Self.maximumDepth) levels",
                isTooDeep: true)
        }
        index += 1
    }

    /// Consumes the closing bracket of the innermost container.
    private mutating func closeContainer() {
        depth -= 1
        index += 1
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONSyntaxError) {
        let length = literal.utf8CodeUnitCount
        try fill(length)
        let matches =
            count - index >= length
            && literal.withUTF8Buffer {
                UnsafeRawBufferPointer($0).elementsEqual(buffer[index..<index + length])
            }
        guard matches else { throw error("invalid literal, expected \(literal)") }
        index += length
    }

    /// Reads a number's text; numbers are ASCII, so columns move with the bytes.
    private mutating func readNumber() throws(JSONSyntaxError) -> String {
        var text: [UInt8] = []
        func digits(_ reader: inout JSONReader, _ text: inout [UInt8]) throws(JSONSyntaxError)
            -> Int
        {
            var digitCount = 0
            while let byte = try reader.peek(), byte &- UInt8(ascii: "0") < 10 {
                text.append(byte)
                reader.index += 1
                digitCount += 1
            }
            return digitCount
        }
        if try peek() == UInt8(ascii: "-") {
            text.append(UInt8(ascii: "-"))
            index += 1
        }
        let integerStart = text.count
        let integerDigits = try digits(&self, &text)
        guard integerDigits > 0 else { throw error("invalid number") }
        if text[integerStart] == UInt8(ascii: "0") && integerDigits > 1 {
            throw error("invalid number: leading zero", back: text.count)
        }
        if try peek() == UInt8(ascii: ".") {
            text.append(UInt8(ascii: "."))
            index += 1
            guard try digits(&self, &text) > 0 else {
                throw error("invalid number: digits must follow '.'")
            }
        }
        if let byte = try peek(), byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
            text.append(byte)
            index += 1
            if let sign = try peek(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                text.append(sign)
                index += 1
            }
            guard try digits(&self, &text) > 0 else {
                throw error("invalid number: digits must follow the exponent")
            }
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Reads a string from its opening quote, undoing escapes.
    private mutating func readString() throws(JSONSyntaxError) -> String {
        index += 1  // the opening quote
        var text: [UInt8] = []
        while true {
            let runStart = index
            while index < count {
                let byte = buffer[index]
                guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\""),
                    byte != UInt8(ascii: "\\")
                else { break }
                index += 1
            }
            if text.isEmpty && index < count && buffer[index] == UInt8(ascii: "\"") {
                // The whole string is one run in the buffer: no copy on the way.
                index += 1
                return String(
                    decoding: UnsafeRawBufferPointer(rebasing: buffer[runStart..<index - 1]),
                    as: UTF8.self)
            }
            text.append(contentsOf: buffer[runStart..<index])
            guard let byte = try peek() else { throw error("unterminated string") }
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: text, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try readEscape(into: &text)
            case 0..<0x20:
                throw error("control character in a string; write it as an escape such as \\n")
            case 0x20..<0x80:
                continue
            default:
                try fill(4)
                let length = validUTF8Length()
                guard length > 0 else { throw error("invalid UTF-8 byte sequence") }
                text.append(contentsOf: buffer[index..<index + length])
                index += length
                continuations += length - 1
            }
        }
    }

    private mutating func readEscape(into text: inout [UInt8]) throws(JSONSyntaxError) {
        try fill(2)
        guard count - index >= 2 else {
            index = count
            throw error("unterminated string")
        }
        let byte = buffer[index + 1]
        index += 2
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(byte)
        case UInt8(ascii: "b"): text.append(0x08)
        case UInt8(ascii: "f"): text.append(0x0C)
        case UInt8(ascii: "n"): text.append(0x0A)
        case UInt8(ascii: "r"): text.append(0x0D)
        case UInt8(ascii: "t"): text.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try hex4()
            if (0xD800..<0xDC00).contains(scalar) {
                try fill(2)
                guard count - index >= 2, buffer[index] == UInt8(ascii: "\\"),
                    buffer[index + 1] == UInt8(ascii: "u")
                else { throw error("lone surrogate in \\u escape") }
                index += 2
                let low = try hex4()
                guard (0xDC00..<0xE000).contains(low) else {
                    throw error("lone surrogate in \\u escape")
                }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00..<0xE000).contains(scalar) {
                throw error("lone surrogate in \\u escape")
            }
            text.append(contentsOf: String(Unicode.Scalar(scalar)!).utf8)
        default: throw error("invalid escape sequence", back: 2)
        }
    }

    private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        try fill(4)
        guard count - index >= 4 else { throw error("incomplete \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = buffer[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("invalid hex digit in \\u escape")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    /// The length of a valid UTF-8 sequence at `index`, or 0.
    private func validUTF8Length() -> Int {
        let rest = UnsafeRawBufferPointer(rebasing: buffer[index..<min(count, index + 4)])
        var iterator = rest.makeIterator()
        var decoder = UTF8()
        guard case .scalarValue(let scalar) = decoder.decode(&iterator) else { return 0 }
        return UTF8.width(scalar)
    }
}

extension JSONReader where Source == MemoryByteSource {
    /// Parses a complete JSON document held in memory into a tree.
    static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONNode {
        var reader = JSONReader(source: MemoryByteSource(bytes))
        _ = try reader.peekValue()
        let node = try reader.readValue()
        try reader.expectEnd()
        return node
    }
}
