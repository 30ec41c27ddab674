import Foundation

/// Reads ISO 20022 bank-to-customer statements into validated transactions, streaming:
/// camt.053 (end-of-day statements), camt.052 (intraday reports) and camt.054 (debit and
/// credit notifications), message versions .001.02 to .001.13 (the element names are the
/// same in all; namespaces are ignored).
///
/// Per statement (`Stmt`, `Rpt` or `Ntfctn`, several per file): the account from
/// `Acct/Id/IBAN` or `Acct/Id/Othr/Id` (kept as `name:`), its currency from `Acct/Ccy`, the
/// opening balance (`OPBD`, or `PRCD`) and the closing one (`CLBD`), which the booked entries
/// must make. Per entry (`Ntry`): `Amt@Ccy`, `CdtDbtInd`, `RvslInd` (a reversal: the
/// indicator already gives the direction), `Sts` (plain or `Sts/Cd`: only `BOOK` is a
/// booking; `PDNG`, `INFO` and `FUTR` entries are counted as not booked and left out), the
/// booking date (`BookgDt/Dt` or the date of `BookgDt/DtTm`), `AcctSvcrRef` as the
/// transaction id. An entry whose `NtryDtls` hold several `TxDtls` with amounts of their own
/// (a batch) becomes one transaction per `TxDtls`, whose amounts must sum to the entry's;
/// otherwise the entry is one transaction, described by its only `TxDtls`: the counterparty
/// (`RltdPties`: the creditor of a debit, the debtor of a credit, `Nm` or `Pty/Nm`, and its
/// account's IBAN), the remittance information (`Ustrd`, joined; the structured creditor
/// reference `Strd/CdtrRefInf/Ref`, else `EndToEndId`, as the reference). All entries of a
/// camt.052 are intraday and left out as not booked, as an MT942's are.
///
/// The schema's shape is enforced where money depends on it: an element allowed once in its
/// parent (`Element.slot(in:)`) given twice is `ELEMENT_DUPLICATE` and its entry no row; an
/// `Ntry` or `Bal` anywhere but directly in its statement, a `TxDtls` outside `NtryDtls` or a
/// statement in a statement is `ELEMENT_MISPLACED`, and its content is not read. A damaged
/// counterparty IBAN is the warning `COUNTERPARTY_IBAN` (the bank booked the payment; the row
/// is kept without it); a value kept for a row over `maximumKeptText` is `TEXT_TOO_LONG`.
package struct CamtParser: Sendable {
    /// Whether valid rows are built and handed to `onRow`; `validate` checks them only, and
    /// keeps no text that only a built row uses (names, remittance information, references).
    var buildsRows = true
}

extension CamtParser: StatementParser {
    static let formatName = "ISO 20022 camt.052/053/054"
    static let readsUTF16 = true

    /// XML (`<` first) whose namespace names a camt message's schema, `camt.053.001.08`.
    static func recognizes(_ head: ArraySlice<UInt8>) -> Bool {
        head.firstNonBlank == UInt8(ascii: "<") && head.firstRange(of: Array("camt.05".utf8)) != nil
    }
}

extension CamtParser.State {
    /// Hands the reader's events to the state, to the end of the file or its first syntax
    /// error.
    mutating func read<Source: ByteSource>(_ source: Source, _ onRow: (ParsedRow) -> Void) {
        var reader = XMLReader(source: source, names: CamtParser.Element.names)
        readEvents { (state) throws(XMLSyntaxError) in
            while let event = try reader.next() { state.handle(event, &reader, onRow) }
        }
    }
}
