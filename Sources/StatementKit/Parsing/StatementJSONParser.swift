/// Reads statement JSON (SPEC 2.2) into validated transactions.
///
/// The document is one statement object or an array of them. Amounts may be strings or
/// numbers and are read exactly from their text. Every problem becomes a diagnostic at the
/// line and column of the offending key or value; a statement whose account is invalid
/// produces no rows.
public struct StatementJSONParser: Sendable {
    /// Creates a parser.
    public init() {}

    /// Reads a whole JSON document, reporting problems into `diagnostics` and each valid row
    /// to `onRow`.
    public func parse(
        _ bytes: UnsafeRawBufferPointer, diagnostics: inout DiagnosticCollector,
        onRow: (ParsedRow) -> Void
    ) -> ParseSummary {
        var decoder = Decoder(
            locator: SourceLocator(bytes: bytes), diagnostics: DiagnosticCollector(file: ""))
        swap(&decoder.diagnostics, &diagnostics)
        defer { swap(&decoder.diagnostics, &diagnostics) }
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            decoder.diagnostics.report(
                .fileEmpty, line: 1, column: 1, "the file is empty; a statement object is required")
            return decoder.summary
        }
        let root: JSONNode
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            let (line, column) = decoder.locator.location(of: error.offset)
            decoder.diagnostics.report(
                error.isTooDeep ? .jsonTooDeep : .jsonSyntax, line: line, column: column,
                error.message)
            return decoder.summary
        }
        switch root.value {
        case .array(let statements):
            for statement in statements { decoder.statement(statement, onRow: onRow) }
        default:
            decoder.statement(root, onRow: onRow)
        }
        if decoder.summary.rowCount == 0 {
            decoder.diagnostics.report(
                .fileNoTransactions, line: 1, column: 1, "the file holds no transactions")
        }
        return decoder.summary
    }
}

/// Walks the JSON tree of a statement file.
private struct Decoder {
    var locator: SourceLocator
    var diagnostics: DiagnosticCollector
    var summary = ParseSummary()
    private var reportedUnknownKeys: Set<String> = []

    init(locator: SourceLocator, diagnostics: DiagnosticCollector) {
        self.locator = locator
        self.diagnostics = diagnostics
    }

    private mutating func report(_ code: DiagnosticCode, at offset: Int, _ message: String) {
        let (line, column) = locator.location(of: offset)
        diagnostics.report(code, line: line, column: column, message)
    }

    /// Returns the members of an object by key, reporting duplicates, unknown and missing keys.
    private mutating func members(
        of node: JSONNode, path: String, known: Set<String>, required: [String]
    ) -> [String: JSONMember]? {
        guard case .object(let list) = node.value else {
            report(
                .jsonType, at: node.offset, "\(path) must be an object, not \(node.value.kindName)")
            return nil
        }
        var result: [String: JSONMember] = [:]
        for member in list {
            guard result[member.key] == nil else {
                report(
                    .jsonDuplicateKey, at: member.keyOffset,
                    "key \(Diagnostic.quote(member.key)) appears twice in \(path)")
                return nil
            }
            result[member.key] = member
            if !known.contains(member.key)
                && reportedUnknownKeys.insert("\(path).\(member.key)").inserted
            {
                report(
                    .keyUnknown, at: member.keyOffset,
                    "ignoring unknown key \(Diagnostic.quote(member.key)) in \(path)")
            }
        }
        var isComplete = true
        for key in required where result[key] == nil {
            report(.keyMissing, at: node.offset, "\(path) lacks required key \"\(key)\"")
            isComplete = false
        }
        return isComplete ? result : nil
    }

    /// The text of a string value, or `nil` (reported) for any other kind; `null` is absent.
    private mutating func string(_ member: JSONMember?, _ path: String) -> String?? {
        guard let member else { return .some(nil) }
        switch member.node.value {
        case .string(let text): return .some(text)
        case .null: return .some(nil)
        default:
            report(
                .jsonType, at: member.node.offset,
                "\(path) must be a string, not \(member.node.value.kindName)")
            return .none
        }
    }

    private mutating func requiredText(_ member: JSONMember, _ path: String) -> String? {
        guard case .some(let text) = string(member, path) else { return nil }
        guard let text, !text.allSatisfy(\.isWhitespace) else {
            report(.fieldEmpty, at: member.node.offset, "\(path) is required and must not be blank")
            return nil
        }
        return text
    }

    private mutating func money(_ member: JSONMember, _ path: String, currency: Currency) -> Money??
    {
        let text: String
        switch member.node.value {
        case .string(let value), .number(let value): text = value
        case .null: return .some(nil)
        default:
            report(
                .jsonType, at: member.node.offset,
                "\(path) must be a string or a number, not \(member.node.value.kindName)")
            return .none
        }
        do throws(AmountError) {
            return .some(try Money(parsing: text, currency: currency))
        } catch {
            report(
                error.code, at: member.node.offset,
                "\(path) \(Diagnostic.quote(text)): \(error.reason(currency: currency))")
            return .none
        }
    }

    private mutating func iban(_ member: JSONMember?, _ path: String) -> IBAN?? {
        guard case .some(let text) = string(member, path) else { return .none }
        guard let text, let member else { return .some(nil) }
        do throws(IBANError) {
            let iban = try IBAN(parsing: text)
            if !iban.nationalCheckDigitsAreValid {
                report(
                    .ibanNationalCheck, at: member.node.offset,
                    "\(path) \(Diagnostic.quote(text)): \(nationalCheckReason)")
            }
            return .some(iban)
        } catch {
            report(
                error.code, at: member.node.offset, "\(path) \(Diagnostic.quote(text)): \(error)")
            return .none
        }
    }

