/// Reads the subset of XML that bank statement formats use (camt.05x, OFX 2), streaming over
/// a byte source: elements, attributes, text, the five named entities and character
/// references, CDATA, comments and processing instructions (each wherever XML allows it, and
/// only as what it is: `<!--Generated-->` is a comment, never an element), and a UTF-8 byte
/// order mark before the document. Names lose their namespace prefix. A document type
/// declaration is refused (its entities could expand without bound, or point outside the
/// file), as are nesting deeper than `maximumDepth`, a token longer than `maximumTokenLength`,
/// an element's text longer than `maximumTextLength` (however comments and CDATA split it)
/// and more distinct names than `NameTable.maximumCount`; so memory stays bounded whatever
/// the input.
///
/// Events name elements by number (see `NameTable`); the text before a tag and the attributes
/// of a start tag are the reader's until the next event, asked for only where a parser needs
/// them, so that reading an element a parser ignores allocates nothing. Every byte is still
/// checked: text that is not valid UTF-8 (or the declared encoding) and unknown entities are
/// errors wherever they stand. Each event carries the line and column (in Unicode scalars)
/// where its markup starts.
struct XMLReader<Source: ByteSource>: ~Copyable {
    enum Event: Equatable {
        /// An element starts; it is the last of `open` until its end.
        case start(Int)
        /// An element ends; it is still the last of `open` until the next event.
        case end(Int)
    }

    static var maximumDepth: Int { 64 }
    static var maximumTokenLength: Int { 1 << 20 }
    /// The longest text of one element, its pieces (text, CDATA, around comments) together.
    static var maximumTextLength: Int { 1 << 20 }

    private var cursor: ByteCursor<Source>
    private(set) var names: NameTable
    /// Where the last event's markup started.
    private(set) var eventLine = 1
    private(set) var eventColumn = 1
    /// The numbers of the open elements, outermost first.
    private(set) var open: [Int] = []
    private var closesLast = false
    private var sawRoot = false
    /// Whether the start of the document (and a byte order mark there) was looked at.
    private var sawStart = false
    /// The end event owed after an empty element's start.
    private var pendingEnd: Int?
    /// Whether the XML declaration names ISO-8859-1 or Windows-1252 rather than UTF-8.
    private var isWindows1252 = false
    /// The text between the previous tag and this event's, as UTF-8 with references replaced,
    /// when it is not `textRange`.
    private var textBytes: [UInt8] = []
    /// That text when it is one plain piece (ASCII without references): where it stands in
    /// the source (offsets as `ByteCursor.dropped` counts them). Its bytes stay in the
    /// cursor's buffer (`ByteCursor.kept`) until the next event, copied nowhere.
    private var textRange: Range<Int>?
    /// Where that text starts.
    private(set) var textLine = 1
    private(set) var textColumn = 1
    /// The attributes of the last start tag: names and values (UTF-8, references replaced)
    /// in one buffer.
    private var attributeBytes: [UInt8] = []
    private var attributeRanges: [(name: Range<Int>, value: Range<Int>)] = []

    /// A reader numbering `known` names first, in their order.
    init(source: Source, names known: [String] = []) {
        cursor = ByteCursor(source: source)
        names = NameTable(known)
    }

    /// The text before this event's tag, without surrounding white space.
    var text: String {
        withText { String(decoding: Self.trimmed($0), as: UTF8.self) }
    }

    /// The length in bytes of `text`, made no string of.
    var textLength: Int {
        withText { Self.trimmed($0).count }
    }

