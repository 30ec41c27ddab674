import Foundation

/// The `:61:` entries of a statement, built into transactions with their `:86:`; its end.
extension MT940Parser.State {
    /// Reads a `:61:` line: `2610031003DR12,50NMSCNONREF//BANKREF123`.
    mutating func entry(_ field: MT940Parser.Field, column: Int) {
        summary.rowCount += 1
        let bytes = fieldText.line(0)
        func fail(_ what: String, at offset: Int) {
            report(
                .mt940Syntax(":61: \(what) in \(Self.quoted(bytes))"),
                line: field.line, column: column + offset)
        }
        guard let currency = statement!.currency else {
            let needed = statement!.isInterim ? ":34F:" : ":60F:"
            report(.elementMissing(needed, before: ":61:"), line: field.line, column: 1)
            return
        }
        guard bytes.count >= 6, let valueDate = Self.day(bytes[0..<6]) else {
            return fail("the value date (YYMMDD) is missing or not a day", at: 0)
        }
        var index = 6
        var date = valueDate
        // The entry date MMDD, in the value date's year or the one next to it.
        if bytes.count >= 10, bytes[6..<10].allSatisfy({ $0 &- 48 < 10 }) {
            let (month, day) = (Self.twoDigits(bytes, at: 6), Self.twoDigits(bytes, at: 8))
            var year = valueDate.year
            if month == 12 && valueDate.month == 1 { year -= 1 }
            if month == 1 && valueDate.month == 12 { year += 1 }
            guard let entryDate = try? Day(year: year, month: month, day: day) else {
                return fail("the entry date (MMDD) is not a day", at: 6)
            }
            date = entryDate
            index = 10
        }
        var isReversal = false
        if index < bytes.count, bytes[index] == UInt8(ascii: "R") {
            isReversal = true
            index += 1
        }
        guard index < bytes.count,
            bytes[index] == UInt8(ascii: "C") || bytes[index] == UInt8(ascii: "D")
        else {
            return fail("the mark C, D, RC or RD is missing", at: index)
        }
        let isDebit = bytes[index] == UInt8(ascii: "D")
        index += 1
        // An optional funds code: the third letter of the currency code.
        if index < bytes.count, bytes[index] >= 0x41, bytes[index] <= 0x5A { index += 1 }
        // The amount (15d) runs to the first letter, where the type code (1!a3!c) starts:
        // a point, a sign or a space stays in it and is reported, never taken for the type.
        let amountStart = index
        while index < bytes.count, !Self.isLetter(bytes[index]) { index += 1 }
        guard index > amountStart else { return fail("the amount is missing", at: amountStart) }
        guard
            var money = amount(
                bytes[amountStart..<index], currency, field, column: column + amountStart)
        else { return }
        // Money out: a debit, or the reversal of a credit.
        if isDebit != isReversal { money = money.negated }
        guard index + 4 <= bytes.count else {
            return fail("the transaction type (such as NTRF) is missing", at: index)
        }
        let typeCode = index..<index + 4
        guard Self.isTypeCode(bytes[typeCode]) else {
            report(
                .mt940TypeCode(Self.quoted(bytes[typeCode])), line: field.line,
                column: column + index)
            return
        }
        index += 4
        openEntry(
            bytes, field, date: date, amount: money, typeCode: typeCode, references: index)
    }

    /// Makes the `:61:` line the waiting entry, with the customer's reference from
    /// `references`, `//` and the bank's.
    mutating func openEntry(
        _ bytes: ArraySlice<UInt8>, _ field: MT940Parser.Field, date: Day, amount money: Money,
        typeCode: Range<Int>, references index: Int
    ) {
        // The customer's reference, `//` and the bank's.
        var split = index
        while split + 1 < bytes.count
            && !(bytes[split] == UInt8(ascii: "/") && bytes[split + 1] == UInt8(ascii: "/"))
        {
            split += 1
        }
        let hasBankReference = split + 1 < bytes.count
        entry = MT940Parser.Entry(
            line: field.line, date: date, amount: money,
            customerReference: Self.reference(
                bytes, index..<(hasBankReference ? split : bytes.count)),
            bankReference: hasBankReference
                ? Self.reference(bytes, split + 2..<bytes.count) : nil,
            typeCode: typeCode)
        swap(&entryText, &fieldText)
    }

