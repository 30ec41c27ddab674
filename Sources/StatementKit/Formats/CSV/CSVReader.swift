/// A problem inside one CSV record that does not stop the reader.
struct CSVIssue: Hashable, Sendable {
    enum Kind: Hashable, Sendable {
        case strayQuote, invalidUTF8, nul
    }

    let kind: Kind
    /// The byte offset of the problem in the reader's buffer.
    let offset: Int
}

/// A problem that ends reading a CSV file.
enum CSVReadError: Error, Hashable, Sendable {
    /// The file ends inside a quoted field that opened at `line`, `column`.
    case unterminatedQuote(line: Int, column: Int)
    /// One record is longer than `CSVReader.maximumRecordLength`.
    case recordTooLong(line: Int, limit: Int)
    /// The underlying source failed.
    case readFailed(String)
}

/// A streaming RFC 4180 reader over raw bytes.
///
/// Fields are separated by a configurable separator (`,` by default) and may be quoted with
/// a configurable quote (`"` by default), doubled for one quote character; quoted fields may hold separators and line breaks.
/// Records end with LF, CRLF or a lone CR (each counts as one line). A UTF-8 byte order mark
/// at the start is skipped and empty lines are passed over. Memory is bounded by the longest
/// record, not by the file: the reader keeps one buffer and hands out each record's fields as
/// views into it, valid until the next call of `nextRecord()`.
///
/// Invalid UTF-8, NUL bytes and quotes inside unquoted fields are reported per record as
/// `issues`, so that the caller can name the row and go on; an unterminated quote and an
/// overlong record end the file.
///
/// A noncopyable struct rather than a class: its state is then checked for exclusive access
/// at compile time, where a class pays a dynamic check on every access to a stored property.
struct CSVReader<Source: ByteSource>: ~Copyable {
    /// The longest record accepted by default, so that hostile input cannot exhaust memory.
    static var defaultMaximumRecordLength: Int { 64 << 20 }

    private var source: Source
    private var buffer: UnsafeMutableRawBufferPointer
    private var position = 0
    private var end = 0
    private var isAtEndOfSource = false
    private let separator: UInt8
    private let quote: UInt8
    private let maximumRecordLength: Int
    /// Byte classes: 0 ordinary; 1 needs attention outside quotes; 2 needs attention in quotes too.
    private let classes: UnsafeMutableBufferPointer<UInt8>

    /// The fields of the current record.
    private var fields: [CSVRecord.Field] = []
    /// The problems of the current record.
    private var issues: [CSVIssue] = []
    /// Whether the current record has a stray quote; later ones in unquoted fields are not
    /// reported again.
    private var hasStrayQuote = false
    /// Whether a quoted field of the current record has doubled quotes to undo.
    private var hasEscapes = false
    /// The line on which the current record starts.
    private var recordLine = 1
    /// The buffer offset at which the current record starts.
    private var recordStart = 0
    private var nextRecordLine: Int
    private var unescaped: [UInt8] = []
    /// The source offset of `buffer[0]`.
    private var bufferOrigin = 0
    private let limit: Int

