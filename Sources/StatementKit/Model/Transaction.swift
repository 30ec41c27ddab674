/// One booked movement on an account, as a bank statement lists it.
package struct Transaction: Hashable, Sendable {
    /// The booking day.
    package let date: Day
    /// The signed amount: negative for a debit, positive for a credit.
    package let amount: Money
    /// The counterparty's name; never blank.
    package let beneficiary: String
    /// The counterparty's account, when the bank gives it.
    package let beneficiaryIBAN: IBAN?
    /// The free text of the booking, when present.
    package let description: String?
    /// The payment reference (an invoice or mandate number …), when present: free text that
    /// need not be unique, kept and shown, and part of the content identity.
    package let reference: String?
    /// The bank's unique identifier of the booking (camt.053 `AcctSvcrRef`, OFX `FITID`, a
    /// column the bank documents as unique), when present: the transaction's identity.
    package let transactionID: String?

    /// Creates a transaction; the beneficiary must not be blank.
    package init(
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
