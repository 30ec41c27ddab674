/// The transactions of statement JSON: each object read into fields, checked, handed on.
extension StatementJSONParser.Decoder {
    /// Checks one transaction of a statement whose account is known.
    mutating func row(
        _ fields: borrowing TransactionFields, account: Account, _ state: inout StatementState,
        onRow: (ParsedRow) -> Void
    ) {
        if !state.hasStartedRows {
            state.hasStartedRows = true
            resolveBalances(account, &state)
            state.balance = RunningBalance(opening: state.opening)
            state.total = .zero(account.currency)
        }
        let index = state.rowIndex
        state.rowIndex += 1
        guard let (transaction, declared) = transaction(fields, index: index, account: account)
        else {
            state.isValid = false
            state.balance.skipUnreadableRow()
            if state.firstDeclared == nil { state.hasUnreadableRowBeforeDeclared = true }
            return
        }
        if let total = state.total { state.total = try? total.adding(transaction.amount) }
        if state.firstDeclared == nil, let declared, let sum = state.total {
            state.firstDeclared = (sum, declared, fields.position)
        }
        let line = fields.position.line
        if let mismatch = state.balance.add(
            transaction.amount, declared: declared, day: transaction.date, line: line)
        {
            report(
                .balance("transactions[\(index)].balance", mismatch),
                at: fields.balance?.position ?? amountPosition(fields))
        }
        if let conflict = transactionIDs.check(transaction, account: account.id, line: line) {
            report(conflict, at: fields.position)
        }
        onRow(ParsedRow(account: account, transaction: transaction, line: line))
    }

    private func amountPosition(_ fields: TransactionFields) -> SourcePosition {
        fields.amount?.position ?? fields.position
    }

    /// The members of one transaction object, by key: what the reader keeps of a transaction.
    struct TransactionFields {
        let position: SourcePosition
        var date, amount, currency, beneficiary, beneficiaryIBAN: JSONNode?
        var description, reference, transactionID, balance: JSONNode?
        /// Whether the object was read without a structural problem (wrong kind, a key twice,
        /// a required key missing), each already reported.
        var isComplete = true

        /// The known keys of a transaction object.
        enum Slot {
            case date, amount, currency, beneficiary, beneficiaryIBAN, description, reference
            case transactionID, balance

            init?(key: String) {
                switch key {
                case "date": self = .date
                case "amount": self = .amount
                case "currency": self = .currency
                case "beneficiary": self = .beneficiary
                case "beneficiaryIban": self = .beneficiaryIBAN
                case "description": self = .description
                case "reference": self = .reference
                case "transactionId": self = .transactionID
                case "balance": self = .balance
                default: return nil
                }
            }
        }

        subscript(slot: Slot) -> JSONNode? {
            get {
                switch slot {
                case .date: date
                case .amount: amount
                case .currency: currency
                case .beneficiary: beneficiary
                case .beneficiaryIBAN: beneficiaryIBAN
                case .description: description
                case .reference: reference
                case .transactionID: transactionID
                case .balance: balance
                }
            }
            set {
                switch slot {
                case .date: date = newValue
                case .amount: amount = newValue
                case .currency: currency = newValue
                case .beneficiary: beneficiary = newValue
                case .beneficiaryIBAN: beneficiaryIBAN = newValue
                case .description: description = newValue
                case .reference: reference = newValue
                case .transactionID: transactionID = newValue
                case .balance: balance = newValue
                }
            }
        }
    }

    /// Reads one element of a `transactions` array, reporting a wrong kind, duplicate,
    /// unknown and missing keys.
    mutating func transactionFields<Source: ByteSource>(
        _ reader: inout JSONReader<Source>, index: Int
    ) throws(JSONSyntaxError) -> TransactionFields {
        guard try reader.peekValue() == UInt8(ascii: "{") else {
            let node = try reader.readValue()
            report(
                .jsonType(
                    "transactions[\(index)]", expected: "an object", found: node.value.kindName),
                at: node.position)
            var fields = TransactionFields(position: node.position)
            fields.isComplete = false
            return fields
        }
        var fields = TransactionFields(position: reader.position)
        try reader.beginObject()
        var isFirst = true
        while let (key, keyPosition) = try reader.nextMember(isFirst: &isFirst) {
            guard let slot = TransactionFields.Slot(key: key) else {
                reportUnknownKey(key, in: "transactions[]", at: keyPosition)
                try reader.skipValue()
                continue
            }
            guard fields.isComplete, fields[slot] == nil else {
                if fields.isComplete {
                    report(.keyTwice(key, in: "transactions[\(index)]"), at: keyPosition)
                }
                fields.isComplete = false
                try reader.skipValue()
                continue
            }
            fields[slot] = try reader.readValue()
        }
        guard fields.isComplete else { return fields }
        for (key, node) in [
            ("date", fields.date), ("amount", fields.amount), ("beneficiary", fields.beneficiary),
        ] where node == nil {
            report(.keyMissing(key, in: "transactions[\(index)]"), at: fields.position)
            fields.isComplete = false
        }
        return fields
    }

    /// Checks a transaction's fields; returns it with its declared running balance, or `nil`
    /// when anything about it is wrong (every problem reported).
    private mutating func transaction(
        _ fields: borrowing TransactionFields, index: Int, account: Account
    )
        -> (Transaction, declared: Money?)?
    {
        guard fields.isComplete, let dateNode = fields.date, let amountNode = fields.amount,
            let beneficiaryNode = fields.beneficiary
        else { return nil }
        func path(_ key: String) -> String { "transactions[\(index)].\(key)" }
        var isValid = true
        var date: Day?
        switch string(dateNode, path("date")) {
        case .some(let text?):
            do throws(DayError) { date = try Day(parsing: text) } catch {
                report(
                    .date(path("date"), Diagnostic.quote(text), error, format: nil),
                    at: dateNode.position)
            }
        case .some(nil):
            report(.required(path("date")), at: dateNode.position)
        case .none: break
        }
        if let node = fields.currency, case .some(let code?) = string(node, path("currency")),
            code != account.currency.code
        {
            report(
                .rowCurrency(
                    path("currency"), Diagnostic.quote(code), accountCurrency: account.currency),
                at: node.position)
            isValid = false
        }
        let amount = money(amountNode, path("amount"), currency: account.currency)
        if case .some(nil) = amount {
            report(.required(path("amount")), at: amountNode.position)
        }
        let beneficiary = requiredText(beneficiaryNode, path("beneficiary"))
        let beneficiaryIBAN = iban(fields.beneficiaryIBAN, path("beneficiaryIban"))
        let description = string(fields.description, path("description"))
        let reference = string(fields.reference, path("reference"))
        let transactionID = string(fields.transactionID, path("transactionId"))
        var declared: Money?? = .some(nil)
        if let node = fields.balance {
            declared = money(node, path("balance"), currency: account.currency)
        }
        guard isValid, let date, case .some(let amount?) = amount, let beneficiary,
            case .some(let beneficiaryIBAN) = beneficiaryIBAN,
            case .some(let description) = description,
            case .some(let reference) = reference,
            case .some(let transactionID) = transactionID,
            case .some(let declared) = declared
        else { return nil }
        let transaction = Transaction(
            date: date, amount: amount, beneficiary: beneficiary, beneficiaryIBAN: beneficiaryIBAN,
            description: description, reference: reference,
            transactionID: transactionID.flatMap { $0.isBlank ? nil : $0 })
        return (transaction, declared)
    }
}
