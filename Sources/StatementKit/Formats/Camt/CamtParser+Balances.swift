import Foundation

/// A statement's account and amounts, and its balances checked at its end.
extension CamtParser.State {
    /// The statement's account, checked once, when its first entry or its end needs it;
    /// without `Acct/Ccy`, in the currency of the first amount (`entryCurrency`, that of
    /// the entry being read, when there is one).
    mutating func account(firstAmount entryCurrency: String? = nil) -> Account? {
        guard let statement, !statement.accountChecked else { return statement?.account }
        self.statement!.accountChecked = true
        var currency: Currency?
        if let code = statement.stated.currency {
            currency = Currency(code: code.text)
            guard currency != nil else {
                report(.currency("Acct/Ccy", Diagnostic.quote(code.text)), at: code)
                return nil
            }
        }
        currency =
            currency ?? entryCurrency.flatMap { Currency(code: $0) }
            ?? statement.balances.first?.amount.currency.flatMap { Currency(code: $0) }
        let id: AccountID
        if let iban = statement.stated.iban {
            do throws(IBANError) {
                id = AccountID(try IBAN(parsing: iban.text))
            } catch {
                report(.iban("Acct/Id/IBAN", Diagnostic.quote(iban.text), error), at: iban)
                return nil
            }
        } else if let other = statement.stated.otherID {
            do throws(AccountIDParseError) {
                id = try AccountID(accountNumber: other.text)
            } catch {
                report(
                    .accountID("Acct/Id/Othr/Id", Diagnostic.quote(other.text), error),
                    at: other)
                return nil
            }
        } else {
            report(
                .elementMissing("<Acct><Id>"), line: statement.start.line,
                column: statement.start.column)
            return nil
        }
        guard let currency else {
            report(
                .elementMissing("<Acct><Ccy>"), line: statement.start.line,
                column: statement.start.column)
            return nil
        }
        self.statement!.account = Account(
            id: id, name: nil, kind: .checking, currency: currency)
        return self.statement!.account
    }

    /// An amount in a currency, with its sign from a `CRDT`/`DBIT` indicator.
    mutating func money(
        _ stated: CamtParser.StatedAmount, account: Account, element: String, at fallback: Int
    ) -> Money? {
        let (code, indicator) = (stated.currency, stated.indicator)
        guard let amount = stated.text else {
            report(.elementMissing("<\(element)>", in: "the entry"), line: fallback, column: 1)
            return nil
        }
        guard let code, let currency = Currency(code: code) else {
            report(.currency("\(element)@Ccy", Diagnostic.quote(code ?? "")), at: amount)
            return nil
        }
        guard currency == account.currency else {
            report(
                .rowCurrency(
                    "\(element)@Ccy", Diagnostic.quote(code), accountCurrency: account.currency),
                at: amount)
            return nil
        }
        let result = Result { () throws(AmountError) in
            try Money(parsing: amount.text, currency: currency)
        }
        switch result {
        case .success(let money) where money.minorUnits >= 0:
            switch indicator {
            case "DBIT": return money.negated
            case "CRDT": return money
            default:
                report(.camtIndicator(element, indicator), at: amount)
                return nil
            }
        case .success:
            report(
                .amount(
                    element, Diagnostic.quote(amount.text), .malformed, currency: currency,
                    example: nil), at: amount)
        case .failure(let error):
            report(
                .amount(
                    element, Diagnostic.quote(amount.text), error, currency: currency,
                    example: nil), at: amount)
        }
        return nil
    }

    mutating func endStatement() {
        defer { statement = nil }
        guard statement != nil else { return }
        summary.statementLines.append(statement!.start.line)
        guard let account = account(), statement!.isValid else { return }
        var opening: Money?
        var closing: (Money, Int)?
        var stated: [StatedBalance] = []
        for balance in statement!.balances {
            guard let type = balance.type, ["OPBD", "PRCD", "CLBD"].contains(type) else {
                continue
            }
            guard
                let money = money(
                    balance.amount, account: account, element: "Bal/Amt", at: balance.line)
            else { return }
            if type == "CLBD" {
                closing = (money, balance.line)
            } else if opening == nil || type == "OPBD" {
                opening = money
            }
            let day = balance.date.flatMap { try? Day(parsing: $0) }
            // `OPBD` before `PRCD`, as for the opening balance above.
            if type == "OPBD" { stated.removeAll { $0.point == .opening } }
            if type == "CLBD" || !stated.contains(where: { $0.point == .opening }) {
                stated.append(
                    StatedBalance(
                        account: account, point: type == "CLBD" ? .closing : .opening,
                        balance: money, line: balance.line, statementLine: statement!.start.line,
                        statedDay: day))
            }
        }
        summary.statedBalances += stated
        if let opening, summary.openingBalances[account.id] == nil {
            summary.openingBalances[account.id] = opening
        }
        guard let opening, let (closing, line) = closing, !statement!.isInterim else { return }
        let computed = Money(
            minorUnits: opening.minorUnits &+ statement!.total, currency: opening.currency)
        if computed != closing {
            report(
                .balance(
                    "CLBD", .closingBalanceMismatch(declared: closing, computed: computed)),
                line: line, column: 1)
        }
    }
}
