/// Bytes written into a scratch buffer on the stack, then appended to an array in one copy:
/// how an amount or a date is put together from its parts without a byte-by-byte append or a
/// heap allocation. Made by `[UInt8].appendWriting(atMost:_:)`; writes past the buffer trap.
struct ScratchWriter: ~Copyable {
    private let buffer: UnsafeMutableRawBufferPointer
    /// How many bytes are written.
    private(set) var count = 0

    fileprivate init(_ buffer: UnsafeMutableRawBufferPointer) {
        self.buffer = buffer
    }

    /// Writes one byte.
    @inline(__always)
    mutating func put(_ byte: UInt8) {
        precondition(count < buffer.count)
        buffer[count] = byte
        count += 1
    }

    /// Writes bytes lent by `DecimalDigits` or a `ByteTexts`.
    @inline(__always)
    mutating func put(_ bytes: Slice<UnsafeRawBufferPointer>) {
        put(UnsafeRawBufferPointer(rebasing: bytes))
    }

    /// Writes a text of a `ByteTexts`.
    @inline(__always)
    mutating func put(_ text: ByteTexts.Text) {
        put(text.bytes)
    }

    @inline(__always)
    private mutating func put(_ bytes: UnsafeRawBufferPointer) {
        precondition(count + bytes.count <= buffer.count)
        UnsafeMutableRawBufferPointer(rebasing: buffer[count..<count + bytes.count])
            .copyMemory(from: bytes)
        count += bytes.count
    }

    /// Writes the decimal digits of `value`, zero-padded on the left to `count` digits.
    @inline(__always)
    mutating func putDigits(_ value: Int, count digits: Int) {
        precondition(count + digits <= buffer.count)
        var rest = value
        for index in (count..<count + digits).reversed() {
            buffer[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
        count += digits
    }

    fileprivate var written: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: buffer[..<count])
    }
}

extension [UInt8] {
    /// Appends what `write` writes, at most `capacity` bytes, in one copy.
    @inline(__always)
    mutating func appendWriting(atMost capacity: Int, _ write: (inout ScratchWriter) -> Void) {
        withUnsafeTemporaryAllocation(byteCount: capacity, alignment: 1) { buffer in
            var writer = ScratchWriter(buffer)
            write(&writer)
            append(bytes: writer.written)
        }
    }
}

extension ScratchWriter {
    /// Calls `read` with what `write` writes, at most `capacity` bytes, lent as a span: how a
    /// reader rewrites a field (a decimal comma as a point) for a model parser to read.
    @inline(__always)
    static func lending<R, E: Error>(
        atMost capacity: Int, _ write: (inout ScratchWriter) throws(E) -> Void,
        _ read: (Span<UInt8>) throws(E) -> R
    ) throws(E) -> R {
        let result = withUnsafeTemporaryAllocation(byteCount: capacity, alignment: 1) { buffer in
            var writer = ScratchWriter(buffer)
            return Result { () throws(E) in
                try write(&writer)
                return try writer.written.withSpan(read)
            }
        }
        return try result.get()
    }
}

/// Short byte strings (a format's signs and separators) kept in one allocation that is never
/// written after it is made, and lent as `Text`s: plain values, so that using one touches no
/// reference count (two cores formatting with one format would contend for it). A `Text` is
/// valid while its `ByteTexts` lives.
final class ByteTexts: @unchecked Sendable {
    // @unchecked: nothing is mutated after init; `memory` is freed in deinit only.
    private let memory: UnsafeMutableRawBufferPointer
    /// The texts, in the order given.
    let texts: [Text]

    /// A view of one of the texts.
    struct Text: @unchecked Sendable {
        // @unchecked: a view of memory that is never written after init.
        fileprivate let bytes: UnsafeRawBufferPointer
        /// How many bytes it has.
        var count: Int { bytes.count }
    }

    init(_ strings: [String]) {
        let utf8 = strings.map { Array($0.utf8) }
        memory = .allocate(byteCount: max(1, utf8.reduce(0) { $0 + $1.count }), alignment: 1)
        var texts: [Text] = []
        var offset = 0
        for text in utf8 {
            let part = UnsafeMutableRawBufferPointer(rebasing: memory[offset..<offset + text.count])
            part.copyBytes(from: text)
            texts.append(Text(bytes: UnsafeRawBufferPointer(part)))
            offset += text.count
        }
        self.texts = texts
    }

    deinit { memory.deallocate() }
}
