import Foundation

/// The entries of a camt statement, each built into one transaction or one per batch part.
extension CamtParser.State {
    /// Builds the transactions of an entry just ended (taken out of the state), with its
    /// `TxDtls` (`entryDetails`).
    mutating func endEntry(_ entry: consuming CamtParser.Entry, _ onRow: (ParsedRow) -> Void) {
        guard statement != nil else { return }
        summary.rowCount += 1
        guard diagnostics.errorCount == entry.errorsBefore else { return }
        // The status is mandatory: an entry without one is not taken for a booking.
        guard let status = entry.status else {
            report(.elementMissing("<Sts>", in: "<Ntry>"), line: entry.line, column: 1)
            return
        }
        // An entry left out as not booked still has the amount the schema requires.
        guard entry.amount.text != nil else {
            report(.elementMissing("<Amt>", in: "the entry"), line: entry.line, column: 1)
            return
        }
        if statement!.isInterim || status != "BOOK" {
            summary.notBookedCount += 1
            return
        }
        guard let account = account(firstAmount: entry.amount.currency) else { return }
        guard let date = entry.bookingDate else {
            report(.elementMissing("<BookgDt>", in: "<Ntry>"), line: entry.line, column: 1)
            return
        }
        // `DtTm` is the day as written, before its time.
        let bytes = date.text.utf8
        let day = try? Day(parsing: bytes.span.extracting(first: 10))
        guard let day, bytes.count == 10 || Self.startsTime(date.text) else {
            report(
                .date("BookgDt", Diagnostic.quote(date.text), .malformed, format: nil), at: date
            )
            return
        }
        guard
            let total = money(entry.amount, account: account, element: "Amt", at: entry.line)
        else { return }
        let details = entryDetails
        // A batch: one transaction per TxDtls with an amount, summing to the entry's.
        guard details.count > 1, details.allSatisfy({ $0.amount.text != nil }) else {
            // The entry itself, described by its only TxDtls.
            _ = addRow(
                details.first ?? CamtParser.Details(), total, index: 0, of: 1, entry, day: day,
                account: account, onRow)
            return
        }
        guard let parts = batch(details, of: entry, total: total, account: account) else {
            return
        }
        for (index, (part, amount)) in parts.enumerated() {
            guard
                addRow(
                    part, amount, index: index, of: parts.count, entry, day: day,
                    account: account, onRow)
            else { return }
        }
    }

    /// Whether the character after a date's 10 bytes is `T`: the byte, when an ASCII byte or
    /// nothing follows it (which cannot join it into another character).
    static func startsTime(_ text: String) -> Bool {
        let bytes = text.utf8.span
        guard bytes.count > 10, bytes[10] == UInt8(ascii: "T") else { return false }
        guard bytes.count > 11, bytes[11] >= 0x80 else { return true }
        return text.dropFirst(10).first == "T"
    }

    /// The parts of a batch, one per TxDtls (each with an amount), summing to the entry's;
    /// `nil` when a part's amount or the sum is wrong.
    mutating func batch(
        _ details: [CamtParser.Details], of entry: CamtParser.Entry, total: Money,
        account: Account
    ) -> [(CamtParser.Details, Money)]? {
        var list: [(CamtParser.Details, Money)] = []
        for part in details {
            var stated = part.amount
            stated.indicator = stated.indicator ?? entry.amount.indicator
            guard
                let amount = money(
                    stated, account: account, element: "TxDtls/Amt", at: entry.line)
            else { return nil }
            list.append((part, amount))
        }
        let sum = list.reduce(Int64(0)) { $0 &+ $1.1.minorUnits }
        guard sum == total.minorUnits else {
            report(
                .batchSum(Money(minorUnits: sum, currency: total.currency), entry: total),
                line: entry.line, column: 1)
            return nil
        }
        return list
    }

    /// Builds and hands on the transaction of one part of an entry: `false` when the
    /// statement's total overflows, which ends the entry.
    mutating func addRow(
        _ part: CamtParser.Details, _ amount: Money, index: Int, of count: Int,
        _ entry: CamtParser.Entry, day: Day, account: Account, _ onRow: (ParsedRow) -> Void
    ) -> Bool {
        let (total, overflow) = statement!.total.addingReportingOverflow(amount.minorUnits)
        guard !overflow else {
            report(.sumOverflow, line: entry.line, column: 1)
            return false
        }
        statement!.total = total
        let isDebit = amount.minorUnits < 0
        // The counterparty's `<IBAN>` is checked as every IBAN is; a damaged one is
        // reported where it stands (a warning: the bank booked the payment, and the
        // row is kept, without it).
        var counterpartyIBAN: IBAN?
        if let given = isDebit ? part.creditorIBAN : part.debtorIBAN {
            do throws(IBANError) {
                counterpartyIBAN = try IBAN(parsing: given.text)
            } catch {
                let element = isDebit ? "CdtrAcct/Id/IBAN" : "DbtrAcct/Id/IBAN"
                report(
                    .counterpartyIBAN(element, Diagnostic.quote(given.text), error),
                    at: given)
            }
        }
        let id: String? =
            count > 1
            ? (part.reference ?? entry.serviceReference.map { "\($0)/\(index + 1)" })
            : (entry.serviceReference ?? part.reference)
        guard buildsRows else {
            // Checked, not built: only a transaction id given to two bookings can be
            // wrong.
            if let id,
                let conflict = transactionIDs.check(
                    id: id, amount: amount, date: day, account: account.id,
                    line: entry.line)
            {
                report(conflict, line: entry.line, column: 1)
            }
            return true
        }
        let name = isDebit ? part.creditorName : part.debtorName
        let description =
            part.unstructured.isEmpty
            ? (part.additional ?? entry.additional)
            : part.unstructured.joined(separator: " ")
        let endToEnd = part.endToEndID.flatMap {
            $0.uppercased() == "NOTPROVIDED" ? nil : $0
        }
        let transaction = Transaction(
            date: day, amount: amount,
            beneficiary: name ?? description ?? entry.additional ?? "(no counterparty)",
            beneficiaryIBAN: counterpartyIBAN, description: description,
            reference: part.creditorReference ?? endToEnd, transactionID: id)
        if let conflict = transactionIDs.check(
            transaction, account: account.id, line: entry.line)
        {
            report(conflict, line: entry.line, column: 1)
            return true
        }
        onRow(ParsedRow(account: account, transaction: transaction, line: entry.line))
        return true
    }
}