    /// Creates a reader; `chunkSize` is how much it reads from the source at once.
    ///
    /// - Parameters:
    ///   - firstLine: the line number of the source's first byte: 1 for a whole file, more
    ///     for a part of one that starts at a line start (a byte order mark is then text).
    ///   - limit: the source offset from which on no record is read: the reader ends at the
    ///     first line start at or past it.
    init(
        source: Source, separator: UInt8 = UInt8(ascii: ","), quote: UInt8 = UInt8(ascii: "\""),
        chunkSize: Int = 1 << 20, maximumRecordLength: Int = defaultMaximumRecordLength,
        firstLine: Int = 1, limit: Int = .max
    ) {
        self.source = source
        nextRecordLine = firstLine
        self.limit = limit
        self.separator = separator
        self.quote = quote
        self.maximumRecordLength = max(maximumRecordLength, chunkSize)
        buffer = .allocate(byteCount: chunkSize, alignment: 16)
        let classes = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 256)
        classes.initialize(repeating: 0)
        for byte in [separator, UInt8(ascii: "\r"), UInt8(ascii: "\n")] { classes[Int(byte)] = 1 }
        for byte in [quote, 0] { classes[Int(byte)] = 2 }
        for byte in 0x80...0xFF { classes[byte] = 2 }
        self.classes = classes
    }

    deinit {
        buffer.deallocate()
        classes.deallocate()
    }

    private enum ScanResult { case record, needMore, end }

    /// Reads the next non-empty record.
    ///
    /// - Returns: `false` at the end of the input or at the limit.
    mutating func nextRecord() throws(CSVReadError) -> Bool {
        while true {
            if bufferOrigin + position >= limit { return false }
            switch try scanRecord() {
            case .record:
                if fields.count == 1 && fields[0].start == fields[0].end && issues.isEmpty
                    && buffer[fields[0].rawStart] != quote
                {
                    continue  // an empty line
                }
                if hasEscapes { unescapeQuotedFields() }
                return true
            case .end:
                return false
            case .needMore:
                try refill()
            }
        }
    }

    /// Calls `body` with the current record, whose views must not escape it.
    ///
    /// The record is a plain value of pointers, so that reading its fields costs no reference
    /// counting.
    func withRecord<R>(_ body: (CSVRecord) throws -> R) rethrows -> R {
        try fields.withUnsafeBufferPointer { fields in
            try issues.withUnsafeBufferPointer { issues in
                try unescaped.withUnsafeBytes { unescaped in
                    try body(
                        CSVRecord(
                            fields: fields, issues: issues, line: recordLine,
                            bytes: UnsafeRawBufferPointer(rebasing: buffer[0..<end]),
                            unescaped: unescaped, start: recordStart, endOffset: recordEndOffset))
                }
            }
        }
    }

    /// The offset just past the current record's last field, before its line end.
    private var recordEndOffset = 0

    /// Where reading goes on: the source offset and line past the last record read and the
    /// empty lines after it.
    var resumePoint: (offset: Int, line: Int) { (bufferOrigin + position, nextRecordLine) }

    private mutating func refill() throws(CSVReadError) {
        if recordStart > 0 {
            let pending = end - recordStart
            buffer.baseAddress!.copyMemory(
                from: buffer.baseAddress! + recordStart, byteCount: pending)
            end = pending
            bufferOrigin += recordStart
            position = 0
            recordStart = 0
        }
        if end == buffer.count {
            guard buffer.count < maximumRecordLength else {
                throw .recordTooLong(line: recordLine, limit: maximumRecordLength)
            }
            let larger = UnsafeMutableRawBufferPointer.allocate(
                byteCount: min(buffer.count * 2, maximumRecordLength), alignment: 16)
            larger.copyMemory(from: UnsafeRawBufferPointer(rebasing: buffer[0..<end]))
            buffer.deallocate()
            buffer = larger
        }
        let count: Int
        do {
            count = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[end...]))
        } catch {
            throw .readFailed(String(describing: error))
        }
        if count == 0 { isAtEndOfSource = true }
        if end == 0 && count >= 3 && buffer[0] == 0xEF && buffer[1] == 0xBB && buffer[2] == 0xBF
            && nextRecordLine == 1 && position == 0
        {
            position = 3
            recordStart = 3
        }
        end += count
    }

    /// What one scan of the buffer holds the same throughout, as locals, so that the optimizer
    /// sees that they do not change while a record is scanned.
    private struct Scan {
        let bytes: UnsafeRawBufferPointer
        let end: Int
        let isAtEndOfSource: Bool
        let separator: UInt8
        let quote: UInt8
        let classes: UnsafeMutableBufferPointer<UInt8>

        /// Whether the byte after `p` is not buffered yet but may come.
        @inline(__always)
        func needsNext(_ p: Int) -> Bool { p + 1 == end && !isAtEndOfSource }
    }

    /// Scans one record from `position`; on `.needMore` nothing is consumed.
    private mutating func scanRecord() throws(CSVReadError) -> ScanResult {
        issues.removeAll(keepingCapacity: true)
        hasStrayQuote = false
        hasEscapes = false
        recordStart = position
        recordLine = nextRecordLine
        var lines = 0
        var p = position
        let scan = Scan(
            bytes: UnsafeRawBufferPointer(buffer), end: end, isAtEndOfSource: isAtEndOfSource,
            separator: separator, quote: quote, classes: classes)
        let (bytes, end, separator) = (scan.bytes, scan.end, scan.separator)
        if p == end { return scan.isAtEndOfSource ? .end : .needMore }
        fields.removeAll(keepingCapacity: true)
        while true {
            let fieldStart = p
            if p < end && bytes[p] == scan.quote {
                guard let closing = try scanQuotedField(from: p + 1, scan, &lines) else {
                    return .needMore
                }
                p = closing + 1
                // Only a separator or a line end may follow a closing quote.
                if p < end && bytes[p] != separator && bytes[p] != UInt8(ascii: "\n")
                    && bytes[p] != UInt8(ascii: "\r")
                {
                    issues.append(CSVIssue(kind: .strayQuote, offset: p - 1))
                    hasStrayQuote = true
                    while p < end && scan.classes[Int(bytes[p])] != 1 { p += 1 }
                    if p == end && !scan.isAtEndOfSource { return .needMore }
                }
            } else {
                guard let fieldEnd = scanPlainField(from: p, scan) else { return .needMore }
                p = fieldEnd
                fields.append(
                    CSVRecord.Field(
                        rawStart: fieldStart, start: fieldStart, end: p, isUnescaped: false))
            }
            // Now at a separator, a line end or the end of the input.
            if p < end && bytes[p] == separator {
                p += 1
                continue
            }
            recordEndOffset = p
            if p == end { break }
            if bytes[p] == UInt8(ascii: "\r") {
                if scan.needsNext(p) { return .needMore }
                p += (p + 1 < end && bytes[p + 1] == UInt8(ascii: "\n")) ? 2 : 1
            } else {
                p += 1
            }
            lines += 1
            break
        }
        position = p
        nextRecordLine = recordLine + lines
        return .record
    }

    /// Scans a quoted field whose text starts at `start`, counting its line breaks into
    /// `lines` and appending it to the record's fields; returns the offset of its closing
    /// quote, or `nil` when the buffer ends first.
    @inline(__always)
    private mutating func scanQuotedField(from start: Int, _ scan: Scan, _ lines: inout Int)
        throws(CSVReadError) -> Int?
    {
        let bytes = scan.bytes
        var p = start
        var fieldHasEscapes = false
        while true {
            while p < scan.end && scan.classes[Int(bytes[p])] == 0 { p += 1 }
            if p == scan.end {
                if scan.isAtEndOfSource {
                    let (line, column) = withRecord { $0.location(ofOffset: start - 1) }
                    throw .unterminatedQuote(line: line, column: column)
                }
                return nil
            }
            let byte = bytes[p]
            if byte == scan.quote {
                if scan.needsNext(p) { return nil }
                if p + 1 < scan.end && bytes[p + 1] == scan.quote {
                    fieldHasEscapes = true
                    p += 2
                    continue
                }
                break
            } else if byte == UInt8(ascii: "\n") {
                lines += 1
                p += 1
            } else if byte == UInt8(ascii: "\r") {
                if scan.needsNext(p) { return nil }
                if p + 1 == scan.end || bytes[p + 1] != UInt8(ascii: "\n") { lines += 1 }
                p += 1
            } else if byte == scan.separator {
                p += 1
            } else {
                guard let step = checkSpecial(at: p) else { return nil }
                p += step
            }
        }
        fields.append(
            CSVRecord.Field(
                rawStart: start - 1, start: start, end: p, isUnescaped: fieldHasEscapes))
        hasEscapes = hasEscapes || fieldHasEscapes
        return p
    }

    /// Scans a field without quotes from `start`; returns where it ends (a separator, a line
    /// end or the end of the input), or `nil` when the buffer ends first.
    @inline(__always)
    private mutating func scanPlainField(from start: Int, _ scan: Scan) -> Int? {
        let bytes = scan.bytes
        var p = start
        while true {
            while p < scan.end && scan.classes[Int(bytes[p])] == 0 { p += 1 }
            if p == scan.end && !scan.isAtEndOfSource { return nil }
            if p == scan.end || scan.classes[Int(bytes[p])] == 1 { return p }
            if bytes[p] == scan.quote {
                if !hasStrayQuote {
                    hasStrayQuote = true
                    issues.append(CSVIssue(kind: .strayQuote, offset: p))
                }
                p += 1
            } else {
                guard let step = checkSpecial(at: p) else { return nil }
                p += step
            }
        }
    }

    /// Checks a NUL or non-ASCII byte; returns how many bytes to step over, or `nil` when the
    /// sequence continues past the buffered bytes.
    private mutating func checkSpecial(at p: Int) -> Int? {
        let b0 = buffer[p]
        if b0 == 0 {
            issues.append(CSVIssue(kind: .nul, offset: p))
            return 1
        }
        let length: Int
        switch b0 {
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default:
            issues.append(CSVIssue(kind: .invalidUTF8, offset: p))
            return 1
        }
        if p + length > end && !isAtEndOfSource { return nil }
        var valid = p + length <= end
        if valid {
            let b1 = buffer[p + 1]
            let (low, high): (UInt8, UInt8) =
                switch b0 {
                case 0xE0: (0xA0, 0xBF)
                case 0xED: (0x80, 0x9F)
                case 0xF0: (0x90, 0xBF)
                case 0xF4: (0x80, 0x8F)
                default: (0x80, 0xBF)
                }
            valid = b1 >= low && b1 <= high
            for index in 2..<length where buffer[p + index] & 0xC0 != 0x80 { valid = false }
        }
        guard valid else {
            issues.append(CSVIssue(kind: .invalidUTF8, offset: p))
            return 1
        }
        return length
    }

    private mutating func unescapeQuotedFields() {
        unescaped.removeAll(keepingCapacity: true)
        for index in fields.indices where fields[index].isUnescaped {
            let start = unescaped.count
            var p = fields[index].start
            while p < fields[index].end {
                let byte = buffer[p]
                unescaped.append(byte)
                p += byte == quote ? 2 : 1
            }
            fields[index].start = start
            fields[index].end = unescaped.count
        }
    }
}

