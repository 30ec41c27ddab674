/// Something that hands out bytes in order, such as an open file or a buffer in memory.
package protocol ByteSource {
    /// Copies up to `buffer.count` next bytes into `buffer`.
    ///
    /// - Returns: the number of bytes copied; 0 only at the end.
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
}

/// Bytes held in memory, handed out in order.
package struct MemoryByteSource: ByteSource {
    private let bytes: [UInt8]
    private var offset = 0

    /// Creates a source over the given bytes.
    package init<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        self.bytes = Array(bytes)
    }

    /// Creates a source over the UTF-8 of a text.
    package init(_ text: String) {
        self.bytes = Array(text.utf8)
    }

    package mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = bytes.copyBytes(from: offset, into: buffer)
        offset += count
        return count
    }
}

extension ByteSource {
    /// The bytes of one read of at most `count` bytes; none when it fails.
    mutating func readOnce(atMost count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let read = bytes.withUnsafeMutableBytes { (try? self.read(into: $0)) ?? 0 }
        return Array(bytes.prefix(read))
    }

    /// Drops the first `consumed` bytes of `buffer` and appends the source's next bytes, read
    /// through `chunk` (kept by the caller, so that no read allocates): the refill of the
    /// line and tag readers.
    ///
    /// - Returns: how many bytes were read; 0 at the end.
    mutating func refill(
        _ buffer: inout [UInt8], dropping consumed: Int, through chunk: inout [UInt8]
    ) throws -> Int {
        if consumed > 0 { buffer.removeSubrange(0..<consumed) }
        let read = try chunk.withUnsafeMutableBytes { try self.read(into: $0) }
        buffer.append(contentsOf: chunk[0..<read])
        return read
    }
}

extension [UInt8] {
    /// Copies the bytes from `start` on into `buffer`, as many as fit; returns how many.
    func copyBytes(from start: Int, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let count = Swift.min(buffer.count, self.count - start)
        withUnsafeBytes { source in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[start..<start + count]))
        }
        return count
    }
}
