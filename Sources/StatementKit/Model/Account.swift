/// A bank or card account, identified by its IBAN or another account id.
package struct Account: Hashable, Sendable {
    /// What an account is used for.
    package enum Kind: String, Hashable, Sendable, CaseIterable {
        case checking, savings, investment
        /// A card account: its balance is what is owed (negative while money is owed).
        case creditCard = "credit-card"

        /// Reads a kind case-insensitively, such as `Checking`.
        package init?(parsing text: String) {
            self.init(rawValue: text.lowercased())
        }
    }

    /// The account's identity: its IBAN, or another id where the bank uses none.
    package let id: AccountID
    /// The account holder's name for the account, such as `Household`.
    package var name: String?
    /// The kind of account.
    package var kind: Kind
    /// The currency every transaction of the account is in.
    package let currency: Currency

    /// Creates an account.
    package init(id: AccountID, name: String? = nil, kind: Kind = .checking, currency: Currency) {
        self.id = id
        self.name = name
        self.kind = kind
        self.currency = currency
    }
}
