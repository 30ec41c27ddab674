extension String {
    /// Whether the text is empty or white space only (Unicode's white space, such as a
    /// no-break space), answered from the first byte when that is a visible ASCII character.
    var isBlank: Bool {
        if let first = utf8.first, first > 0x20, first < 0x7F { return false }
        return allSatisfy(\.isWhitespace)
    }
}
