extension Account {
    /// The account's name in an exported journal, one that hledger, ledger-cli and beancount
    /// all accept: `Assets:Bank:` (`Liabilities:Bank:` for a card account) and the account id
    /// (`Assets:Bank:DE89370400440532013000`, `Liabilities:Bank:Card:AMEX-1004`).
    package var exportName: String {
        (kind == .creditCard ? "Liabilities:Bank:" : "Assets:Bank:") + id.exportComponents
    }
}

extension AccountID {
    /// The id as account name components: an IBAN as it is; `scheme:value` as the scheme
    /// capitalised and the value in upper case with `/` as `-` and `.` as `dot` (so no two
    /// ids meet: values are upper case); a pocket's currency as a last component
    /// (`Name:WISE:USD`).
    var exportComponents: String {
        let text = base.text
        let pocket = self.pocket.map { ":" + $0.code } ?? ""
        guard let colon = text.firstIndex(of: ":") else { return text + pocket }
        let scheme = text[..<colon].split(separator: "-").map {
            $0.prefix(1).uppercased() + $0.dropFirst()
        }
        .joined(separator: "-")
        var value = ""
        for character in text[text.index(after: colon)...] {
            switch character {
            case "/": value += "-"
            case ".": value += "dot"
            default: value += character.uppercased()
            }
        }
        // A component starts with a capital letter or a digit (beancount).
        if value.first.map({ !$0.isUppercase && !$0.isNumber }) ?? true { value = "0" + value }
        return scheme + ":" + value + pocket
    }
}