    private mutating func account(_ node: JSONNode) -> Account? {
        let keys: Set = ["iban", "name", "kind", "currency"]
        guard let members = members(of: node, path: "account", known: keys, required: ["iban"])
        else { return nil }
        let iban = iban(members["iban"], "account.iban")
        let name = string(members["name"], "account.name")
        var kind: Account.Kind? = .checking
        if case .some(let text?) = string(members["kind"], "account.kind") {
            kind = Account.Kind(parsing: text)
            if kind == nil {
                report(
                    .accountKind, at: members["kind"]!.node.offset,
                    "account.kind \(Diagnostic.quote(text)): must be checking, savings or investment"
                )
            }
        }
        var currency: Currency? = .eur
        if case .some(let code?) = string(members["currency"], "account.currency") {
            currency = Currency(code: code)
            if currency == nil {
                report(
                    .currencyUnknown, at: members["currency"]!.node.offset,
                    "account.currency \(Diagnostic.quote(code)): is not an active ISO 4217 currency code"
                )
            }
        }
        if case .some(nil) = iban {
            report(.fieldEmpty, at: members["iban"]!.node.offset, "account.iban is required")
        }
        guard case .some(let iban?) = iban, case .some(let name) = name, let kind, let currency
        else { return nil }
        return Account(iban: iban, name: name, kind: kind, currency: currency)
    }

    mutating func statement(_ node: JSONNode, onRow: (ParsedRow) -> Void) {
        let keys: Set = ["account", "openingBalance", "closingBalance", "transactions"]
        guard
            let members = members(
                of: node, path: "statement", known: keys, required: ["account", "transactions"])
        else { return }
        guard case .array(let rows) = members["transactions"]!.node.value else {
            let value = members["transactions"]!.node
            report(
                .jsonType, at: value.offset,
                "transactions must be an array, not \(value.value.kindName)")
            return
        }
        summary.rowCount += rows.count
        guard let account = account(members["account"]!.node) else { return }
        var opening: Money?
        var closing: Money?
        var isValid = true
        for (key, target) in [("openingBalance", 0), ("closingBalance", 1)] {
            guard let member = members[key] else { continue }
            switch money(member, key, currency: account.currency) {
            case .some(let value): if target == 0 { opening = value } else { closing = value }
            case .none: isValid = false
            }
        }
        var balance = RunningBalance(opening: opening)
        var parsed: [ParsedRow] = []
        for (index, row) in rows.enumerated() {
            if let transaction = transaction(row, index: index, account: account, balance: &balance)
            {
                parsed.append(
                    ParsedRow(
                        account: account, transaction: transaction,
                        line: locator.location(of: row.offset).line))
            } else {
                isValid = false
                balance.skipUnreadableRow()
            }
        }
        if let known = opening ?? balance.impliedOpening {
            summary.openingBalances[account.iban] = known
        }
        if isValid {
            do throws(ReconciliationError) {
                _ = try Statement(
                    account: account, openingBalance: opening, closingBalance: closing,
                    transactions: parsed.map(\.transaction))
            } catch {
                let offset = members["closingBalance"]?.node.offset ?? node.offset
                report(error.code, at: offset, "\(error)")
            }
        }
        parsed.forEach(onRow)
    }

    private mutating func transaction(
        _ node: JSONNode, index: Int, account: Account, balance: inout RunningBalance
    ) -> Transaction? {
        let path = "transactions[\(index)]"
        let keys: Set = [
            "date", "amount", "currency", "beneficiary", "beneficiaryIban", "description",
            "reference", "balance",
        ]
        guard
            let members = members(
                of: node, path: path, known: keys, required: ["date", "amount", "beneficiary"])
        else { return nil }
        var isValid = true
        var date: Day?
        if case .some(let text?) = string(members["date"], "\(path).date") {
            do throws(DayError) { date = try Day(parsing: text) } catch {
                report(
                    error.code, at: members["date"]!.node.offset,
                    "\(path).date \(Diagnostic.quote(text)): \(error)")
            }
        }
        if case .some(let code?) = string(members["currency"], "\(path).currency"),
            code != account.currency.code
        {
            report(
                .currencyConflict, at: members["currency"]!.node.offset,
                "\(path).currency \(Diagnostic.quote(code)) differs from the account's currency \(account.currency.code)"
            )
            isValid = false
        }
        let amount = money(members["amount"]!, "\(path).amount", currency: account.currency)
        let beneficiary = requiredText(members["beneficiary"]!, "\(path).beneficiary")
        let beneficiaryIBAN = iban(members["beneficiaryIban"], "\(path).beneficiaryIban")
        let description = string(members["description"], "\(path).description")
        let reference = string(members["reference"], "\(path).reference")
        var declared: Money?? = .some(nil)
        if let member = members["balance"] {
            declared = money(member, "\(path).balance", currency: account.currency)
        }
        guard isValid, let date, case .some(let amount?) = amount, let beneficiary,
            case .some(let beneficiaryIBAN) = beneficiaryIBAN,
            case .some(let description) = description,
            case .some(let reference) = reference, case .some(let declared) = declared
        else { return nil }
        if let mismatch = balance.add(amount, declared: declared) {
            report(
                mismatch.code, at: (members["balance"] ?? members["amount"]!).node.offset,
                "\(path).balance: \(mismatch); the balance chain breaks here")
        }
        return Transaction(
            date: date, amount: amount, beneficiary: beneficiary, beneficiaryIBAN: beneficiaryIBAN,
            description: description, reference: reference)
    }
}
