import Foundation

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
        // Most descriptions differ from the name at their first letter: no Foundation search.
        guard let first = description.unicodeScalars.first,
            let name = beneficiary.unicodeScalars.first,
            first == name
                || first.properties.lowercaseMapping == name.properties.lowercaseMapping
        else { return description }
        guard
            let prefix = description.range(
                of: beneficiary, options: [.anchored, .caseInsensitive])
        else { return description }
        let rest = description[prefix.upperBound...]
        // The name must end at a word's end: `SHELL` is no prefix of `SHELLFISH`.
        if let next = rest.unicodeScalars.first,
            next.properties.isAlphabetic || next.properties.numericType != nil
        {
            return description
        }
        let separators = CharacterSet.whitespacesAndNewlines.union(
            CharacterSet(charactersIn: "-–—:,;/·|"))
        let shown = rest.unicodeScalars.drop(while: separators.contains)
        return shown.isEmpty ? nil : String(shown)
    }
}
