extension String {
    /// Calls a parser over raw bytes with this text's UTF-8, passing its typed error on.
    ///
    /// The `init(parsing: String)` initializers of the model types read text through their
    /// byte parsers with this.
    func parsingUTF8<T, E: Error>(_ parse: (UnsafeRawBufferPointer) throws(E) -> T) throws(E) -> T {
        var text = self
        let result = text.withUTF8 { utf8 -> Result<T, E> in
            do throws(E) {
                return .success(try parse(UnsafeRawBufferPointer(utf8)))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}

extension String {
    /// Whether the text is empty or white space only (Unicode's white space, such as a
    /// no-break space), answered from the first byte when that is a visible ASCII character.
    var isBlank: Bool {
        if let first = utf8.first, first > 0x20, first < 0x7F { return false }
        return allSatisfy(\.isWhitespace)
    }
}

/// The no-break spaces that banks write between digit groups and inside IBANs.
enum NoBreakSpace {
    /// The UTF-8 length of a U+00A0 NO-BREAK SPACE or U+202F NARROW NO-BREAK SPACE that starts
    /// at `index` (before `end`), or `nil` when none does; never the first byte of `€` or `£`.
    static func length<Bytes: RandomAccessCollection>(
        in bytes: Bytes, at index: Int, end: Int? = nil
    ) -> Int? where Bytes.Element == UInt8, Bytes.Index == Int {
        let end = end ?? bytes.endIndex
        if index + 1 < end && bytes[index] == 0xC2 && bytes[index + 1] == 0xA0 { return 2 }
        if index + 2 < end && bytes[index] == 0xE2 && bytes[index + 1] == 0x80
            && bytes[index + 2] == 0xAF
        {
            return 3
        }
        return nil
    }
}
