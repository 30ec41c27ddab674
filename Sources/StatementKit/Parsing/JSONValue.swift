/// A parsed JSON value that remembers where it stood and keeps numbers as their text.
///
/// Numbers are never converted to `Double`: an amount such as `92233720368547758.07` keeps
/// every digit and is read exactly by `Money(parsing:)`.
indirect enum JSONValue: Hashable, Sendable {
    case object([JSONMember])
    case array([JSONNode])
    case string(String)
    /// The number's text exactly as written, such as `-12.34` or `1e400`.
    case number(String)
    case bool(Bool)
    case null

    /// The kind of value, as a message names it.
    var kindName: String {
        switch self {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool: "a boolean"
        case .null: "null"
        }
    }
}

/// A JSON value and the byte offset where it starts.
struct JSONNode: Hashable, Sendable {
    let value: JSONValue
    let offset: Int
}

/// One key and value of a JSON object.
struct JSONMember: Hashable, Sendable {
    let key: String
    let keyOffset: Int
    let node: JSONNode
}

/// Why a JSON text could not be parsed.
struct JSONSyntaxError: Error, Hashable, Sendable {
    let offset: Int
    let message: String
    let isTooDeep: Bool
}

/// A strict RFC 8259 parser over UTF-8 bytes with a nesting limit.
///
/// Rejects trailing commas, comments, single quotes, control characters in strings, invalid
/// UTF-8 and lone surrogate escapes. A UTF-8 byte order mark at the start is skipped.
struct JSONParser {
    /// How deeply arrays and objects may nest; a statement file needs four levels.
    static let maximumDepth = 64

    private let bytes: UnsafeRawBufferPointer
    private var position = 0
    private var depth = 0

