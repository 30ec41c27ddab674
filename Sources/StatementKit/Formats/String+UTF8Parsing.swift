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
