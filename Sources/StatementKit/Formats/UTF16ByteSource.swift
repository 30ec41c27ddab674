/// UTF-16 text from another source handed out as UTF-8, streaming: how the camt and OFX
/// readers, which read UTF-8, read a file saved as UTF-16 (with a byte order mark, or
/// starting with `<` as XML's own detection allows). A byte order mark becomes UTF-8's, which
/// the readers skip; a lone surrogate or an odd last byte is an error, never replaced.
struct UTF16ByteSource<Base: ByteSource>: ByteSource {
    /// Why UTF-16 text cannot be read.
    struct DecodingError: Error, CustomStringConvertible {
        let description: String
    }

    private var base: Base
    private let isBigEndian: Bool
    /// Bytes read from `base` and not yet decoded: half a code unit, or a high surrogate.
    private var pending: [UInt8] = []
    private var chunk = [UInt8](repeating: 0, count: 1 << 15)
    /// Decoded bytes not yet handed out, from `outputStart`.
    private var output: [UInt8] = []
    private var outputStart = 0
    private var isAtEnd = false

    init(_ base: Base, bigEndian: Bool) {
        self.base = base
        self.isBigEndian = bigEndian
    }

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while outputStart == output.count {
            if isAtEnd { return 0 }
            try decodeMore()
        }
        let count = output.copyBytes(from: outputStart, into: buffer)
        outputStart += count
        return count
    }

    private mutating func decodeMore() throws {
        output.removeAll(keepingCapacity: true)
        outputStart = 0
        let read = try chunk.withUnsafeMutableBytes { try base.read(into: $0) }
        guard read > 0 else {
            isAtEnd = true
            guard pending.isEmpty else {
                throw DecodingError(description: "the UTF-16 text ends inside a character")
            }
            return
        }
        pending += chunk[0..<read]
        var index = 0
        func unit(at index: Int) -> UInt32 {
            let (first, second) = (UInt32(pending[index]), UInt32(pending[index + 1]))
            return isBigEndian ? first << 8 | second : second << 8 | first
        }
        while index + 1 < pending.count {
            var value = unit(at: index)
            var length = 2
            if (0xD800...0xDBFF).contains(value) {
                guard index + 3 < pending.count else { break }
                let low = unit(at: index + 2)
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw DecodingError(description: "invalid UTF-16: a lone high surrogate")
                }
                value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
                length = 4
            } else if (0xDC00...0xDFFF).contains(value) {
                throw DecodingError(description: "invalid UTF-16: a lone low surrogate")
            }
            Self.appendUTF8(value, to: &output)
            index += length
        }
        pending.removeSubrange(0..<index)
    }

    private static func appendUTF8(_ value: UInt32, to output: inout [UInt8]) {
        switch value {
        case ..<0x80:
            output.append(UInt8(value))
        case ..<0x800:
            output.append(UInt8(0xC0 | value >> 6))
            output.append(UInt8(0x80 | value & 0x3F))
        case ..<0x10000:
            output.append(UInt8(0xE0 | value >> 12))
            output.append(UInt8(0x80 | value >> 6 & 0x3F))
            output.append(UInt8(0x80 | value & 0x3F))
        default:
            output.append(UInt8(0xF0 | value >> 18))
            output.append(UInt8(0x80 | value >> 12 & 0x3F))
            output.append(UInt8(0x80 | value >> 6 & 0x3F))
            output.append(UInt8(0x80 | value & 0x3F))
        }
    }
}
