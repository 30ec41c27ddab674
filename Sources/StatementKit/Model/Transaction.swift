/// One booked movement on an account, as a bank statement lists it.
public struct Transaction: Hashable, Sendable {
    /// The booking day.
    public let date: Day
    /// The signed amount: negative for a debit, positive for a credit.
    public let amount: Money
    /// The counterparty's name; never blank.
    public let beneficiary: String
    /// The counterparty's account, when the bank gives it.
    public let beneficiaryIBAN: IBAN?
    /// The free text of the booking, when present.
    public let description: String?
    /// The payment reference (an invoice or mandate number …), when present: free text that
    /// need not be unique, kept and shown, and part of the content identity.
    public let reference: String?
    /// The bank's unique identifier of the booking (camt.053 `AcctSvcrRef`, OFX `FITID`, a
    /// column the bank documents as unique), when present: the transaction's identity.
    public let transactionID: String?

    /// Creates a transaction; the beneficiary must not be blank.
    public init(
        date: Day, amount: Money, beneficiary: String, beneficiaryIBAN: IBAN? = nil,
        description: String? = nil, reference: String? = nil, transactionID: String? = nil
    ) {
        assert(!beneficiary.allSatisfy(\.isWhitespace), "a transaction needs a beneficiary")
        self.date = date
        self.amount = amount
        self.beneficiary = beneficiary
        self.beneficiaryIBAN = beneficiaryIBAN
        self.description = description
        self.reference = reference
        self.transactionID = transactionID
    }
}
