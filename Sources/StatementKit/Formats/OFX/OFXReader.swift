import Foundation

/// The tags of an OFX document, SGML (leaf values without closing tags) or XML alike. Events
/// name tags by number (see `NameTable`), upper-cased; a leaf's value is the reader's until
/// the next event, made text only when a parser asks for it.
struct OFXReader<Source: ByteSource>: ~Copyable {
    enum Event: Equatable {
        case start(Int)
        /// A tag with a value: `value`, located at `eventLine` and `eventColumn`.
        case leaf(Int)
        case end(Int)
    }

    private var cursor: ByteCursor<Source>
    private(set) var names: NameTable
    private(set) var eventLine = 1
    private(set) var eventColumn = 1
    private var open: [Int] = []
    /// The leaf just read, whose closing tag (XML) may follow.
    private var lastLeaf: Int?
    private var isWindows1252 = false
    private var sawHeader = false
    private var sawRoot = false
    /// A tag's name upper-cased, when it was not.
    private var nameBytes: [UInt8] = []
    /// Where the leaf's value stands in the cursor's buffer, until the next event.
    private var valueRange = 0..<0
    /// Whether the value is ASCII without entities.
    private var valueIsPlain = false
    /// The value when it is not a range of the buffer: CDATA (`<![CDATA[…]]>`), with any text
    /// around it, entities replaced in that text only.
    private var ownValue: [UInt8] = []
    private var valueIsOwned = false

    /// The longest tag, value or header.
    static var maximumTokenLength: Int { 1 << 20 }

    /// A reader numbering `known` (upper-case) names first, in their order.
    init(source: Source, names known: [String] = []) {
        cursor = ByteCursor(source: source)
        names = NameTable(known)
    }

    /// The length in bytes of the leaf just read, as written.
    var valueLength: Int { valueIsOwned ? ownValue.count : valueRange.count }

