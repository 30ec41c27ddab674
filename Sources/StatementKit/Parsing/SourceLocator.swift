/// Turns byte offsets of an in-memory file into 1-based lines and columns.
///
/// Columns count Unicode scalars, as an editor does; LF, CRLF and a lone CR each end a line.
struct SourceLocator {
    private let bytes: UnsafeRawBufferPointer
    private var lineStarts: [Int]?

    init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// Returns the line and column of a byte offset.
    mutating func location(of offset: Int) -> (line: Int, column: Int) {
        let starts = lineStarts ?? computeLineStarts()
        lineStarts = starts
        var low = 0
        var high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        var column = 1
        var index = starts[low]
        if low == 0 && bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        while index < min(offset, bytes.count) {
            if bytes[index] & 0xC0 != 0x80 { column += 1 }
            index += 1
        }
        return (low + 1, column)
    }

    private func computeLineStarts() -> [Int] {
        var starts = [0]
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if byte == UInt8(ascii: "\n") {
                starts.append(index)
            } else if byte == UInt8(ascii: "\r") {
                if index < bytes.count && bytes[index] == UInt8(ascii: "\n") { index += 1 }
                starts.append(index)
            }
        }
        return starts
    }
}
