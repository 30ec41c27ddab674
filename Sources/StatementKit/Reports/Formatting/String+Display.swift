extension String {
    /// The text with each Unicode scalar that `replacement` gives a text for replaced by it,
    /// the others kept: the one loop of the HTML, JSON and roff escapers. Scalar by scalar,
    /// not character by character, so that a quote that a combining mark follows (`"\u{301}`,
    /// one character) is still found.
    package func replacingScalars(_ replacement: (Unicode.Scalar) -> String?) -> String {
        var out = ""
        for scalar in unicodeScalars {
            if let text = replacement(scalar) {
                out += text
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// The most characters of one text a report shows; the ledger keeps the whole text.
    package static let reportFieldLimit = 1_000

    /// The text cut to `reportFieldLimit` characters with `…`, so that one huge field cannot
    /// blow a report up.
    package var reportField: String {
        guard utf8.count > Self.reportFieldLimit,
            let end = index(startIndex, offsetBy: Self.reportFieldLimit, limitedBy: endIndex),
            end < endIndex
        else { return self }
        return String(self[..<end]) + "…"
    }

    /// Calls `body` with `(text ?? "").reportField`: a text within the limit passed as it is,
    /// not copied.
    package static func withReportField(_ text: String?, _ body: (String) -> Void) {
        guard let text else { return body("") }
        body(text.utf8.count > reportFieldLimit ? text.reportField : text)
    }

    /// The text with control characters and bidirectional overrides replaced, so that a
    /// statement shows what it holds: line breaks and tabs become spaces, other controls and
    /// the bidi embedding, override and isolate controls become U+FFFD.
    package var neutralized: String {
        if isNeutral { return self }
        var out = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            switch scalar.value {
            case 0x09, 0x0A, 0x0D: out.append(" ")
            case 0x00..<0x20, 0x7F..<0xA0, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069:
                out.append("\u{FFFD}")
            default: out.append(scalar)
            }
        }
        return String(out)
    }

    /// Whether `neutralized` would leave the text as it is, decided from its UTF-8 bytes: no C0
    /// or C1 control, no DEL, no U+061C, U+200E, U+200F, U+202A–U+202E or U+2066–U+2069.
    package var isNeutral: Bool {
        // Most text is printable ASCII, which is neutral: one plain pass over the bytes.
        isPrintableASCII || withUTF8Bytes { Self.isNeutral(utf8: $0) }
    }

    /// Calls `body` with the text's UTF-8: a native string's own bytes, without a copy of
    /// the string (and its retain).
    func withUTF8Bytes<R>(_ body: (Span<UInt8>) -> R) -> R {
        body(utf8.span)
    }

    /// Whether UTF-8 text is neutral (see `isNeutral`) and holds no byte that is `special`:
    /// one pass.
    static func isNeutral(
        utf8: Span<UInt8>, avoiding special: (UInt8) -> Bool = { _ in false }
    ) -> Bool {
        var previous: (UInt8, UInt8) = (0, 0)
        for index in utf8.indices {
            let byte = utf8[index]
            if special(byte) { return false }
            switch byte {
            case 0..<0x20, 0x7F: return false
            case 0x80...0x9F where previous.1 == 0xC2: return false
            case 0x9C where previous.1 == 0xD8: return false
            case 0x8E, 0x8F,
                0xAA...0xAE where previous == (0xE2, 0x80):
                return false
            case 0xA6...0xA9 where previous == (0xE2, 0x81): return false
            default: break
            }
            previous = (previous.1, byte)
        }
        return true
    }

    /// Whether every byte is printable ASCII (space to `~`).
    var isPrintableASCII: Bool { isPrintableASCII(avoiding: { _ in false }) }

    /// Whether every byte is printable ASCII (space to `~`) and none is `special`: one pass.
    func isPrintableASCII(avoiding special: (UInt8) -> Bool) -> Bool {
        func check(_ bytes: Span<UInt8>) -> Bool {
            var outside: UInt8 = 0
            // Each byte's distance from the space, 0x5F or more when outside the range; no
            // early exit, so that the loop is a plain vectorisable reduction.
            for index in bytes.indices {
                let byte = bytes[index]
                outside |= (byte &- 0x20) >= 0x5F || special(byte) ? 1 : 0
            }
            return outside == 0
        }
        return withUTF8Bytes(check)
    }

    /// The number of terminal columns the text takes: 2 for East Asian wide characters and
    /// emoji, 0 for combining marks and other zero-width characters, 1 otherwise.
    package var displayWidth: Int {
        if isPrintableASCII { return utf8.count }
        if let width = withUTF8Bytes(Self.plainNarrowWidth) { return width }
        return reduce(0) { $0 + $1.displayWidth }
    }

    /// The text cut to at most `width` columns, ending in `…` when it was cut.
    package func truncated(toWidth width: Int) -> String {
        guard displayWidth > width else { return self }
        if isPrintableASCII {
            var bytes: [UInt8] = []
            withUTF8Bytes { Self.appendCutASCII($0, toWidth: width, to: &bytes) }
            return String(decoding: bytes, as: UTF8.self)
        }
        var out = ""
        var used = 0
        for character in self {
            let next = character.displayWidth
            guard used + next <= width - 1 else { break }
            out.append(character)
            used += next
        }
        return out + "…"
    }

    /// The text padded with spaces to `width` columns, on the right or (for numbers) the left.
    package func padded(toWidth width: Int, right: Bool = false) -> String {
        let padding = String(repeating: " ", count: Swift.max(0, width - displayWidth))
        return right ? padding + self : self + padding
    }
}

extension String {
    /// Appends printable ASCII cut to `width` columns, ending in `…`: what `truncated` makes
    /// of such a text wider than `width` (a column a character).
    static func appendCutASCII(
        _ utf8: Span<UInt8>, toWidth width: Int, to out: inout [UInt8]
    ) {
        out.append(utf8.extracting(first: Swift.max(0, width - 1)))
        out.append("…")
    }

    /// The count of Unicode scalars in UTF-8 text when every one is `isPlainNarrow` (its
    /// display width), else `nil`: decoded from the bytes, which a string holds valid.
    static func plainNarrowWidth(_ utf8: Span<UInt8>) -> Int? {
        var count = 0
        var index = 0
        while index < utf8.count {
            let lead = utf8[index]
            let (length, initial): (Int, UInt32) =
                switch lead {
                case 0..<0x80: (1, UInt32(lead))
                case 0xC0..<0xE0: (2, UInt32(lead & 0x1F))
                case 0xE0..<0xF0: (3, UInt32(lead & 0x0F))
                default: (4, UInt32(lead & 0x07))
                }
            guard index + length <= utf8.count else { return nil }
            var value = initial
            for offset in 1..<length {
                value = value << 6 | UInt32(utf8[index + offset] & 0x3F)
            }
            guard let scalar = Unicode.Scalar(value), scalar.isPlainNarrow else { return nil }
            count += 1
            index += length
        }
        return count
    }
}

extension Unicode.Scalar {
    /// Whether the scalar is one column wide on its own and never joins its neighbours: printable
    /// Latin, Greek and Cyrillic letters without combining marks, and the currency signs,
    /// spaces and punctuation that formatted amounts and dates use.
    var isPlainNarrow: Bool {
        switch value {
        case 0x20..<0x7F, 0xA0..<0x300, 0x370..<0x483, 0x2010...0x2027, 0x202F, 0x20A0...0x20C0,
            0x2212:
            true
        default: false
        }
    }
}

extension Character {
    /// The number of terminal columns the character takes; see `String.displayWidth`.
    var displayWidth: Int {
        let scalars = unicodeScalars
        guard let first = scalars.first else { return 0 }
        if scalars.contains(where: { $0.properties.isEmojiPresentation })
            || (scalars.contains("\u{FE0F}") && first.properties.isEmoji)
        {
            return 2
        }
        switch first.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return 0
        default: break
        }
        switch first.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6, 0x20000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }
}
