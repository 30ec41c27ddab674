/// Telling a file's encoding from its bytes, for files without a profile.
extension TextEncoding {
    /// UTF-8 (or UTF-16) when a byte order mark or the bytes say so, else Windows-1252.
    static func detected(in bytes: [UInt8], _ assumptions: inout [Diagnostic.Finding])
        -> TextEncoding
    {
        if let (encoding, _) = byteOrderMark(of: bytes) { return encoding }
        // Text in UTF-16 without a mark has a NUL in every other byte of its ASCII.
        let sample = bytes.prefix(4096)
        let evenNULs = stride(from: 0, to: sample.count, by: 2).filter { sample[$0] == 0 }.count
        let oddNULs = stride(from: 1, to: sample.count, by: 2).filter { sample[$0] == 0 }.count
        if sample.count >= 8 && max(evenNULs, oddNULs) * 4 >= sample.count
            && min(evenNULs, oddNULs) * 8 < max(evenNULs, oddNULs)
        {
            let encoding: TextEncoding = oddNULs > evenNULs ? .utf16LE : .utf16BE
            assumptions.append(
                Diagnostic.Finding(line: 1, column: 1, message: .assumedUTF16(encoding)))
            return encoding
        }
        guard let invalid = firstInvalidUTF8(bytes) else { return .utf8 }
        // Text with valid multi-byte UTF-8 as well is UTF-8 with damage, which the parser
        // reports line by line: Windows-1252 text practically never forms such sequences.
        guard !hasMultibyteUTF8(bytes) else { return .utf8 }
        let lineStart = bytes[..<invalid].lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
        let line = bytes[..<invalid].filter { $0 == UInt8(ascii: "\n") }.count + 1
        assumptions.append(
            Diagnostic.Finding(
                line: line, column: invalid - lineStart + 1,
                message: .assumedWindows1252))
        return .windows1252
    }

    /// Whether the bytes hold at least one valid UTF-8 sequence of two or more bytes.
    static func hasMultibyteUTF8(_ bytes: [UInt8]) -> Bool {
        var index = 0
        while index < bytes.count {
            let lead = bytes[index]
            index += 1
            guard lead >= 0xC2, lead <= 0xF4 else { continue }
            let width = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
            guard index + width - 1 <= bytes.count else { return false }
            let tail = bytes[index..<index + width - 1]
            if tail.allSatisfy({ $0 & 0xC0 == 0x80 }) {
                var iterator = bytes[(index - 1)..<(index + width - 1)].makeIterator()
                var decoder = UTF8()
                if case .scalarValue = decoder.decode(&iterator) { return true }
            }
        }
        return false
    }

    /// Whether a file that is not valid UTF-8 is Windows-1252 text: it then holds no valid
    /// multi-byte UTF-8 sequence either.
    static func isWindows1252(_ bytes: [UInt8]) -> Bool {
        firstInvalidUTF8(bytes) != nil && !hasMultibyteUTF8(bytes)
    }

    /// The offset of the first byte that is not valid UTF-8.
    static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBufferPointer { firstInvalidUTF8($0) }
    }

    /// The offset of the first byte that is not valid UTF-8.
    static func firstInvalidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = 0
        let count = bytes.count
        while index < count {
            let lead = bytes[index]
            if lead < 0x80 {
                index = UnsafeRawBufferPointer(bytes).firstNonASCII(from: index + 1)
                continue
            }
            // The continuation bytes a lead byte takes, and the range of the first (which
            // rules out overlong forms, surrogates and scalars beyond U+10FFFF).
            let length: Int
            var second: ClosedRange<UInt8> = 0x80...0xBF
            switch lead {
            case 0xC2...0xDF: length = 1
            case 0xE0: (length, second) = (2, 0xA0...0xBF)
            case 0xED: (length, second) = (2, 0x80...0x9F)
            case 0xE1...0xEF: length = 2
            case 0xF0: (length, second) = (3, 0x90...0xBF)
            case 0xF1...0xF3: length = 3
            case 0xF4: (length, second) = (3, 0x80...0x8F)
            default: return index
            }
            guard index + length < count, second.contains(bytes[index + 1]) else { return index }
            for next in index + 2..<index + 1 + length where bytes[next] & 0xC0 != 0x80 {
                return index
            }
            index += 1 + length
        }
        return nil
    }
}
