/// Reads the subset of XML that bank statement formats use (camt.05x, OFX 2), streaming over
/// a byte source: elements, attributes, text, the five named entities and character
/// references, CDATA, comments and processing instructions. Names lose their namespace
/// prefix. A document type declaration is refused (its entities could expand without bound,
/// or point outside the file), as are nesting deeper than `maximumDepth` and a token longer
/// than `maximumTokenLength`; so memory stays bounded whatever the input.
///
/// Each event carries the line and column (in bytes) where its markup starts.
struct XMLReader<Source: ByteSource> {
    enum Event: Equatable {
        case start(name: String, attributes: [Attribute], isEmpty: Bool)
        case end(name: String)
        case text(String)
    }

    struct Attribute: Equatable {
        let name: String
        let value: String
    }

    static var maximumDepth: Int { 64 }
    static var maximumTokenLength: Int { 1 << 20 }

    private var cursor: ByteCursor<Source>
    /// Where the last event started.
    private(set) var eventLine = 1
    private(set) var eventColumn = 1
    private var open: [String] = []
    private var sawRoot = false
    /// An end event owed after an empty element's start.
    private var pendingEnd: String?
    /// Whether the XML declaration names ISO-8859-1 or Windows-1252 rather than UTF-8.
    private var isWindows1252 = false

    init(source: Source) {
        cursor = ByteCursor(source: source)
    }

