/// A bank account, identified by its IBAN.
package struct Account: Hashable, Sendable {
    /// What an account is used for.
    package enum Kind: String, Hashable, Sendable, CaseIterable {
        case checking, savings, investment

        /// Reads a kind case-insensitively, such as `Checking`.
        package init?(parsing text: String) {
            self.init(rawValue: text.lowercased())
        }
    }

    /// The account's IBAN, its identity.
    package let iban: IBAN
    /// The account holder's name for the account, such as `Household`.
    package var name: String?
    /// The kind of account.
    package var kind: Kind
    /// The currency every transaction of the account is in.
    package let currency: Currency

    /// Creates an account.
    package init(iban: IBAN, name: String? = nil, kind: Kind = .checking, currency: Currency) {
        self.iban = iban
        self.name = name
        self.kind = kind
        self.currency = currency
    }
}
