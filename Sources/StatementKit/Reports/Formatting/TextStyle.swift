/// How much a command says: errors only, a summary, or every file.
package enum Verbosity: Int, Comparable, Sendable {
    /// Errors only (`-q`).
    case quiet
    /// Problems and one summary (the default).
    case normal
    /// A line per file as well (`-v`).
    case verbose

    package static func < (lhs: Verbosity, rhs: Verbosity) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Colour for a terminal: ANSI escape sequences around the parts of a line worth seeing
/// first, or plain text.
package struct TextStyle: Sendable {
    /// Whether escape sequences are written.
    package let isColored: Bool

    /// Plain text.
    package static let plain = TextStyle(isColored: false)

    /// Creates a style.
    package init(isColored: Bool) {
        self.isColored = isColored
    }

    /// `text` in bold.
    package func bold(_ text: String) -> String { paint(text, "1") }
    /// `text` in bold red, as an error's severity.
    package func error(_ text: String) -> String { paint(text, "1;31") }
    /// `text` in bold yellow, as a warning's severity.
    package func warning(_ text: String) -> String { paint(text, "1;33") }
    /// `text` in bold cyan, as a diagnostic's code or a note.
    package func code(_ text: String) -> String { paint(text, "1;36") }

    private func paint(_ text: String, _ attributes: String) -> String {
        isColored ? "\u{1B}[\(attributes)m\(text)\u{1B}[0m" : text
    }
}
