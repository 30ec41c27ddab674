import Foundation

/// A place in a byte source read a chunk at a time, with the line and column (counted in
/// Unicode scalars) of the next byte: what the XML and OFX readers scan with.
///
/// The bytes are read straight into memory of the cursor's own (so that scanning them takes
/// no reference count and no bounds check beyond the readers' own); hence not copyable.
struct ByteCursor<Source: ByteSource>: ~Copyable {
    /// The bytes a read asks the source for.
    static var chunkSize: Int { 1 << 16 }

    private var source: Source
    /// The memory: its first `count` bytes are those read and not yet dropped.
    private var storage: UnsafeMutableBufferPointer<UInt8>
    private var count = 0
    private(set) var position = 0
    private(set) var isAtEnd = false
    private(set) var line = 1
    private(set) var column = 1
    /// How many bytes of the source were dropped from the front of `buffer`: `buffer[i]` is
    /// the source's byte `dropped + i`.
    private(set) var dropped = 0
    /// A byte of the source (counted as `dropped` counts) that reading more keeps in the
    /// buffer with those after it, even when consumed: where a text a reader holds as a
    /// range of the buffer starts. `nil` keeps nothing consumed.
    var kept: Int?

    init(source: Source) {
        self.source = source
        storage = .allocate(capacity: 2 * Self.chunkSize)
    }

    deinit { storage.deallocate() }

    /// The bytes read and not yet dropped; `position` is the next one. Valid until the cursor
    /// reads more.
    var buffer: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: storage[..<count])
    }

    /// The next byte; call `ensure(1)` first.
    var current: UInt8 {
        precondition(position < count)
        return storage[position]
    }

    /// An error at the next byte.
    func error(_ message: String) -> XMLSyntaxError {
        XMLSyntaxError(message: message, line: line, column: column)
    }

    /// An error at the next byte for a token over the readers' limit (`TEXT_TOO_LONG`).
    func tooLong(_ message: String) -> XMLSyntaxError {
        XMLSyntaxError(message: message, line: line, column: column, isTooLong: true)
    }

    /// Whether at least `wanted` bytes are buffered, reading more as needed.
    @inline(__always)
    mutating func ensure(_ wanted: Int) throws(XMLSyntaxError) -> Bool {
        if count - position >= wanted { return true }
        return try ensureReading(wanted)
    }

    private mutating func ensureReading(_ wanted: Int) throws(XMLSyntaxError) -> Bool {
        while count - position < wanted {
            if isAtEnd { return false }
            try fill()
        }
        return true
    }

    private mutating func fill() throws(XMLSyntaxError) {
        let drop = kept.map { min(position, $0 - dropped) } ?? position
        if drop > 0 {
            let base = storage.baseAddress!
            base.update(from: base + drop, count: count - drop)
            count -= drop
            position -= drop
            dropped += drop
        }
        if storage.count - count < Self.chunkSize {
            let larger = UnsafeMutableBufferPointer<UInt8>.allocate(
                capacity: 2 * storage.count + Self.chunkSize)
            larger.baseAddress!.initialize(from: storage.baseAddress!, count: count)
            storage.deallocate()
            storage = larger
        }
        let read: Int
        do {
            // A chunk at a time: the readers check their limits only when they read on, so a
            // larger read would let a longer token through.
            read = try source.read(
                into: UnsafeMutableRawBufferPointer(
                    UnsafeMutableBufferPointer(
                        rebasing: storage[count..<(count + Self.chunkSize)])))
        } catch {
            throw self.error("cannot read: \(error)")
        }
        count += read
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
        let bytes = buffer
        let start = position
        let end = start + count
        position = end
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
            line += lines
            self.column = column
            return
        }
        var lines = 0
        for index in start..<end { lines &+= bytes[index] == 0x0A ? 1 : 0 }
        var from = start
        if lines > 0 {
            from = end
            while bytes[from - 1] != 0x0A { from -= 1 }
            column = 1
        }
        var continuations = 0
        for index in from..<end { continuations &+= bytes[index] & 0xC0 == 0x80 ? 1 : 0 }
        line += lines
        column += (end - from) - continuations
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
            if searched < count, let base = storage.baseAddress,
                let hit = memchr(base + searched, Int32(byte), count - searched)
            {
                return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit))
            }
            guard count - position < limit else {
                throw tooLong("text or markup longer than \(limit.groupedText) bytes")
            }
            if isAtEnd { return nil }
            let offset = count - position
            try fill()
            searched = position + offset
        }
    }

    /// The bytes up to the first `byte` (not consumed), or to the end: a slice of the buffer,
    /// to be used before the cursor moves on.
    ///
    /// - Throws: when more than `limit` bytes come before it.
    mutating func take(until byte: UInt8, limit: Int) throws(XMLSyntaxError)
        -> UnsafeBufferPointer<UInt8>
    {
        let end = try find(byte, limit: limit) ?? count
        let bytes = UnsafeBufferPointer(rebasing: buffer[position..<end])
        consume(end - position)
        return bytes
    }

    /// The bytes up to `terminator` (found with memchr), which is consumed too: a slice of
    /// the buffer, to be used before the cursor moves on.
    ///
    /// - Throws: when the source ends first, or more than `limit` bytes come before it.
    mutating func read(through terminator: UInt8, limit: Int) throws(XMLSyntaxError)
        -> UnsafeBufferPointer<UInt8>
    {
        guard let index = try find(terminator, limit: limit) else {
            throw error("the file ends before \(Character(Unicode.Scalar(terminator)))")
        }
        let content = UnsafeBufferPointer(rebasing: buffer[position..<index])
        consume(index - position + 1)
        return content
    }

    /// The bytes up to `terminator`, which is consumed too: a slice of the buffer, to be
    /// used before the cursor moves on (holding it would make the next refill copy).
    ///
    /// - Throws: when the source ends first, or more than `limit` bytes come before it.
    mutating func read(upTo terminator: String, limit: Int) throws(XMLSyntaxError)
        -> UnsafeBufferPointer<UInt8>
    {
        let end = Array(terminator.utf8)
        var searched = 0
        while true {
            if count - position >= end.count {
                let bytes = buffer
                let last = count - end.count
                var index = position + searched
                while index <= last {
                    if bytes[index] == end[0]
                        && bytes[index..<index + end.count].elementsEqual(end)
                    {
                        let content = UnsafeBufferPointer(rebasing: bytes[position..<index])
                        consume(index - position + end.count)
                        return content
                    }
                    index += 1
                }
                searched = max(0, last + 1 - position)
            }
            guard count - position < limit else {
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
