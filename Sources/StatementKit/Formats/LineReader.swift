/// Reads a byte source line by line, in chunks, so that memory does not grow with the file:
/// LF, CRLF and a lone CR each end a line, as `CSVReader` counts them.
struct LineReader<Source: ByteSource> {
    private var source: Source
    private var buffer: [UInt8] = []
    private var chunk = [UInt8](repeating: 0, count: 1 << 16)
    private var start = 0
    private var isAtEnd = false
    /// The 1-based number of the line `next` returns.
    private(set) var lineNumber = 0
    /// The longest line kept (give or take a chunk of 64 KiB); the rest of a longer line is
    /// dropped, and `body` told so.
    let maximumLength: Int
    private var wasCut = false

    init(source: Source, maximumLength: Int = 1 << 20) {
        self.source = source
        self.maximumLength = maximumLength
    }

    /// Calls `body` with the next line (without its line break), its number and whether it
    /// was cut at `maximumLength`; `false` at the end.
    mutating func next(_ body: (Span<UInt8>, Int, Bool) -> Void) throws -> Bool {
        wasCut = false
        while true {
            if let end = buffer.firstLineBreak(from: start) {
                // A CR at the buffer's end may be the first half of a CRLF.
                if buffer[end] == 0x0D && end + 1 == buffer.count && !isAtEnd {
                    try fill()
                    continue
                }
                lineNumber += 1
                let number = lineNumber
                body(buffer.span.extracting(start..<end), number, wasCut)
                start = end + 1
                if buffer[end] == 0x0D && start < buffer.count && buffer[start] == 0x0A {
                    start += 1
                }
                return true
            }
            if isAtEnd {
                guard start < buffer.count else { return false }
                lineNumber += 1
                let number = lineNumber
                body(buffer.span.extracting(start...), number, wasCut)
                start = buffer.count
                return true
            }
            if buffer.count - start >= maximumLength {
                // An overlong line: keep its start, skip to its end.
                wasCut = true
                buffer.removeSubrange(start + maximumLength..<buffer.count)
            }
            try fill()
        }
    }

    /// Moves the unread bytes to the front and reads the next chunk after them.
    private mutating func fill() throws {
        let read = try source.refill(&buffer, dropping: start, through: &chunk)
        start = 0
        if read == 0 { isAtEnd = true }
    }
}