/// One record of a `CSVReader`: its fields as views into the reader's buffers, valid only
/// inside `CSVReader.withRecord`.
struct CSVRecord {
    struct Field {
        /// The offset of the field's first byte (its opening quote, if quoted).
        var rawStart: Int
        /// The content, in the buffer, or in `unescaped` when `isUnescaped`.
        var start: Int
        var end: Int
        var isUnescaped: Bool
    }

    /// The fields, in order.
    let fields: UnsafeBufferPointer<Field>
    /// The problems found in the record.
    let issues: UnsafeBufferPointer<CSVIssue>
    /// The line on which the record starts.
    let line: Int
    /// The reader's buffer, up to its last read byte.
    fileprivate let bytes: UnsafeRawBufferPointer
    /// The contents of quoted fields with doubled quotes, undoubled.
    fileprivate let unescaped: UnsafeRawBufferPointer
    /// The buffer offset at which the record starts.
    fileprivate let start: Int
    /// The offset just past the record's last field, before its line end.
    fileprivate let endOffset: Int

    /// Calls `body` with the bytes of field `index`.
    func withField<R>(_ index: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(field(index))
    }

    /// The text of field `index` without its leading and trailing spaces, as a string.
    func trimmedText(_ index: Int) -> String {
        String(decoding: field(index).trimmingSpaces, as: UTF8.self)
    }