    /// The next event; `nil` at the end of a well-formed document.
    mutating func next() throws(XMLSyntaxError) -> Event? {
        if let name = pendingEnd {
            pendingEnd = nil
            open.removeLast()
            return .end(name: name)
        }
        while true {
            guard try cursor.ensure(1) else {
                if let name = open.last { throw error("the file ends inside <\(name)>") }
                if !sawRoot { throw error("the file holds no XML element") }
                return nil
            }
            (eventLine, eventColumn) = (cursor.line, cursor.column)
            if cursor.current != UInt8(ascii: "<") {
                let text = try cursor.take(limit: Self.maximumTokenLength) {
                    $0 != UInt8(ascii: "<")
                }
                if open.isEmpty {
                    guard text.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D })
                    else { throw error("text outside the root element") }
                    continue
                }
                return .text(try decode(text))
            }
            guard try cursor.ensure(2) else { throw error("the file ends inside a tag") }
            switch cursor.buffer[cursor.position + 1] {
            case UInt8(ascii: "?"):
                let instruction = try cursor.read(upTo: "?>", limit: Self.maximumTokenLength)
                if !sawRoot { declaration(instruction) }
            case UInt8(ascii: "!"):
                if try cursor.starts(with: "<!--") {
                    _ = try cursor.read(upTo: "-->", limit: Self.maximumTokenLength)
                } else if try cursor.starts(with: "<![CDATA[") {
                    guard !open.isEmpty else { throw error("CDATA outside the root element") }
                    cursor.consume(9)
                    let content = try cursor.read(upTo: "]]>", limit: Self.maximumTokenLength)
                    return .text(try text(content))
                } else {
                    throw error(
                        "a document type declaration is not allowed (its entities could expand without bound)"
                    )
                }
            case UInt8(ascii: "/"):
                cursor.consume(2)
                let tag = try cursor.read(upTo: ">", limit: Self.maximumTokenLength)
                let name = Self.trimmed(Self.localName(tag))
                guard let expected = open.last else { throw error("</\(name)> closes nothing") }
                guard name == expected else {
                    throw error("</\(name)> closes <\(expected)>")
                }
                open.removeLast()
                return .end(name: name)
            default:
                cursor.consume(1)
                let tag = try readTag()
                var isEmpty = false
                var body = tag
                if body.last == UInt8(ascii: "/") {
                    isEmpty = true
                    body = body.dropLast()
                }
                let (name, attributes) = try parseTag(body)
                guard !(open.isEmpty && sawRoot) else {
                    throw error("a second root element <\(name)>")
                }
                guard open.count < Self.maximumDepth else {
                    throw error("nesting deeper than \(Self.maximumDepth) levels")
                }
                sawRoot = true
                open.append(name)
                if isEmpty { pendingEnd = name }
                return .start(name: name, attributes: attributes, isEmpty: isEmpty)
            }
        }
    }

    /// Bytes without surrounding ASCII white space, as text.
    static func trimmed(_ bytes: ArraySlice<UInt8>) -> String {
        let isSpace = { (byte: UInt8) in
            byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
        }
        var slice = bytes
        while let first = slice.first, isSpace(first) { slice = slice.dropFirst() }
        while let last = slice.last, isSpace(last) { slice = slice.dropLast() }
        return String(decoding: slice, as: UTF8.self)
    }

    /// A name without its namespace prefix: `camt:Ntry` is `Ntry`.
    static func localName(_ name: String) -> String {
        String(decoding: localName(Array(name.utf8)[...]), as: UTF8.self)
    }

    /// The bytes of a name after its namespace prefix.
    static func localName(_ name: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        guard let colon = name.lastIndex(of: UInt8(ascii: ":")) else { return name }
        return name[(colon + 1)...]
    }

    func error(_ message: String) -> XMLSyntaxError {
        XMLSyntaxError(message: message, line: eventLine, column: eventColumn)
    }

    /// A start tag's bytes after `<` up to its `>` (consumed), which may stand inside
    /// quoted values.
    private mutating func readTag() throws(XMLSyntaxError) -> ArraySlice<UInt8> {
        var quote: UInt8?
        let lessThan = error("\"<\" inside a tag")
        let tag = try cursor.take(limit: Self.maximumTokenLength) {
            (byte) throws(XMLSyntaxError) -> Bool in
            if let open = quote {
                if byte == open { quote = nil }
                return true
            }
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") { quote = byte }
            if byte == UInt8(ascii: "<") { throw lessThan }
            return byte != UInt8(ascii: ">")
        }
        guard try cursor.ensure(1) else { throw error("the file ends inside a tag") }
        cursor.consume(1)
        return tag
    }

    private func parseTag(_ tag: ArraySlice<UInt8>) throws(XMLSyntaxError) -> (String, [Attribute])
    {
        let isSpace = { (byte: UInt8) in
            byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
        }
        var index = tag.startIndex
        while index < tag.endIndex && !isSpace(tag[index]) { index += 1 }
        let name = String(decoding: Self.localName(tag[tag.startIndex..<index]), as: UTF8.self)
        guard !name.isEmpty else { throw error("a tag without a name") }
        var attributes: [Attribute] = []
        while true {
            while index < tag.endIndex && isSpace(tag[index]) { index += 1 }
            guard index < tag.endIndex else { break }
            let nameStart = index
            while index < tag.endIndex && tag[index] != UInt8(ascii: "=") && !isSpace(tag[index]) {
                index += 1
            }
            let rawName = tag[nameStart..<index]
            // Namespace declarations keep their name; other attributes lose the prefix.
            let attribute = String(
                decoding: rawName.starts(with: "xmlns".utf8) ? rawName : Self.localName(rawName),
                as: UTF8.self)
            while index < tag.endIndex && isSpace(tag[index]) { index += 1 }
            guard index < tag.endIndex, tag[index] == UInt8(ascii: "=") else {
                throw error("attribute \(attribute) of <\(name)> has no value")
            }
            index += 1
            while index < tag.endIndex && isSpace(tag[index]) { index += 1 }
            guard index < tag.endIndex,
                tag[index] == UInt8(ascii: "\"") || tag[index] == UInt8(ascii: "'")
            else { throw error("attribute \(attribute) of <\(name)> is not quoted") }
            let quote = tag[index]
            index += 1
            let valueStart = index
            while index < tag.endIndex && tag[index] != quote { index += 1 }
            guard index < tag.endIndex else {
                throw error("attribute \(attribute) is never closed")
            }
            attributes.append(
                Attribute(name: attribute, value: try decode(tag[valueStart..<index])))
            index += 1
        }
        return (name, attributes)
    }

    /// Takes the encoding from the XML declaration, `<?xml … encoding="ISO-8859-1"?>`.
    private mutating func declaration(_ bytes: ArraySlice<UInt8>) {
        let text = String(decoding: bytes, as: UTF8.self).lowercased()
        guard text.hasPrefix("<?xml"), let range = text.range(of: "encoding=") else { return }
        let value = text[range.upperBound...].dropFirst().prefix { $0 != "\"" && $0 != "'" }
        isWindows1252 = ["iso-8859-1", "latin1", "windows-1252", "cp1252", "iso-8859-15"]
            .contains(String(value))
    }

    /// Text in the document's encoding as a string: UTF-8 (invalid bytes are refused, never
    /// replaced), or ISO-8859-1/Windows-1252 when the declaration says so.
    private func text(_ raw: ArraySlice<UInt8>) throws(XMLSyntaxError) -> String {
        guard raw.contains(where: { $0 >= 0x80 }) else {
            return String(decoding: raw, as: UTF8.self)
        }
        let bytes = isWindows1252 ? TextEncoding.windows1252.utf8(from: Array(raw))[...] : raw
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw error(
                "text that is not valid UTF-8, and the XML declaration names no other encoding")
        }
        return text
    }

    /// Text with its entity and character references replaced.
    private func decode(_ raw: ArraySlice<UInt8>) throws(XMLSyntaxError) -> String {
        guard raw.contains(UInt8(ascii: "&")) else { return try text(raw) }
        // References are ASCII: replaced in the text made UTF-8 first.
        let bytes = Array(try text(raw).utf8)[...]
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "&") else {
                result.append(byte)
                index += 1
                continue
            }
            guard let end = bytes[index...].firstIndex(of: UInt8(ascii: ";")), end - index <= 10
            else { throw error("\"&\" starts no entity reference") }
            let name = String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
            switch name {
            case "amp": result.append(UInt8(ascii: "&"))
            case "lt": result.append(UInt8(ascii: "<"))
            case "gt": result.append(UInt8(ascii: ">"))
            case "quot": result.append(UInt8(ascii: "\""))
            case "apos": result.append(UInt8(ascii: "'"))
            default:
                let number: UInt32? =
                    name.hasPrefix("#x")
                    ? UInt32(name.dropFirst(2), radix: 16)
                    : name.hasPrefix("#") ? UInt32(name.dropFirst()) : nil
                guard let number, let scalar = Unicode.Scalar(number) else {
                    throw error("unknown entity &\(name);")
                }
                result += Array(String(Character(scalar)).utf8)
            }
            index = end + 1
        }
        return String(decoding: result, as: UTF8.self)
    }
}

/// Why an XML document cannot be read, and where.
struct XMLSyntaxError: Error, Hashable, Sendable {
    let message: String
    let line: Int
    let column: Int
}
