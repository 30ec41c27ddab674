extension String {
    /// The text as one line an exported journal shows as it is: control characters,
    /// bidirectional overrides and line or paragraph separators neutralised (line breaks and
    /// tabs as spaces), runs of spaces as one, no space at either end, and each character of
    /// `replacements` replaced (`;` begins a comment in hledger, `|` splits its payee).
    ///
    /// - Complexity: one pass over the bytes for printable ASCII that needs no change.
    func exportLine(replacing replacements: [Character: String] = [:]) -> String {
        if isPlainExportLine(avoiding: replacements) { return self }
        var out = ""
        out.reserveCapacity(utf8.count)
        var pendingSpace = false
        for character in neutralized {
            if character == " " || character == "\u{2028}" || character == "\u{2029}" {
                pendingSpace = !out.isEmpty
                continue
            }
            if pendingSpace {
                out.append(" ")
                pendingSpace = false
            }
            if let replacement = replacements[character] {
                out += replacement
            } else {
                out.append(character)
            }
        }
        return out
    }

    /// Whether `exportLine` would leave the text as it is, checked on printable ASCII only.
    private func isPlainExportLine(avoiding replacements: [Character: String]) -> Bool {
        var previous: UInt8 = UInt8(ascii: " ")
        for byte in utf8 {
            guard byte >= 0x20, byte < 0x7F, !(byte == 0x20 && previous == 0x20) else {
                return false
            }
            if !replacements.isEmpty && replacements[Character(Unicode.Scalar(byte))] != nil {
                return false
            }
            previous = byte
        }
        return previous != 0x20
    }

    /// The text as a beancount string literal: an export line in quotes, with `\` and `"`
    /// escaped by a backslash.
    var beancountString: String {
        var out = "\""
        for character in exportLine() {
            if character == "\"" || character == "\\" { out.append("\\") }
            out.append(character)
        }
        return out + "\""
    }
}
