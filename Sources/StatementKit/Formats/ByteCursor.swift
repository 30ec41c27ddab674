import Foundation

/// A place in a byte source read a chunk at a time, with the line and column (counted in
/// Unicode scalars) of the next byte: what the XML and OFX readers scan with.
struct ByteCursor<Source: ByteSource> {
    private var source: Source
    private var chunk = [UInt8](repeating: 0, count: 1 << 16)
    /// The bytes read and not yet dropped; `position` is the next one.
    private(set) var buffer: [UInt8] = []
    private(set) var position = 0
    private(set) var isAtEnd = false
    private(set) var line = 1
    private(set) var column = 1

    init(source: Source) {
        self.source = source
    }

    /// The next byte; call `ensure(1)` first.
    var current: UInt8 { buffer[position] }

    /// An error at the next byte.
    func error(_ message: String) -> XMLSyntaxError {
        XMLSyntaxError(message: message, line: line, column: column)
    }

    /// An error at the next byte for a token over the readers' limit (`TEXT_TOO_LONG`).
    func tooLong(_ message: String) -> XMLSyntaxError {
        XMLSyntaxError(message: message, line: line, column: column, isTooLong: true)
    }

    /// Whether at least `count` bytes are buffered, reading more as needed.
    @inline(__always)
    mutating func ensure(_ count: Int) throws(XMLSyntaxError) -> Bool {
        if buffer.count - position >= count { return true }
        return try ensureReading(count)
    }

    private mutating func ensureReading(_ count: Int) throws(XMLSyntaxError) -> Bool {
        while buffer.count - position < count {
            if isAtEnd { return false }
            try fill()
        }
        return true
    }

    private mutating func fill() throws(XMLSyntaxError) {
        let read: Int
        do {
            read = try source.refill(&buffer, dropping: position, through: &chunk)
        } catch {
            throw self.error("cannot read: \(error)")
        }
        position = 0
        if read == 0 { isAtEnd = true }
    }

    /// Whether the next bytes are `text`'s.
    mutating func starts(with text: String) throws(XMLSyntaxError) -> Bool {
        let bytes = Array(text.utf8)
        guard try ensure(bytes.count) else { return false }
        return buffer[position..<position + bytes.count].elementsEqual(bytes)
    }

    /// Moves past `count` buffered bytes, counting lines and columns: the newlines first,
    /// then the columns after the last of them (loops the compiler can vectorise).
    mutating func consume(_ count: Int) {
        let start = position
        let end = start + count
        let (lines, column) = buffer.withUnsafeBufferPointer { bytes in
            if count <= 32 {
                // A tag or a short value: one pass.
                var (lines, column) = (0, self.column)
                for index in start..<end {
                    let byte = bytes[index]
                    if byte == 0x0A {
                        lines &+= 1
                        column = 1
                    } else {
                        column &+= byte & 0xC0 == 0x80 ? 0 : 1
                    }
                }
                return (lines, column)
            }
            var lines = 0
            for index in start..<end { lines &+= bytes[index] == 0x0A ? 1 : 0 }
            var from = start
            var column = self.column
            if lines > 0 {
                from = end
                while bytes[from - 1] != 0x0A { from -= 1 }
                column = 1
            }
            var continuations = 0
            for index in from..<end { continuations &+= bytes[index] & 0xC0 == 0x80 ? 1 : 0 }
            return (lines, column + (end - from) - continuations)
        }
        line += lines
        self.column = column
        position = end
    }

    /// Moves past `count` buffered bytes known to hold `columns` characters and no line
    /// break.
    mutating func consume(_ count: Int, columns: Int) {
        position += count
        column += columns
    }

    /// The index in `buffer` of the next `byte` from `start` (the position when `nil`),
    /// reading more as needed; `nil` when the source ends first. Nothing is consumed, but a
    /// read moves the buffer's indices.
    ///
    /// - Throws: when more than `limit` bytes come before it.
    mutating func find(_ byte: UInt8, limit: Int, from start: Int? = nil) throws(XMLSyntaxError)
        -> Int?
    {
        var searched = start ?? position
        while true {
            let found: Int? = buffer.withUnsafeBytes { bytes in
                guard searched < bytes.count, let base = bytes.baseAddress,
                    let hit = memchr(base + searched, Int32(byte), bytes.count - searched)
                else { return nil }
                return base.distance(to: UnsafeRawPointer(hit))
            }
            if let found { return found }
            guard buffer.count - position < limit else {
                throw tooLong("text or markup longer than \(limit.groupedText) bytes")
            }
            if isAtEnd { return nil }
            let offset = buffer.count - position
            try fill()
            searched = position + offset
        }
    }

    /// The bytes up to the first `byte` (not consumed), or to the end: a slice of the buffer,
    /// to be used before the cursor moves on.
    ///
    /// - Throws: when more than `limit` bytes come before it.
    mutating func take(until byte: UInt8, limit: Int) throws(XMLSyntaxError) -> ArraySlice<UInt8> {
        let end = try find(byte, limit: limit) ?? buffer.count
        let bytes = buffer[position..<end]
        consume(end - position)
        return bytes
    }

    /// The bytes up to `terminator` (found with memchr), which is consumed too: a slice of
    /// the buffer, to be used before the cursor moves on.
    ///
    /// - Throws: when the source ends first, or more than `limit` bytes come before it.
    mutating func read(through terminator: UInt8, limit: Int) throws(XMLSyntaxError)
        -> ArraySlice<UInt8>
    {
        guard let index = try find(terminator, limit: limit) else {
            throw error("the file ends before \(Character(Unicode.Scalar(terminator)))")
        }
        let content = buffer[position..<index]
        consume(index - position + 1)
        return content
    }

    /// The bytes up to `terminator`, which is consumed too: a slice of the buffer, to be
    /// used before the cursor moves on (holding it would make the next refill copy).
    ///
    /// - Throws: when the source ends first, or more than `limit` bytes come before it.
    mutating func read(upTo terminator: String, limit: Int) throws(XMLSyntaxError)
        -> ArraySlice<UInt8>
    {
        let end = Array(terminator.utf8)
        var searched = 0
        while true {
            if buffer.count - position >= end.count {
                let last = buffer.count - end.count
                var index = position + searched
                while index <= last {
                    if buffer[index] == end[0]
                        && buffer[index..<index + end.count].elementsEqual(end)
                    {
                        let content = buffer[position..<index]
                        consume(index - position + end.count)
                        return content
                    }
                    index += 1
                }
                searched = max(0, last + 1 - position)
            }
            guard buffer.count - position < limit else {
                throw tooLong("markup longer than \(limit.groupedText) bytes")
            }
            guard !isAtEnd else { throw error("the file ends before \(terminator)") }
            try fill()
        }
    }
}

/// A 1-based line and column (in Unicode scalars) in a source file.
struct SourcePosition: Hashable, Sendable {
    let line: Int
    let column: Int
}

/// Text read from a file, and the line and column where it stands.
struct PlacedText {
    let text: String
    let line: Int
    let column: Int
}