    private init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
    }

    /// Parses a complete JSON document.
    static func parse(_ bytes: UnsafeRawBufferPointer) throws(JSONSyntaxError) -> JSONNode {
        var parser = JSONParser(bytes: bytes)
        parser.skipWhitespace()
        let node = try parser.parseValue()
        parser.skipWhitespace()
        guard parser.position == bytes.count else {
            throw parser.error("unexpected text after the JSON value")
        }
        return node
    }

    private func error(_ message: String, at offset: Int? = nil) -> JSONSyntaxError {
        JSONSyntaxError(
            offset: min(offset ?? position, bytes.count), message: message, isTooDeep: false)
    }

    private var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    private mutating func skipWhitespace() {
        while let byte = current,
            byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
                || byte == UInt8(ascii: "\t")
        {
            position += 1
        }
    }

    private mutating func parseValue() throws(JSONSyntaxError) -> JSONNode {
        let start = position
        guard let byte = current else {
            throw error("unexpected end of file, a value was expected")
        }
        switch byte {
        case UInt8(ascii: "{"): return JSONNode(value: try parseObject(), offset: start)
        case UInt8(ascii: "["): return JSONNode(value: try parseArray(), offset: start)
        case UInt8(ascii: "\""): return JSONNode(value: .string(try parseString()), offset: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return JSONNode(value: .number(try parseNumber()), offset: start)
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return JSONNode(value: .bool(true), offset: start)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return JSONNode(value: .bool(false), offset: start)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return JSONNode(value: .null, offset: start)
        default: throw error("unexpected character, a value was expected")
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONSyntaxError) {
        let count = literal.utf8CodeUnitCount
        let matches =
            position + count <= bytes.count
            && literal.withUTF8Buffer {
                UnsafeRawBufferPointer($0).elementsEqual(bytes[position..<position + count])
            }
        guard matches else { throw error("invalid literal, expected \(literal)") }
        position += count
    }

    private mutating func enterContainer() throws(JSONSyntaxError) {
        depth += 1
        guard depth <= JSONParser.maximumDepth else {
            throw JSONSyntaxError(
                offset: position, message: "nesting deeper than \(JSONParser.maximumDepth) levels",
                isTooDeep: true)
        }
        position += 1
        skipWhitespace()
    }

    private mutating func parseObject() throws(JSONSyntaxError) -> JSONValue {
        try enterContainer()
        defer { depth -= 1 }
        var members: [JSONMember] = []
        if current == UInt8(ascii: "}") {
            position += 1
            return .object(members)
        }
        while true {
            guard current == UInt8(ascii: "\"") else { throw error("expected a string key") }
            let keyOffset = position
            let key = try parseString()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw error("expected ':' after the key") }
            position += 1
            skipWhitespace()
            members.append(JSONMember(key: key, keyOffset: keyOffset, node: try parseValue()))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","):
                position += 1
                skipWhitespace()
            case UInt8(ascii: "}"):
                position += 1
                return .object(members)
            default: throw error("expected ',' or '}' in the object")
            }
        }
    }

    private mutating func parseArray() throws(JSONSyntaxError) -> JSONValue {
        try enterContainer()
        defer { depth -= 1 }
        var elements: [JSONNode] = []
        if current == UInt8(ascii: "]") {
            position += 1
            return .array(elements)
        }
        while true {
            elements.append(try parseValue())
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","):
                position += 1
                skipWhitespace()
            case UInt8(ascii: "]"):
                position += 1
                return .array(elements)
            default: throw error("expected ',' or ']' in the array")
            }
        }
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> String {
        let start = position
        func digits(_ parser: inout JSONParser) -> Int {
            var count = 0
            while let byte = parser.current, byte &- UInt8(ascii: "0") < 10 {
                parser.position += 1
                count += 1
            }
            return count
        }
        if current == UInt8(ascii: "-") { position += 1 }
        let integerStart = position
        guard digits(&self) > 0 else { throw error("invalid number") }
        if bytes[integerStart] == UInt8(ascii: "0") && position - integerStart > 1 {
            throw error("invalid number: leading zero", at: start)
        }
        if current == UInt8(ascii: ".") {
            position += 1
            guard digits(&self) > 0 else { throw error("invalid number: digits must follow '.'") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            position += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
            guard digits(&self) > 0 else {
                throw error("invalid number: digits must follow the exponent")
            }
        }
        return String(
            decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        position += 1  // the opening quote
        var text: [UInt8] = []
        while true {
            let runStart = position
            while let byte = current, byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\""),
                byte != UInt8(ascii: "\\")
            {
                position += 1
            }
            text.append(contentsOf: bytes[runStart..<position])
            guard let byte = current else { throw error("unterminated string") }
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                return String(decoding: text, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try parseEscape(into: &text)
            case 0..<0x20:
                throw error("control character in a string; write it as an escape such as \\n")
            default:
                let length = validUTF8Length(at: position)
                guard length > 0 else { throw error("invalid UTF-8 byte sequence") }
                text.append(contentsOf: bytes[position..<position + length])
                position += length
            }
        }
    }

    private mutating func parseEscape(into text: inout [UInt8]) throws(JSONSyntaxError) {
        position += 1
        guard let byte = current else { throw error("unterminated string") }
        position += 1
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
                guard current == UInt8(ascii: "\\"), position + 1 < bytes.count,
                    bytes[position + 1] == UInt8(ascii: "u")
                else { throw error("lone surrogate in \\u escape") }
                position += 2
                let low = try hex4()
                guard (0xDC00..<0xE000).contains(low) else {
                    throw error("lone surrogate in \\u escape")
                }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00..<0xE000).contains(scalar) {
                throw error("lone surrogate in \\u escape")
            }
            text.append(contentsOf: String(Unicode.Scalar(scalar)!).utf8)
        default: throw error("invalid escape sequence", at: position - 2)
        }
    }

    private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        guard position + 4 <= bytes.count else { throw error("incomplete \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("invalid hex digit in \\u escape")
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    /// The length of a valid UTF-8 sequence at `offset`, or 0.
    private func validUTF8Length(at offset: Int) -> Int {
        let rest = UnsafeRawBufferPointer(rebasing: bytes[offset..<min(bytes.count, offset + 4)])
        var iterator = rest.makeIterator()
        var decoder = UTF8()
        guard case .scalarValue(let scalar) = decoder.decode(&iterator) else { return 0 }
        return UTF8.width(scalar)
    }
}
