extension Transaction {
    /// The description as a statement shows it beside the beneficiary: without the
    /// beneficiary's name where it begins with it, `nil` when nothing else is left.
    ///
    /// Card statements often repeat the merchant as the description (`NETFLIX.COM` twice,
    /// `Acme Corp` and `ACME CORP PAYROLL PPD ID: 1234567`): each is then shown once. The name
    /// counts as a prefix only as a whole word, in any case (`Interest` and `INTEREST PAYMENT`
    /// give `PAYMENT`; `Shell` and `SHELLFISH BAR` keep the description), and the spaces and
    /// separators after it (`-`, `:`, `,`, `/`, `·`) go with it.
    package var descriptionBesideBeneficiary: String? {
        guard let description else { return nil }
        if description == beneficiary { return nil }
        let end: String.Index
        if description.utf8.starts(with: beneficiary.utf8) {
            end = description.utf8.index(
                description.utf8.startIndex, offsetBy: beneficiary.utf8.count)
        } else {
            // Most descriptions differ from the name at their first letter, in any case: no
            // Foundation search for them.
            guard let first = description.unicodeScalars.first,
                let name = beneficiary.unicodeScalars.first,
                first.properties.lowercaseMapping == name.properties.lowercaseMapping,
                let prefix = description.range(
                    of: beneficiary, options: [.anchored, .caseInsensitive])
            else { return description }
            end = prefix.upperBound
        }
        let rest = description.unicodeScalars[end...]
        // The name must end at a word's end: `SHELL` is no prefix of `SHELLFISH`.
        if let next = rest.first, Self.continuesWord(next) { return description }
        let shown = rest.drop {
            $0.properties.isWhitespace || "-–—:,;/·|".unicodeScalars.contains($0)
        }
        return shown.isEmpty ? nil : String(shown)
    }

    /// Whether a character after a name makes it part of a longer word: a letter, a digit or
    /// a combining mark.
    private static func continuesWord(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return scalar.properties.isAlphabetic || scalar.properties.numericType != nil
        }
    }
}