    /// Builds the transaction of the waiting entry and hands it on.
    mutating func flushEntry(_ onRow: (ParsedRow) -> Void) {
        guard let entry else { return }
        self.entry = nil
        if statement!.isInterim {
            summary.notBookedCount += 1
            return
        }
        guard let account = statement!.account else {
            statement!.isValid = false
            return
        }
        let (total, overflow) = statement!.total.addingReportingOverflow(
            entry.amount.minorUnits)
        guard !overflow else {
            report(.sumOverflow, line: entry.line, column: 1)
            return
        }
        statement!.total = total
        let line = entryText.line(0)
        func text(_ range: Range<Int>?) -> String? {
            range.map { String(decoding: line[$0], as: UTF8.self) }
        }
        // The key of the bank's reference, hashed from its bytes: most rows never need
        // it as a string.
        let key = entry.bankReference.map { range in
            TransactionIdentity(prefix: statement!.idPrefix!, transactionID: line[range].span).hash
        }
        guard buildsRows else {
            // Checked, not built: only a transaction id given to two bookings can be wrong.
            if let key,
                let conflict = transactionIDs.check(
                    key: key, id: text(entry.bankReference)!, amount: entry.amount,
                    date: entry.date, line: entry.line)
            {
                report(conflict, line: entry.line, column: 1)
            }
            return
        }
        let information = entry.hasInformation ? informationText.joined() : nil
        let details = Information(information ?? [])
        let customerReference = text(entry.customerReference)
        let description =
            details.purpose ?? information.flatMap { $0.trimmedText }
            ?? entryText.joined(from: 1).trimmedText
        let beneficiary =
            details.name ?? description ?? customerReference ?? text(entry.typeCode)!
        let transaction = Transaction(
            date: entry.date, amount: entry.amount, beneficiary: beneficiary,
            beneficiaryIBAN: details.iban, description: description,
            reference: details.reference ?? customerReference,
            transactionID: text(entry.bankReference))
        if let key,
            let conflict = transactionIDs.check(
                key: key, id: transaction.transactionID!, amount: entry.amount,
                date: entry.date, line: entry.line)
        {
            report(conflict, line: entry.line, column: 1)
            return
        }
        onRow(ParsedRow(account: account, transaction: transaction, line: entry.line))
    }

    /// Ends the open statement: its last entry, and its balances reconciled.
    mutating func endStatement(_ onRow: (ParsedRow) -> Void) {
        guard var statement else { return }
        flushEntry(onRow)
        statement = self.statement!
        self.statement = nil
        summary.statementLines.append(statement.line)
        if statement.account == nil {
            // A `:25:` that was there is reported where it stands, as what is wrong with it.
            if !statement.hasAccountField {
                diagnostics.report(.elementMissing(":25:"), line: statement.line, column: 1)
            }
            return
        }
        if statement.opening == nil && !statement.isInterim {
            diagnostics.report(
                .elementMissing(":60F:"), line: statement.line, column: 1)
            return
        }
        guard let account = statement.account, let opening = statement.opening,
            statement.isValid
        else { return }
        if let previous = lastClosing[account.id], previous != opening.money {
            diagnostics.report(
                .openingAfterClosing(opening.money, previous: previous), line: opening.line,
                column: 1)
        }
        if summary.openingBalances[account.id] == nil {
            summary.openingBalances[account.id] = opening.money
        }
        // Final balances only: an intermediate one (`:60M:`, `:62M:`) may fall within a day.
        let stated: [(MT940Parser.Balance?, StatedBalance.Point)] = [
            (opening, .opening), (statement.closing, .closing),
        ]
        for case (let balance?, let point) in stated where balance.isFinal {
            summary.statedBalances.append(
                StatedBalance(
                    account: account, point: point, balance: balance.money,
                    line: balance.line, statementLine: statement.line, statedDay: balance.day))
        }
        guard let closing = statement.closing else {
            diagnostics.report(
                .elementMissing(":62F:"), line: statement.line, column: 1)
            return
        }
        lastClosing[account.id] = closing.money
        let computed = Money(
            minorUnits: opening.money.minorUnits &+ statement.total,
            currency: opening.money.currency)
        if computed != closing.money {
            diagnostics.report(
                .balance(
                    ":62F:",
                    .closingBalanceMismatch(declared: closing.money, computed: computed)),
                line: closing.line, column: 1)
        }
    }
}
