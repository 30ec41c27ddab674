// The message catalogue: the banks' own formats (MT940, camt, OFX).

extension DiagnosticMessage {
    // The readers' reasons may name input (a tag, an element): escaped for a terminal.

    static func mt940Syntax(_ reason: String) -> Self {
        .init(.mt940Syntax, Diagnostic.sanitized(reason))
    }

    /// A `:61:` transaction type identification code (`1!a3!c`) outside SWIFT's characters.
    static func mt940TypeCode(_ code: String) -> Self {
        .init(
            .mt940TypeCode,
            ":61: transaction type \(code): not N, F or S and three capital letters or digits, such as NTRF"
        )
    }

    /// A mandatory field or element that a statement lacks; `before` names what needed it.
    static func elementMissing(_ element: String, before: String) -> Self {
        .init(.elementMissing, "\(element) must come before \(before)")
    }

    /// A mandatory field or element that a statement, an entry or a transaction lacks.
    static func elementMissing(_ element: String, in container: String = "the statement")
        -> Self
    {
        .init(.elementMissing, "\(container) has no \(element)")
    }

    /// A single-valued element given again in its parent.
    static func elementDuplicate(_ element: String, in parent: String) -> Self {
        .init(
            .elementDuplicate,
            "<\(element)> appears twice in <\(parent)>; it has one value, and neither is taken")
    }

    /// Two values of one thing that disagree, such as `TxDtls/Amt` and `AmtDtls/TxAmt/Amt`.
    static func elementsDisagree(_ first: String, _ second: String) -> Self {
        .init(.elementDuplicate, "\(first) and \(second) disagree; they give one value")
    }

    /// An element where the format does not allow it, such as an entry inside an entry.
    static func elementMisplaced(_ element: String, in parent: String, allowed: String) -> Self {
        .init(
            .elementMisplaced,
            "<\(element)> inside \(parent): it belongs directly in \(allowed)")
    }

    /// A counterparty's account that is not a valid IBAN, in a booking the bank made: the row
    /// is kept, without it.
    static func counterpartyIBAN(_ name: String, _ value: String, _ error: IBANError) -> Self {
        invalid(
            .counterpartyIBAN, name, value,
            "\(error.description); the bank booked the payment, so the row is kept without the counterparty's IBAN"
        )
    }

    /// Text over a reader's limit; `reason` names the text and the limit.
    static func textTooLong(_ reason: String) -> Self {
        .init(.textTooLong, Diagnostic.sanitized(reason))
    }

    /// A value kept for a row (a name, a description, a reference) longer than the limit.
    static func textTooLong(_ name: String, length: Int, limit: Int) -> Self {
        .init(
            .textTooLong,
            "\(name) is \(length.counted("byte")) long; a value kept for a row has at most \(limit.groupedText)"
        )
    }

    static func xmlSyntax(_ reason: String) -> Self {
        .init(.xmlSyntax, Diagnostic.sanitized(reason))
    }

    static func ofxSyntax(_ reason: String) -> Self {
        .init(.ofxSyntax, Diagnostic.sanitized(reason))
    }

    static func camtIndicator(_ element: String, _ found: String?) -> Self {
        .init(
            .elementMissing,
            found.map { "<CdtDbtInd> of \(element) is \(Diagnostic.quote($0)), not CRDT or DBIT" }
                ?? "\(element) has no <CdtDbtInd> (CRDT or DBIT)")
    }

    static func batchSum(_ sum: Money, entry: Money) -> Self {
        .init(
            .balanceClosing,
            "the transactions of this batch entry sum to \(sum.decimalText), the entry is \(entry.decimalText)"
        )
    }

    static func noStatement(format: String, first: String) -> Self {
        .init(.fileNoTransactions, "the \(format) file holds no statement (\(first))")
    }
}
