/// A transaction's fields with its texts as UTF-8 bytes, lent for the length of one call: what
/// the ledger encodes (`LedgerRecord`) and the identity hashes (`TransactionIdentity`).
///
/// An import reads a canonical CSV row's texts straight from the file's buffer into it, and
/// any other row from its built `Transaction` (`withFields`), so the two ways give the same
/// ledger bytes and identities by construction: both go through the same encoder and hasher.
struct TransactionFields {
    let date: Day
    let amount: Money
    /// The counterparty's name as it stands: never blank.
    let beneficiary: UnsafeRawBufferPointer
    let beneficiaryIBAN: IBAN?
    let description: UnsafeRawBufferPointer?
    let reference: UnsafeRawBufferPointer?
    let transactionID: UnsafeRawBufferPointer?
}

extension Transaction {
    /// Calls `body` with the transaction's fields, its texts lent as their UTF-8.
    func withFields<R>(_ body: (TransactionFields) -> R) -> R {
        withUTF8(beneficiary) { beneficiary in
            withUTF8(description) { description in
                withUTF8(reference) { reference in
                    withUTF8(transactionID) { transactionID in
                        body(
                            TransactionFields(
                                date: date, amount: amount, beneficiary: beneficiary!,
                                beneficiaryIBAN: beneficiaryIBAN, description: description,
                                reference: reference, transactionID: transactionID))
                    }
                }
            }
        }
    }
}

/// Calls `body` with the UTF-8 of a text, or with `nil` for none.
private func withUTF8<R>(_ text: String?, _ body: (UnsafeRawBufferPointer?) -> R) -> R {
    guard var text else { return body(nil) }
    return text.withUTF8 { body(UnsafeRawBufferPointer($0)) }
}
