/// The line breaks of parts of a file, for a check split into parts
/// (`ValidationController+Parts`).
extension LineBreakCounter {
    /// Counts the line breaks of a file's bytes from `start` to `end`.
    static func count(inFile path: String, from start: Int, to end: Int) throws -> Int {
        let source = try FileByteSource(path: path, from: start, to: end)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        var counter = LineBreakCounter()
        while true {
            let count = try source.read(into: buffer)
            if count == 0 { return counter.count }
            counter.add(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
    }

    /// The offset in a file just past the first LF at or after `offset - 1`, so at a line
    /// start; `nil` when there is none.
    static func lineStart(inFile path: String, atOrAfter offset: Int) throws -> Int? {
        let source = try FileByteSource(path: path, from: offset - 1)
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        var position = offset - 1
        while true {
            let count = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
            guard count > 0 else { return nil }
            if let index = buffer[0..<count].firstIndex(of: UInt8(ascii: "\n")) {
                return position + index + 1
            }
            position += count
        }
    }
}
