/// A character encoding that bank exports are written in.
package enum TextEncoding: String, CaseIterable, Hashable, Sendable {
    case utf8 = "utf-8"
    case utf16LE = "utf-16le"
    case utf16BE = "utf-16be"
    case windows1252 = "windows-1252"
    case latin1 = "iso-8859-1"
    case latin9 = "iso-8859-15"

    /// Finds the encoding a byte order mark announces.
    ///
    /// - Returns: the encoding and the length of the mark, or `nil` without one.
    static func byteOrderMark(of bytes: some Collection<UInt8>) -> (TextEncoding, Int)? {
        let head = Array(bytes.prefix(3))
        if head.starts(with: [0xEF, 0xBB, 0xBF]) { return (.utf8, 3) }
        if head.starts(with: [0xFF, 0xFE]) { return (.utf16LE, 2) }
        if head.starts(with: [0xFE, 0xFF]) { return (.utf16BE, 2) }
        return nil
    }

    /// The byte that stands in the UTF-8 output for input that is not valid in the encoding.
    ///
    /// 0xFF never occurs in UTF-8, so the CSV reader reports it, at its line and column in
    /// the decoded text, as it reports invalid UTF-8.
    static let invalidMarker: UInt8 = 0xFF

    /// Transcodes text in this encoding to UTF-8, dropping a byte order mark.
    ///
    /// Sequences that are not valid in the encoding (an undefined Windows-1252 byte, a lone
    /// UTF-16 surrogate, an odd trailing byte) become `invalidMarker`. UTF-8 input is copied
    /// unchanged apart from its mark, and the CSV reader checks it.
    func utf8(from bytes: [UInt8]) -> [UInt8] {
        var input = bytes[...]
        if let (marked, length) = Self.byteOrderMark(of: bytes), marked == self {
            input = input.dropFirst(length)
        }
        switch self {
        case .utf8: return Array(input)
        case .utf16LE, .utf16BE: return Self.utf8(fromUTF16: input, bigEndian: self == .utf16BE)
        case .windows1252, .latin1, .latin9:
            // The UTF-8 of bytes 0x80–0xFF, looked up rather than encoded byte by byte.
            let table = singleByteTable.map {
                $0.map { Array(String($0).utf8) } ?? [Self.invalidMarker]
            }
            var output: [UInt8] = []
            output.reserveCapacity(input.count + input.count / 8)
            for byte in input {
                if byte < 0x80 {
                    output.append(byte)
                } else {
                    output.append(contentsOf: table[Int(byte) - 0x80])
                }
            }
            return output
        }
    }

    private static func utf8(fromUTF16 input: ArraySlice<UInt8>, bigEndian: Bool) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(input.count)
        var index = input.startIndex
        func unit(at index: Int) -> UInt16 {
            let (first, second) = (UInt16(input[index]), UInt16(input[index + 1]))
            return bigEndian ? first << 8 | second : second << 8 | first
        }
        while index + 1 < input.endIndex {
            let high = unit(at: index)
            index += 2
            var value = UInt32(high)
            if (0xD800...0xDBFF).contains(high), index + 1 < input.endIndex,
                case let low = unit(at: index), (0xDC00...0xDFFF).contains(low)
            {
                value = 0x10000 + (UInt32(high - 0xD800) << 10) + UInt32(low - 0xDC00)
                index += 2
            }
            if let scalar = Unicode.Scalar(value) {
                output.append(contentsOf: String(scalar).utf8)
            } else {
                output.append(invalidMarker)
            }
        }
        if index < input.endIndex { output.append(invalidMarker) }
        return output
    }

    /// The characters of bytes 0x80–0xFF in a single-byte encoding; `nil` where undefined.
    private var singleByteTable: [Unicode.Scalar?] {
        var table = (0x80...0xFF).map { Unicode.Scalar(UInt32($0)) }
        switch self {
        case .windows1252:
            let high: [UInt32?] = [
                0x20AC, nil, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
                0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, nil, 0x017D, nil,
                nil, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
                0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, nil, 0x017E, 0x0178,
            ]
            for (offset, value) in high.enumerated() {
                table[offset] = value.flatMap(Unicode.Scalar.init)
            }
        case .latin9:
            let changes: [Int: UInt32] = [
                0xA4: 0x20AC, 0xA6: 0x0160, 0xA8: 0x0161, 0xB4: 0x017D, 0xB8: 0x017E,
                0xBC: 0x0152, 0xBD: 0x0153, 0xBE: 0x0178,
            ]
            for (byte, value) in changes { table[byte - 0x80] = Unicode.Scalar(value) }
        default:
            break
        }
        return table
    }
}

extension Dialect {
    /// The file's text as the CSV reader takes it: transcoded to UTF-8, without the last
    /// `footerLines` non-empty lines.
    func text(of bytes: [UInt8]) -> (body: [UInt8], footer: [UInt8]) {
        splittingFooter(encoding.utf8(from: bytes))
    }

    /// Decoded text cut before its last `footerLines` non-empty lines: the body, and the
    /// footer lines.
    func splittingFooter(_ text: consuming [UInt8]) -> (body: [UInt8], footer: [UInt8]) {
        guard footerLines > 0 else { return (text, []) }
        var end = text.count
        let isLineEnd = { (byte: UInt8) in byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
        }
        for _ in 0..<footerLines {
            while end > 0 && isLineEnd(text[end - 1]) { end -= 1 }
            while end > 0 && !isLineEnd(text[end - 1]) { end -= 1 }
        }
        let footer = Array(text[end...])
        text.removeSubrange(end...)
        return (text, footer)
    }
}