    /// Calls `body` with the bytes of the text before this event's tag.
    private func withText<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        guard let range = textRange else { return textBytes.withUnsafeBufferPointer(body) }
        return body(bytes(of: range))
    }

    /// The bytes of a range of the source that are in the buffer.
    private func bytes(of range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
        let start = range.lowerBound - cursor.dropped
        return UnsafeBufferPointer(rebasing: cursor.buffer[start..<(start + range.count)])
    }

    /// Copies a text held as a range of the buffer into `textBytes`, before more text is
    /// added to it.
    private mutating func copyTextRange() {
        guard let range = textRange else { return }
        textBytes.append(contentsOf: bytes(of: range))
        textRange = nil
        cursor.kept = nil
    }

    /// Takes text that is one plain piece up to a `<` within the buffer as `textRange`;
    /// `false`, and nothing consumed, for any other.
    private mutating func plainText() -> Bool {
        let position = cursor.position
        let (end, isPlain, hasLineBreak) = MarkupText.scan(cursor.buffer, from: position)
        let count = end - position
        guard isPlain, end < cursor.buffer.count, count <= Self.maximumTextLength else {
            return false
        }
        let start = cursor.dropped + position
        textRange = start..<(start + count)
        cursor.kept = start
        (textLine, textColumn) = (eventLine, eventColumn)
        if hasLineBreak {
            cursor.consume(count)
        } else {
            cursor.consume(count, columns: count)
        }
        return true
    }

    /// The value of the last start tag's attribute with that (local) name.
    func attribute(_ name: String) -> String? {
        for range in attributeRanges
        where attributeBytes[range.name].elementsEqual(name.utf8) {
            return String(decoding: attributeBytes[range.value], as: UTF8.self)
        }
        return nil
    }

    /// The last start tag's attributes, in their order.
    var attributes: [(name: String, value: String)] {
        attributeRanges.map {
            (
                String(decoding: attributeBytes[$0.name], as: UTF8.self),
                String(decoding: attributeBytes[$0.value], as: UTF8.self)
            )
        }
    }

    /// The next event; `nil` at the end of a well-formed document.
    mutating func next() throws(XMLSyntaxError) -> Event? {
        if !textBytes.isEmpty { textBytes.removeAll(keepingCapacity: true) }
        if textRange != nil {
            textRange = nil
            cursor.kept = nil
        }
        if let number = pendingEnd {
            pendingEnd = nil
            closesLast = true
            return .end(number)
        }
        if closesLast {
            closesLast = false
            open.removeLast()
        }
        if !sawStart {
            sawStart = true
            // A UTF-8 byte order mark may stand before the document, and nowhere else.
            if try cursor.starts(with: "\u{FEFF}") { cursor.consume(3, columns: 0) }
        }
        while true {
            guard try cursor.ensure(1) else {
                if let number = open.last {
                    throw error("the file ends inside <\(names.name(number))>")
                }
                if !sawRoot { throw error("the file holds no XML element") }
                return nil
            }
            (eventLine, eventColumn) = (cursor.line, cursor.column)
            if cursor.current != UInt8(ascii: "<") {
                if !open.isEmpty, textRange == nil, textBytes.isEmpty, plainText() { continue }
                copyTextRange()
                let text = try cursor.take(until: UInt8(ascii: "<"), limit: Self.maximumTokenLength)
                if open.isEmpty {
                    for byte in text where !Self.isSpace(byte) {
                        throw error("text outside the root element")
                    }
                    continue
                }
                if textBytes.isEmpty { (textLine, textColumn) = (eventLine, eventColumn) }
                try Self.append(text, to: &textBytes, references: true, decoding: encoding)
                try checkTextLength()
                continue
            }
            guard try cursor.ensure(2) else { throw error("the file ends inside a tag") }
            if let event = simpleTag() { return event }
            switch cursor.buffer[cursor.position + 1] {
            case UInt8(ascii: "?"):
                let instruction = try cursor.read(upTo: "?>", limit: Self.maximumTokenLength)
                if !sawRoot { declaration(instruction) }
            case UInt8(ascii: "!"):
                try markupDeclaration()
            case UInt8(ascii: "/"):
                return try endTag()
            default:
                cursor.consume(1)
                let (number, isEmpty) = try startTag()
                guard !(open.isEmpty && sawRoot) else {
                    throw error("a second root element <\(names.name(number))>")
                }
                guard open.count < Self.maximumDepth else {
                    throw error("nesting deeper than \(Self.maximumDepth) levels")
                }
                sawRoot = true
                open.append(number)
                if isEmpty { pendingEnd = number }
                return .start(number)
            }
        }
    }

    /// Reads a comment or a CDATA section after `<!`; refuses a document type declaration.
    private mutating func markupDeclaration() throws(XMLSyntaxError) {
        if try cursor.starts(with: "<!--") {
            _ = try cursor.read(upTo: "-->", limit: Self.maximumTokenLength)
        } else if try cursor.starts(with: "<![CDATA[") {
            guard !open.isEmpty else { throw error("CDATA outside the root element") }
            cursor.consume(9)
            copyTextRange()
            if textBytes.isEmpty { (textLine, textColumn) = (eventLine, eventColumn) }
            let content = try cursor.read(upTo: "]]>", limit: Self.maximumTokenLength)
            try Self.append(content, to: &textBytes, references: false, decoding: encoding)
            try checkTextLength()
        } else {
            throw error(
                "a document type declaration is not allowed (its entities could expand without bound)"
            )
        }
    }

    /// Reads an end tag, which must close the element open last.
    private mutating func endTag() throws(XMLSyntaxError) -> Event {
        cursor.consume(2)
        let tag = try cursor.read(
            through: UInt8(ascii: ">"), limit: Self.maximumTokenLength)
        guard let expected = open.last else {
            throw error("</\(Self.closingName(tag))> closes nothing")
        }
        guard names.isName(expected, Self.localName(Self.trimmed(tag))) else {
            throw error("</\(Self.closingName(tag))> closes <\(names.name(expected))>")
        }
        closesLast = true
        return .end(expected)
    }

    /// The commonest tags read at once: `</name>` closing the open element, and `<name>` or
    /// `<name/>`, with attributes written the simple way or none (see `simpleAttributes`), all
    /// ASCII on one line and within the buffer; `nil` for any other.
    private mutating func simpleTag() -> Event? {
        let position = cursor.position
        let bytes = cursor.buffer
        if bytes[position + 1] == UInt8(ascii: "/") {
            guard let expected = open.last,
                let end = names.end(of: expected, at: position + 2, in: bytes)
            else { return nil }
            cursor.consume(end + 1 - position, columns: end + 1 - position)
            closesLast = true
            return .end(expected)
        }
        guard !(open.isEmpty && sawRoot), open.count < Self.maximumDepth else { return nil }
        // Documents repeat their sequence of elements: the likely one is compared first.
        if let guess = names.likelyNext,
            let end = names.end(of: guess, at: position + 1, in: bytes)
        {
            names.noteLikelyNext(guess)
            if !attributeRanges.isEmpty { clearAttributes() }
            return started(guess, length: end + 1 - position, isEmpty: false)
        }
        // `<!--`, `<![CDATA[` and `<?` (and anything else that does not start a name) are
        // read the general way, as what they are.
        let first = bytes[position + 1]
        guard (first | 0x20) &- UInt8(ascii: "a") < 26 || first == UInt8(ascii: "_") else {
            return nil
        }
        var end = position + 1
        var colon = position
        while end < bytes.count {
            let byte = bytes[end]
            if byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/") || byte == 0x20 { break }
            if byte >= 0x80 || byte == UInt8(ascii: "<") || Self.isSpace(byte) { return nil }
            if byte == UInt8(ascii: ":") { colon = end }
            end += 1
        }
        guard end > colon + 1, end < bytes.count else { return nil }
        let name = UnsafeBufferPointer(rebasing: bytes[(colon + 1)..<end])
        if bytes[end] == 0x20 {
            guard let tagEnd = simpleAttributes(bytes, from: end) else { return nil }
            end = tagEnd
        } else if !attributeRanges.isEmpty {
            clearAttributes()
        }
        let isEmpty = bytes[end] == UInt8(ascii: "/")
        guard !isEmpty || (end + 1 < bytes.count && bytes[end + 1] == UInt8(ascii: ">")),
            let number = names.number(of: name)
        else { return nil }
        return started(number, length: end + (isEmpty ? 2 : 1) - position, isEmpty: isEmpty)
    }

    /// Consumes a simple start tag of `length` bytes and opens its element.
    @inline(__always)
    private mutating func started(_ number: Int, length: Int, isEmpty: Bool) -> Event {
        cursor.consume(length, columns: length)
        sawRoot = true
        open.append(number)
        if isEmpty { pendingEnd = number }
        return .start(number)
    }

    private mutating func clearAttributes() {
        attributeBytes.removeAll(keepingCapacity: true)
        attributeRanges.removeAll(keepingCapacity: true)
    }

    /// Reads the attributes of a start tag from `start` (a space after its name) within
    /// `bytes`, when they are written the simple way: each ` name="value"` (or in single
    /// quotes), a name of ASCII letters, digits, `-`, `_` and `.` without a prefix, a value of
    /// printable ASCII without a reference. The index of the `>` or `/` that follows them;
    /// `nil` for any other (read the general way).
    private mutating func simpleAttributes(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int)
        -> Int?
    {
        clearAttributes()
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/") { return index }
            guard byte == 0x20 else { return nil }
            let nameStart = index + 1
            index = nameStart
            while index < bytes.count, Self.isSimpleNameByte(bytes[index]) { index += 1 }
            guard index > nameStart, index + 1 < bytes.count, bytes[index] == UInt8(ascii: "=")
            else { return nil }
            let nameEnd = index
            let quote = bytes[index + 1]
            guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { return nil }
            let valueStart = index + 2
            index = valueStart
            while index < bytes.count, bytes[index] != quote {
                let byte = bytes[index]
                guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "&"),
                    byte != UInt8(ascii: "<")
                else { return nil }
                index += 1
            }
            guard index < bytes.count else { return nil }
            let from = attributeBytes.count
            attributeBytes.append(
                contentsOf: UnsafeBufferPointer(rebasing: bytes[nameStart..<nameEnd]))
            let valueFrom = attributeBytes.count
            attributeBytes.append(
                contentsOf: UnsafeBufferPointer(rebasing: bytes[valueStart..<index]))
            attributeRanges.append((from..<valueFrom, valueFrom..<attributeBytes.count))
            index += 1
        }
        return nil
    }

    /// An ASCII letter or digit, `-`, `_` or `.`.
    private static func isSimpleNameByte(_ byte: UInt8) -> Bool {
        (byte | 0x20) &- UInt8(ascii: "a") < 26 || byte &- UInt8(ascii: "0") < 10
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
    }

    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// Bytes without surrounding ASCII white space.
    static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var (start, end) = (0, bytes.count)
        while start < end && isSpace(bytes[start]) { start += 1 }
        while end > start && isSpace(bytes[end - 1]) { end -= 1 }
        return UnsafeBufferPointer(rebasing: bytes[start..<end])
    }

    /// The bytes of a name after its namespace prefix: `camt:Ntry` is `Ntry`.
    static func localName(_ name: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        guard let colon = name.lastIndex(of: UInt8(ascii: ":")) else { return name }
        return UnsafeBufferPointer(rebasing: name[(colon + 1)...])
    }

    private static func closingName(_ tag: UnsafeBufferPointer<UInt8>) -> String {
        String(decoding: localName(trimmed(tag)), as: UTF8.self)
    }

    func error(_ message: String) -> XMLSyntaxError {
        XMLSyntaxError(message: message, line: eventLine, column: eventColumn)
    }

    /// Refuses an element's text once its pieces together pass `maximumTextLength`.
    private func checkTextLength() throws(XMLSyntaxError) {
        guard textBytes.count > Self.maximumTextLength else { return }
        let element = open.last.map { "<\(names.name($0))>" } ?? "an element"
        throw XMLSyntaxError(
            message:
                "the text of \(element) is longer than \(Self.maximumTextLength.groupedText) bytes",
            line: textLine, column: textColumn, isTooLong: true)
    }

    /// Reads a start tag after its `<` up to its `>` (consumed; it may stand inside quoted
    /// values): its name's number and attributes, and whether it is empty (`<a/>`).
    private mutating func startTag() throws(XMLSyntaxError) -> (Int, Bool) {
        var end = try cursor.find(UInt8(ascii: ">"), limit: Self.maximumTokenLength)
        // A `>` inside a quoted value does not end the tag.
        while let found = end, !quotesClosed(cursor.position..<found) {
            end = try cursor.find(
                UInt8(ascii: ">"), limit: Self.maximumTokenLength, from: found + 1)
        }
        guard let end else { throw error("the file ends inside a tag") }
        var tag = UnsafeBufferPointer(rebasing: cursor.buffer[cursor.position..<end])
        let isEmpty = tag.last == UInt8(ascii: "/")
        if isEmpty { tag = UnsafeBufferPointer(rebasing: tag.dropLast()) }
        if tag.contains(UInt8(ascii: "<")) { throw error("\"<\" inside a tag") }
        let number = try parseTag(tag)
        cursor.consume(end - cursor.position + 1)
        return (number, isEmpty)
    }

    private func quotesClosed(_ range: Range<Int>) -> Bool {
        var quote: UInt8?
        for byte in cursor.buffer[range] {
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            }
        }
        return quote == nil
    }

    private mutating func parseTag(_ tag: UnsafeBufferPointer<UInt8>) throws(XMLSyntaxError) -> Int
    {
        var index = 0
        while index < tag.count && !Self.isSpace(tag[index]) { index += 1 }
        let rawName = Self.localName(UnsafeBufferPointer(rebasing: tag[..<index]))
        guard let first = rawName.first else { throw error("a tag without a name") }
        // A name starts with a letter, `_` or a character beyond ASCII; never a digit or `-`.
        guard
            (first | 0x20) &- UInt8(ascii: "a") < 26 || first == UInt8(ascii: "_") || first >= 0x80
        else {
            throw error("<\(String(decoding: tag.prefix(index), as: UTF8.self)) is not a tag name")
        }
        guard let number = names.number(of: rawName) else {
            throw error("more than \(NameTable.maximumCount) different element names")
        }
        if !attributeRanges.isEmpty { clearAttributes() }
        while true {
            while index < tag.count && Self.isSpace(tag[index]) { index += 1 }
            guard index < tag.count else { break }
            let nameStart = index
            while index < tag.count && tag[index] != UInt8(ascii: "=") && !Self.isSpace(tag[index])
            {
                index += 1
            }
            let attributeName = UnsafeBufferPointer(rebasing: tag[nameStart..<index])
            // Namespace declarations keep their name; other attributes lose the prefix.
            let kept =
                attributeName.starts(with: "xmlns".utf8)
                ? attributeName : Self.localName(attributeName)
            let nameRange = attributeBytes.count..<(attributeBytes.count + kept.count)
            attributeBytes.append(contentsOf: kept)
            func problem(_ what: String) -> XMLSyntaxError {
                error("attribute \(String(decoding: kept, as: UTF8.self)) \(what)")
            }
            while index < tag.count && Self.isSpace(tag[index]) { index += 1 }
            guard index < tag.count, tag[index] == UInt8(ascii: "=") else {
                throw problem("of <\(names.name(number))> has no value")
            }
            index += 1
            while index < tag.count && Self.isSpace(tag[index]) { index += 1 }
            guard index < tag.count,
                tag[index] == UInt8(ascii: "\"") || tag[index] == UInt8(ascii: "'")
            else { throw problem("of <\(names.name(number))> is not quoted") }
            let quote = tag[index]
            index += 1
            let valueStart = index
            while index < tag.count && tag[index] != quote { index += 1 }
            guard index < tag.count else { throw problem("is never closed") }
            let valueFrom = attributeBytes.count
            try Self.append(
                UnsafeBufferPointer(rebasing: tag[valueStart..<index]), to: &attributeBytes,
                references: true, decoding: encoding)
            attributeRanges.append((nameRange, valueFrom..<attributeBytes.count))
            index += 1
        }
        return number
    }

    /// Takes the encoding from the XML declaration, `<?xml … encoding="ISO-8859-1"?>`.
    private mutating func declaration(_ bytes: UnsafeBufferPointer<UInt8>) {
        let text = String(decoding: bytes, as: UTF8.self).lowercased()
        guard text.hasPrefix("<?xml"), let range = text.range(of: "encoding=") else { return }
        let value = text[range.upperBound...].dropFirst().prefix { $0 != "\"" && $0 != "'" }
        isWindows1252 = ["iso-8859-1", "latin1", "windows-1252", "cp1252", "iso-8859-15"]
            .contains(String(value))
    }

    /// How text is decoded, and where an error in it is reported.
    struct Encoding {
        let isWindows1252: Bool
        let line: Int
        let column: Int

        func error(_ message: String) -> XMLSyntaxError {
            XMLSyntaxError(message: message, line: line, column: column)
        }
    }

    private var encoding: Encoding {
        Encoding(isWindows1252: isWindows1252, line: eventLine, column: eventColumn)
    }

    /// Appends text in the document's encoding to `output` as UTF-8, with its entity and
    /// character references replaced (unless it is CDATA): invalid UTF-8 is refused, never
    /// replaced, unless the declaration names ISO-8859-1 or Windows-1252.
    private static func append(
        _ raw: UnsafeBufferPointer<UInt8>, to output: inout [UInt8], references: Bool,
        decoding encoding: Encoding
    ) throws(XMLSyntaxError) {
        var isPlain = true
        for byte in raw where byte >= 0x80 || byte == UInt8(ascii: "&") {
            isPlain = false
            break
        }
        if isPlain {
            output.append(contentsOf: raw)
            return
        }
        let hasReferences = references && raw.contains(UInt8(ascii: "&"))
        let utf8: [UInt8]
        if encoding.isWindows1252 {
            utf8 = TextEncoding.windows1252.utf8(from: Array(raw))
        } else {
            // UTF-8 (a name with an accent) is checked where it stands, not copied first.
            guard TextEncoding.firstInvalidUTF8(raw) == nil else {
                throw encoding.error(
                    "text that is not valid UTF-8, and the XML declaration names no other encoding")
            }
            guard hasReferences else {
                output.append(contentsOf: raw)
                return
            }
            utf8 = Array(raw)
        }
        guard hasReferences else {
            output += utf8
            return
        }
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            guard byte == UInt8(ascii: "&") else {
                output.append(byte)
                index += 1
                continue
            }
            guard let end = utf8[index...].firstIndex(of: UInt8(ascii: ";")), end - index <= 10
            else { throw encoding.error("\"&\" starts no entity reference") }
            let name = String(decoding: utf8[(index + 1)..<end], as: UTF8.self)
            switch name {
            case "amp": output.append(UInt8(ascii: "&"))
            case "lt": output.append(UInt8(ascii: "<"))
            case "gt": output.append(UInt8(ascii: ">"))
            case "quot": output.append(UInt8(ascii: "\""))
            case "apos": output.append(UInt8(ascii: "'"))
            default:
                let number: UInt32? =
                    name.hasPrefix("#x")
                    ? UInt32(name.dropFirst(2), radix: 16)
                    : name.hasPrefix("#") ? UInt32(name.dropFirst()) : nil
                guard let number, let scalar = Unicode.Scalar(number) else {
                    throw encoding.error("unknown entity &\(name);")
                }
                output += Array(String(Character(scalar)).utf8)
            }
            index = end + 1
        }
    }
}

/// Why an XML document cannot be read, and where.
struct XMLSyntaxError: Error, Hashable, Sendable {
    let message: String
    let line: Int
    let column: Int
    /// Whether the document is refused for an element's text over the readers' limit
    /// (`TEXT_TOO_LONG`) rather than for its syntax.
    var isTooLong = false
}
