/// A bank account, identified by its IBAN.
public struct Account: Hashable, Sendable {
    /// What an account is used for.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        case checking, savings, investment

        /// Reads a kind case-insensitively, such as `Checking`.
        public init?(parsing text: String) {
            self.init(rawValue: text.lowercased())
        }
    }

    /// The account's IBAN, its identity.
    public let iban: IBAN
    /// The account holder's name for the account, such as `Household`.
    public var name: String?
    /// The kind of account.
    public var kind: Kind
    /// The currency every transaction of the account is in.
    public let currency: Currency

    /// Creates an account.
    public init(iban: IBAN, name: String? = nil, kind: Kind = .checking, currency: Currency) {
        self.iban = iban
        self.name = name
        self.kind = kind
        self.currency = currency
    }
}