    /// The bytes of field `index`, valid while the record is lent (`CSVReader.withRecord`).
    func field(_ index: Int) -> UnsafeRawBufferPointer {
        let field = fields[index]
        let source = field.isUnescaped ? unescaped : bytes
        return UnsafeRawBufferPointer(rebasing: source[field.start..<field.end])
    }

    /// A place in the record: a buffer offset with its 1-based line and column (in Unicode
    /// scalars).
    struct Place {
        var offset: Int
        var line: Int
        var column: Int
    }

    /// Where the record starts.
    var startPlace: Place { Place(offset: start, line: line, column: 1) }

    /// The place of a buffer offset in the record, counted on from `known` when that lies
    /// before it (so that a caller locating several offsets in order scans the record once),
    /// else from the record's start; `scanned` is increased by the bytes looked at.
    func place(ofOffset offset: Int, from known: Place? = nil, scanned: inout Int) -> Place {
        var place = known.flatMap { $0.offset <= offset ? $0 : nil } ?? startPlace
        scanned += offset - place.offset
        var index = place.offset
        while index < offset {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n")
                || (byte == UInt8(ascii: "\r")
                    && (index + 1 >= bytes.count || bytes[index + 1] != UInt8(ascii: "\n")))
            {
                place.line += 1
                place.column = 1
            } else if byte & 0xC0 != 0x80 && byte != UInt8(ascii: "\r") {
                place.column += 1
            }
            index += 1
        }
        place.offset = offset
        return place
    }

    /// The line and column (1-based, in Unicode scalars) of a buffer offset in the record.
    func location(ofOffset offset: Int) -> (line: Int, column: Int) {
        var scanned = 0
        let place = place(ofOffset: offset, scanned: &scanned)
        return (place.line, place.column)
    }

    /// The buffer offset where field `index` starts, or where the record's fields end.
    func offset(ofField index: Int) -> Int {
        index < fields.count ? fields[index].rawStart : endOffset
    }

    /// The line and column where field `index` starts, or where the record's fields end.
    func location(ofField index: Int) -> (line: Int, column: Int) {
        location(ofOffset: offset(ofField: index))
    }
}
