extension String {
    /// The text as one line an exported journal shows as it is: control characters,
    /// bidirectional overrides and line or paragraph separators neutralised (line breaks and
    /// tabs as spaces), runs of spaces as one, no space at either end, and each ASCII character
    /// of `replacements` replaced (`;` begins a comment in hledger, `|` splits its payee).
    ///
    /// - Complexity: one pass over the bytes for printable ASCII that needs no change.
    func exportLine(replacing replacements: [UInt8: String] = [:]) -> String {
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
            if let ascii = character.asciiValue, let replacement = replacements[ascii] {
                out += replacement
            } else {
                out.append(character)
            }
        }
        return out
    }

    /// Appends `exportLine(replacing:)`'s bytes: plain text as it is, without another string.
    func appendExportLine(replacing replacements: [UInt8: String] = [:], to out: inout [UInt8]) {
        if isPlainExportLine(avoiding: replacements) {
            out.append(utf8: self)
        } else {
            out.append(utf8: exportLine(replacing: replacements))
        }
    }

    /// Whether `exportLine` would leave the text as it is, checked on printable ASCII only.
    private func isPlainExportLine(avoiding replacements: [UInt8: String]) -> Bool {
        withUTF8Bytes { bytes in
            var previous: UInt8 = UInt8(ascii: " ")
            for index in bytes.indices {
                let byte = bytes[index]
                guard byte >= 0x20, byte < 0x7F, !(byte == 0x20 && previous == 0x20) else {
                    return false
                }
                if !replacements.isEmpty && replacements[byte] != nil { return false }
                previous = byte
            }
            return previous != 0x20
        }
    }

    /// The text as a beancount string literal: an export line in quotes, with `\` and `"`
    /// escaped by a backslash.
    var beancountString: String {
        var bytes: [UInt8] = []
        appendBeancountString(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `beancountString`'s bytes.
    func appendBeancountString(to out: inout [UInt8]) {
        let (quote, backslash) = (UInt8(ascii: "\""), UInt8(ascii: "\\"))
        out.append(quote)
        if isPlainExportLine(avoiding: Self.beancountEscapes) {
            out.append(utf8: self)
        } else {
            for byte in exportLine().utf8 {
                if byte == quote || byte == backslash { out.append(backslash) }
                out.append(byte)
            }
        }
        out.append(quote)
    }

    /// The characters a beancount string escapes (as keys: the plain check avoids them).
    private static let beancountEscapes: [UInt8: String] = [
        UInt8(ascii: "\""): "\\\"", UInt8(ascii: "\\"): "\\\\",
    ]
}