    /// The value of the leaf just read: its entities replaced, in the header's charset
    /// (Windows-1252 also when it is not valid UTF-8).
    var value: String {
        var text: [UInt8] = []
        appendValue(to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    /// Appends the UTF-8 of the leaf just read to `text`: its entities replaced, in the
    /// header's charset (Windows-1252 also when it is not valid UTF-8).
    func appendValue(to text: inout [UInt8]) {
        if valueIsOwned {
            let isASCII = !ownValue.contains { $0 >= 0x80 }
            text +=
                isASCII || !(isWindows1252 || String(validating: ownValue, as: UTF8.self) == nil)
                ? ownValue : TextEncoding.windows1252.utf8(from: ownValue)
            return
        }
        let raw = UnsafeBufferPointer(rebasing: cursor.buffer[valueRange])
        if valueIsPlain || !raw.contains(where: { $0 >= 0x80 || $0 == UInt8(ascii: "&") }) {
            text.append(contentsOf: raw)
            return
        }
        var bytes = Array(raw)
        if bytes.contains(UInt8(ascii: "&")) { bytes = Self.decodingEntities(bytes) }
        let isASCII = !bytes.contains { $0 >= 0x80 }
        text +=
            isASCII || !(isWindows1252 || String(validating: bytes, as: UTF8.self) == nil)
            ? bytes : TextEncoding.windows1252.utf8(from: bytes)
    }

    mutating func next() throws(XMLSyntaxError) -> Event? {
        if !sawHeader {
            sawHeader = true
            try readHeader()
        }
        while true {
            try skipSpace()
            guard try cursor.ensure(1) else {
                if let number = open.last {
                    throw error("the file ends inside <\(names.name(number))>")
                }
                if !sawRoot { throw error("the file holds no <OFX> element") }
                return nil
            }
            (eventLine, eventColumn) = (cursor.line, cursor.column)
            guard cursor.current == UInt8(ascii: "<") else {
                throw error("text outside any element")
            }
            guard try cursor.ensure(2) else { throw error("the file ends inside a tag") }
            switch simpleTag() {
            case .event(let event): return event
            case .closedLeaf: continue
            case .other: break
            }
            let second = cursor.buffer[cursor.position + 1]
            if second == UInt8(ascii: "?") {
                _ = try cursor.read(upTo: "?>", limit: Self.maximumTokenLength)
                continue
            }
            if second == UInt8(ascii: "!"), try cursor.starts(with: "<!--") {
                _ = try cursor.read(upTo: "-->", limit: Self.maximumTokenLength)
                continue
            }
            if second == UInt8(ascii: "!"), try cursor.starts(with: "<![CDATA[") {
                throw error("CDATA outside a value")
            }
            cursor.consume(1)
            let tag = try cursor.read(through: UInt8(ascii: ">"), limit: Self.maximumTokenLength)
            let (number, isClosing, isEmpty) = try name(tag)
            if !isClosing, !isEmpty, Self.isSelfClosing(tag) {
                // `<MEMO/>`: a tag without a value.
                lastLeaf = nil
                (valueRange, valueIsPlain, valueIsOwned) = (0..<0, true, false)
                return .leaf(number)
            }
            if isClosing {
                guard let event = try closingTag(number) else { continue }
                return event
            }
            guard !isEmpty else { throw error("a tag without a name") }
            return try openingTag(number)
        }
    }

    /// A closing tag read the general way: `nil` when it closes the leaf just read.
    private mutating func closingTag(_ number: Int) throws(XMLSyntaxError) -> Event? {
        if number == lastLeaf {
            lastLeaf = nil
            return nil
        }
        lastLeaf = nil
        guard let index = open.lastIndex(of: number) else {
            throw error("</\(names.name(number))> closes nothing")
        }
        // SGML lets an aggregate close the ones inside it; OFX never needs it.
        guard index == open.count - 1 else {
            throw error("</\(names.name(number))> closes <\(names.name(open.last!))>")
        }
        open.removeLast()
        return .end(number)
    }

    /// An opening tag read the general way: a leaf when a value follows, else an aggregate.
    private mutating func openingTag(_ number: Int) throws(XMLSyntaxError) -> Event {
        lastLeaf = nil
        try skipSpace()
        let valueStart = (cursor.line, cursor.column)
        try readValue()
        if valueRange.isEmpty, try cursor.starts(with: "<![CDATA[") { try readCDATAValue() }
        if !valueRange.isEmpty || valueIsOwned {
            // A value is located where it starts, after its tag and any white space.
            (eventLine, eventColumn) = valueStart
            lastLeaf = number
            return .leaf(number)
        }
        guard open.count < 64 else { throw error("nesting deeper than 64 levels") }
        guard !(open.isEmpty && sawRoot) else {
            throw error("a second root element <\(names.name(number))>")
        }
        sawRoot = true
        open.append(number)
        return .start(number)
    }

    func error(_ message: String) -> XMLSyntaxError {
        XMLSyntaxError(message: message, line: eventLine, column: eventColumn)
    }

    enum SimpleTag {
        case event(Event)
        /// The closing tag of the leaf just read.
        case closedLeaf
        /// Not a simple tag: read it the general way.
        case other
    }

    /// The commonest tags read at once: an upper-case ASCII name without spaces, within the
    /// buffer, closing the last leaf or the open aggregate, or opening one or a leaf whose
    /// value ends within the buffer.
    private mutating func simpleTag() -> SimpleTag {
        let position = cursor.position
        let bytes = cursor.buffer
        let isClosing = bytes[position + 1] == UInt8(ascii: "/")
        let start = position + (isClosing ? 2 : 1)
        if isClosing { return simpleClosingTag(bytes, position: position, start: start) }
        // Documents repeat their sequence of tags: the likely one is compared first.
        var likely: Int?
        let end: Int
        if let guess = names.likelyNext,
            let guessEnd = names.end(of: guess, at: start, in: bytes)
        {
            (likely, end) = (guess, guessEnd)
        } else {
            guard let nameEnd = Self.simpleName(bytes, from: start) else { return .other }
            end = nameEnd
        }
        let name = UnsafeBufferPointer(rebasing: bytes[start..<end])
        let length = end + 1 - position
        // The value: up to the next `<`, all of it within the buffer; CDATA and comments
        // are read the general way.
        let (valueEnd, isPlain, hasLineBreak) = MarkupText.scan(bytes, from: end + 1)
        guard valueEnd + 1 < bytes.count, bytes[valueEnd + 1] != UInt8(ascii: "!") else {
            return .other
        }
        let number: Int
        if let likely {
            names.noteLikelyNext(likely)
            number = likely
        } else {
            guard let found = names.number(of: name) else { return .other }
            number = found
        }
        var (from, to) = (end + 1, valueEnd)
        while from < to && XMLReader<Source>.isSpace(bytes[from]) { from += 1 }
        while to > from && XMLReader<Source>.isSpace(bytes[to - 1]) { to -= 1 }
        if from == to {
            guard open.count < 64, !(open.isEmpty && sawRoot) else { return .other }
            cursor.consume(length, columns: length)
            lastLeaf = nil
            sawRoot = true
            open.append(number)
            return .event(.start(number))
        }
        cursor.consume(length, columns: length)
        // A value is located where it starts, after its tag and any white space.
        if from > end + 1 { cursor.consume(from - end - 1) }
        (eventLine, eventColumn) = (cursor.line, cursor.column)
        consumeSimpleValue(
            bytes, number: number, value: from..<to, valueEnd: valueEnd, isPlain: isPlain,
            hasLineBreak: hasLineBreak)
        return .event(.leaf(number))
    }

    /// A simple closing tag from `start`: of the leaf just read, or of the open aggregate.
    @inline(__always)
    private mutating func simpleClosingTag(
        _ bytes: UnsafeBufferPointer<UInt8>, position: Int, start: Int
    ) -> SimpleTag {
        // It closes the leaf just read, or the open aggregate.
        guard let number = lastLeaf ?? open.last,
            let end = names.end(of: number, at: start, in: bytes)
        else { return .other }
        let length = end + 1 - position
        cursor.consume(length, columns: length)
        if lastLeaf != nil {
            lastLeaf = nil
            return .closedLeaf
        }
        open.removeLast()
        return .event(.end(number))
    }

    /// Consumes a simple leaf's value (`from..<to` of `bytes`, the cursor at its start) and
    /// OFX 2's closing tag right after it; the value becomes the leaf's.
    @inline(__always)
    private mutating func consumeSimpleValue(
        _ bytes: UnsafeBufferPointer<UInt8>, number: Int, value: Range<Int>, valueEnd: Int,
        isPlain: Bool, hasLineBreak: Bool
    ) {
        let (from, to) = (value.lowerBound, value.upperBound)
        // OFX 2's closing tag right after the value is read with it.
        var next = valueEnd
        if valueEnd == to, valueEnd + 1 < bytes.count,
            bytes[valueEnd + 1] == UInt8(ascii: "/"),
            let closeEnd = names.end(of: number, at: valueEnd + 2, in: bytes)
        {
            next = closeEnd + 1
            lastLeaf = nil
        } else {
            lastLeaf = number
        }
        if isPlain && !hasLineBreak {
            cursor.consume(to - from, columns: to - from)
            // The closing tag read with it is ASCII on one line; white space after a
            // value without one may hold a line break.
            if lastLeaf == nil {
                cursor.consume(next - to, columns: next - to)
            } else {
                cursor.consume(next - to)
            }
        } else {
            cursor.consume(next - from)
        }
        (valueRange, valueIsPlain, valueIsOwned) = (from..<to, isPlain, false)
    }

    /// The end of a simple name from `start`: an upper-case ASCII letter, then upper-case
    /// ASCII without spaces or `/` up to a `>` within the buffer; `nil` for any other (so
    /// that `<!--…-->`, `<![CDATA[…]]>`, `<?…?>` and `<MEMO/>` are read the general way).
    private static func simpleName(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard start < bytes.count, bytes[start] &- 65 < 26 else { return nil }
        var end = start
        while end < bytes.count {
            let byte = bytes[end]
            if byte == UInt8(ascii: ">") { return end > start ? end : nil }
            if byte &- 97 < 26 || byte >= 0x80 || byte == UInt8(ascii: "<") || byte <= 0x20
                || byte == UInt8(ascii: "/")
            {
                return nil
            }
            end += 1
        }
        return nil
    }

    /// Whether a tag (without its `<` and `>`) ends with `/`, as `<MEMO/>` or `<MEMO />`.
    private static func isSelfClosing(_ tag: UnsafeBufferPointer<UInt8>) -> Bool {
        var end = tag.endIndex
        while end > tag.startIndex && XMLReader<Source>.isSpace(tag[end - 1]) { end -= 1 }
        return end > tag.startIndex && tag[end - 1] == UInt8(ascii: "/")
    }

    /// A tag's name, upper-cased, numbered; whether it is a closing tag, and whether the
    /// name is empty.
    private mutating func name(_ tag: UnsafeBufferPointer<UInt8>) throws(XMLSyntaxError) -> (
        Int, Bool, Bool
    ) {
        var start = tag.startIndex
        while start < tag.endIndex && XMLReader<Source>.isSpace(tag[start]) { start += 1 }
        let isClosing = start < tag.endIndex && tag[start] == UInt8(ascii: "/")
        if isClosing { start += 1 }
        var end = start
        var isUpperCase = true
        while end < tag.endIndex && !XMLReader<Source>.isSpace(tag[end])
            && tag[end] != UInt8(ascii: "/")
        {
            if tag[end] &- 97 < 26 { isUpperCase = false }
            end += 1
        }
        var number: Int?
        if isUpperCase {
            number = names.number(of: UnsafeBufferPointer(rebasing: tag[start..<end]))
        } else {
            var upper = nameBytes
            upper.removeAll(keepingCapacity: true)
            for byte in tag[start..<end] { upper.append(byte &- 97 < 26 ? byte - 32 : byte) }
            number = upper.withUnsafeBufferPointer { names.number(of: $0) }
            nameBytes = upper
        }
        guard let number else {
            throw error("more than \(NameTable.maximumCount) different tag names")
        }
        return (number, isClosing, start == end)
    }

    private mutating func skipSpace() throws(XMLSyntaxError) {
        if try cursor.ensure(1), !XMLReader<Source>.isSpace(cursor.current) { return }
        while try cursor.ensure(1) {
            var end = cursor.position
            let buffer = cursor.buffer
            while end < buffer.count && XMLReader<Source>.isSpace(buffer[end]) { end += 1 }
            let count = end - cursor.position
            cursor.consume(count)
            if end < buffer.count { return }
        }
    }

    /// The OFX 1 header, `KEY:VALUE` lines before the first `<`; its charset.
    private mutating func readHeader() throws(XMLSyntaxError) {
        let header = try cursor.take(until: UInt8(ascii: "<"), limit: 4096)
        let text = String(decoding: header, as: UTF8.self).uppercased()
        isWindows1252 =
            text.contains("CHARSET:1252") || text.contains("CHARSET:ISO-8859-1")
            || text.contains("CHARSET:8859-1")
    }

    /// Finds a leaf's value, the text up to the next `<` without surrounding white space,
    /// in the cursor's buffer.
    private mutating func readValue() throws(XMLSyntaxError) {
        let slice = try cursor.take(until: UInt8(ascii: "<"), limit: Self.maximumTokenLength)
        // The slice's indices start at 0; in the buffer, it ends where the cursor now is.
        let offset = cursor.position - slice.count
        var (start, end) = (0, slice.count)
        while start < end && XMLReader<Source>.isSpace(slice[start]) { start += 1 }
        while end > start && XMLReader<Source>.isSpace(slice[end - 1]) { end -= 1 }
        (valueRange, valueIsPlain, valueIsOwned) = ((offset + start)..<(offset + end), false, false)
    }

    /// Reads a value given as CDATA, `<![CDATA[…]]>`, with any text after it up to the next
    /// tag (and further CDATA), as one value without surrounding white space.
    private mutating func readCDATAValue() throws(XMLSyntaxError) {
        ownValue.removeAll(keepingCapacity: true)
        while try cursor.starts(with: "<![CDATA[") {
            cursor.consume(9)
            ownValue += try cursor.read(upTo: "]]>", limit: Self.maximumTokenLength)
            let text = try cursor.take(until: UInt8(ascii: "<"), limit: Self.maximumTokenLength)
            ownValue +=
                text.contains(UInt8(ascii: "&")) ? Self.decodingEntities(Array(text)) : Array(text)
            guard ownValue.count <= Self.maximumTokenLength else {
                throw cursor.tooLong(
                    "a value longer than \(Self.maximumTokenLength.groupedText) bytes")
            }
        }
        while let last = ownValue.last, XMLReader<Source>.isSpace(last) { ownValue.removeLast() }
        var leading = 0
        while leading < ownValue.count, XMLReader<Source>.isSpace(ownValue[leading]) {
            leading += 1
        }
        ownValue.removeFirst(leading)
        valueIsOwned = true
    }

    /// The named entities SGML OFX writes (`&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`,
    /// `&nbsp;`) replaced; any other `&` stays as it is.
    static func decodingEntities(_ bytes: [UInt8]) -> [UInt8] {
        let entities: [(name: [UInt8], byte: UInt8)] = [
            ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&apos;", "'"),
            ("&nbsp;", " "),
        ].map { (Array($0.0.utf8), UInt8(ascii: $0.1)) }
        var result: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "&"),
                let entity = entities.first(where: { bytes[index...].starts(with: $0.name) })
            {
                result.append(entity.byte)
                index += entity.name.count
            } else {
                result.append(bytes[index])
                index += 1
            }
        }
        return result
    }
}
