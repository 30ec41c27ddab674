/// Reads statement JSON (SPEC 2.2) into validated transactions, streaming.
///
/// The document is one statement object or an array of them. Amounts may be strings or
/// numbers and are read exactly from their text. Every problem becomes a diagnostic at the
/// line and column of the offending key or value; a statement whose account is invalid
/// produces no rows.
///
/// The file is read in one pass through a `JSONReader`: each transaction is built, checked and
/// handed on before the next is read, so memory does not grow with the file, and time is
/// linear in it whatever its line structure (a minified file is one long line). Only when a
/// statement lists its transactions before its account are they held until the account comes.
package struct StatementJSONParser: Sendable {
    /// Creates a parser.
    package init() {}

    /// Reads a whole JSON document held in memory; see `parse(_:diagnostics:onRow:)`.
    package func parse(
        _ bytes: UnsafeRawBufferPointer, diagnostics: inout DiagnosticCollector,
        onRow: (ParsedRow) -> Void
    ) -> ParseSummary {
        parse(MemoryByteSource(bytes), diagnostics: &diagnostics, onRow: onRow)
    }

    /// Reads a whole JSON document, reporting problems into `diagnostics` and each valid row
    /// to `onRow` as soon as it is read.
    ///
    /// - Complexity: O(n) in the size of the document.
    package func parse<Source: ByteSource>(
        _ source: Source, diagnostics: inout DiagnosticCollector, onRow: (ParsedRow) -> Void
    ) -> ParseSummary {
        var reader = JSONReader(source: source)
        var decoder = Decoder(diagnostics: DiagnosticCollector(file: ""))
        swap(&decoder.diagnostics, &diagnostics)
        defer { swap(&decoder.diagnostics, &diagnostics) }
        do throws(JSONSyntaxError) {
            guard let first = try reader.peekValue() else {
                decoder.diagnostics.report(
                    .fileEmpty(requiring: "a statement object"), line: 1, column: 1)
                return decoder.summary
            }
            if first == UInt8(ascii: "[") {
                try reader.beginArray()
                var isFirst = true
                while try reader.nextElement(isFirst: &isFirst) {
                    try decoder.statement(&reader, onRow: onRow)
                }
            } else {
                try decoder.statement(&reader, onRow: onRow)
            }
            try reader.expectEnd()
        } catch {
            decoder.diagnostics.report(
                .jsonSyntax(error.message, isTooDeep: error.isTooDeep), line: error.position.line,
                column: error.position.column)
            return decoder.summary
        }
        if decoder.summary.rowCount == 0 {
            decoder.diagnostics.report(.noTransactions, line: 1, column: 1)
        }
        return decoder.summary
    }
}

/// Checks the statements of a JSON file as the reader walks them.
private struct Decoder {
    var diagnostics: DiagnosticCollector
    var summary = ParseSummary()
    private var reportedUnknownKeys: Set<String> = []
    private var transactionIDs = TransactionIDChecker()

    init(diagnostics: DiagnosticCollector) {
        self.diagnostics = diagnostics
    }

    private mutating func report(_ message: DiagnosticMessage, at position: SourcePosition) {
        diagnostics.report(message, line: position.line, column: position.column)
    }

    private mutating func reportUnknownKey(
        _ key: String, in path: String, at position: SourcePosition
    ) {
        guard reportedUnknownKeys.insert("\(path).\(key)").inserted else { return }
        report(.ignoringKey(key, in: path), at: position)
    }

    /// What is known of the statement being read.
    private struct StatementState {
        /// `nil` until the `account` key is read; then the account, or `nil` when invalid.
        var account: Account??
        var openingNode: JSONNode?
        var closingNode: JSONNode?
        var opening: Money?
        var closing: Money?
        /// Whether both balances could be read.
        var balancesAreValid = true
        /// Whether the rows have begun to be checked (the balances are then resolved).
        var hasStartedRows = false
        /// Whether the opening balance came after the rows, so that the chain began without it.
        var isOpeningLate = false
        /// Whether each balance has been read (once, and reported once if wrong).
        var isOpeningResolved = false
        var isClosingResolved = false
        var balance = RunningBalance()
        /// The sum of the amounts; `nil` once it overflowed.
        var total: Money?
        var rowIndex = 0
        var isValid = true
        /// Rows read before the account, held until it comes.
        var pending: [TransactionFields] = []
        /// The first row with a declared balance: the sum up to it and that balance, to check
        /// an opening balance that came late. `nil` while none was seen or the chain was reset.
        var firstDeclared: (sum: Money, declared: Money, position: SourcePosition)?
        var hasUnreadableRowBeforeDeclared = false
    }

    /// Reads one statement object from the reader, handing its valid rows to `onRow`.
    mutating func statement<Source: ByteSource>(
        _ reader: inout JSONReader<Source>, onRow: (ParsedRow) -> Void
    ) throws(JSONSyntaxError) {
        guard try reader.peekValue() == UInt8(ascii: "{") else {
            let node = try reader.readValue()
            report(
                .jsonType("statement", expected: "an object", found: node.value.kindName),
                at: node.position)
            return
        }
        let start = reader.position
        summary.statementLines.append(start.line)
        let rowsBefore = summary.rowCount
        try reader.beginObject()
        var state = StatementState()
        var seen: Set<String> = []
        var isFirst = true
        while let (key, keyPosition) = try reader.nextMember(isFirst: &isFirst) {
            guard seen.insert(key).inserted else {
                report(.keyTwice(key, in: "statement"), at: keyPosition)
                state.isValid = false
                try reader.skipValue()
                continue
            }
            switch key {
            case "account":
                state.account = .some(account(try reader.readValue()))
            case "openingBalance":
                state.openingNode = try reader.readValue()
                if state.hasStartedRows { state.isOpeningLate = true }
            case "closingBalance":
                state.closingNode = try reader.readValue()
            case "transactions":
                guard try reader.peekValue() == UInt8(ascii: "[") else {
                    let node = try reader.readValue()
                    report(
                        .jsonType("transactions", expected: "an array", found: node.value.kindName),
                        at: node.position)
                    state.isValid = false
                    continue
                }
                try reader.beginArray()
                var isFirstRow = true
                while try reader.nextElement(isFirst: &isFirstRow) {
                    let fields = try transactionFields(
                        &reader, index: summary.rowCount - rowsBefore)
                    summary.rowCount += 1
                    switch state.account {
                    case .some(let account?): row(fields, account: account, &state, onRow: onRow)
                    case .some(nil): state.rowIndex += 1
                    case nil: state.pending.append(fields)
                    }
                }
            default:
                reportUnknownKey(key, in: "statement", at: keyPosition)
                try reader.skipValue()
            }
        }
        for key in ["account", "transactions"] where !seen.contains(key) {
            report(.keyMissing(key, in: "statement"), at: start)
            state.isValid = false
        }
        guard case .some(let account?) = state.account else { return }
        for fields in state.pending { row(fields, account: account, &state, onRow: onRow) }
        state.pending = []
        resolveBalances(account, &state)
        if state.isOpeningLate, let opening = state.opening, let first = state.firstDeclared,
            !state.hasUnreadableRowBeforeDeclared,
            (try? opening.adding(first.sum)) != first.declared
        {
            let computed = (try? opening.adding(first.sum)) ?? opening
            report(
                .balance(
                    "balance",
                    .runningBalanceMismatch(declared: first.declared, computed: computed)),
                at: first.position)
        }
        if let known = state.opening ?? state.balance.impliedOpening {
            summary.openingBalances[account.id] = known
        }
        guard state.isValid && state.balancesAreValid else { return }
        stateBalances(of: account, state, statementLine: start.line)
        let position = state.closingNode?.position ?? start
        guard let total = state.total ?? (state.rowIndex == 0 ? .zero(account.currency) : nil)
        else {
            report(.sumOverflow, at: position)
            return
        }
        guard let opening = state.opening, let closing = state.closing else { return }
        guard let computed = try? opening.adding(total) else {
            report(.sumOverflow, at: position)
            return
        }
        if computed != closing {
            report(
                .balance(
                    "closingBalance",
                    .closingBalanceMismatch(declared: closing, computed: computed)),
                at: position)
        }
    }

    /// Reads the balances that have been seen, in the account's currency.
    /// Reads, each once, the balances that have been seen and not yet read, in the account's
    /// currency: the ones before the rows when the rows begin, any later one at the end.
    /// Adds the balances the statement states to the summary.
    private mutating func stateBalances(
        of account: Account, _ state: StatementState, statementLine: Int
    ) {
        var stated: [(StatedBalance.Point, Money, Int)] = []
        // A balance before the first row that only the first running balance implies is not
        // stated: the statement may start within a day (the ends of its days are).
        if let opening = state.opening {
            stated.append((.opening, opening, state.openingNode?.position.line ?? statementLine))
        }
        if let closing = state.closing {
            stated.append((.closing, closing, state.closingNode?.position.line ?? statementLine))
        }
        for (day, end) in state.balance.dayEnds.sorted(by: { $0.key < $1.key }) {
            stated.append((.endOfDay(day), end.balance, end.line))
        }
        for (point, balance, line) in stated {
            summary.statedBalances.append(
                StatedBalance(
                    account: account, point: point, balance: balance, line: line,
                    statementLine: statementLine))
        }
    }

    private mutating func resolveBalances(_ account: Account, _ state: inout StatementState) {
        if let node = state.openingNode, !state.isOpeningResolved {
            state.isOpeningResolved = true
            state.opening = balance(node, "openingBalance", account, &state)
        }
        if let node = state.closingNode, !state.isClosingResolved {
            state.isClosingResolved = true
            state.closing = balance(node, "closingBalance", account, &state)
        }
    }

    /// A declared balance; `nil` (and the statement's balances invalid) when it cannot be read.
    private mutating func balance(
        _ node: JSONNode, _ key: String, _ account: Account, _ state: inout StatementState
    ) -> Money? {
        guard case .some(let value) = money(node, key, currency: account.currency) else {
            state.balancesAreValid = false
            return nil
        }
        return value
    }

    /// Checks one transaction of a statement whose account is known.
    private mutating func row(
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
    private mutating func transactionFields<Source: ByteSource>(
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

    /// Returns the members of an object by key, reporting duplicates, unknown and missing keys.
    private mutating func members(
        of node: JSONNode, path: String, known: Set<String>, required: [String]
    ) -> [String: JSONMember]? {
        guard case .object(let list) = node.value else {
            report(
                .jsonType(path, expected: "an object", found: node.value.kindName),
                at: node.position)
            return nil
        }
        var result: [String: JSONMember] = [:]
        for member in list {
            guard result[member.key] == nil else {
                report(.keyTwice(member.key, in: path), at: member.keyPosition)
                return nil
            }
            result[member.key] = member
            if !known.contains(member.key) {
                reportUnknownKey(member.key, in: path, at: member.keyPosition)
            }
        }
        var isComplete = true
        for key in required where result[key] == nil {
            report(.keyMissing(key, in: path), at: node.position)
            isComplete = false
        }
        return isComplete ? result : nil
    }

    /// The text of a string value, or `nil` (reported) for any other kind; `null` is absent.
    private mutating func string(_ node: JSONNode?, _ path: @autoclosure () -> String)
        -> String??
    {
        guard let node else { return .some(nil) }
        switch node.value {
        case .string(let text): return .some(text)
        case .null: return .some(nil)
        default:
            report(
                .jsonType(path(), expected: "a string", found: node.value.kindName),
                at: node.position)
            return .none
        }
    }

    /// The text of a required string value; `null` or blank text is reported as empty.
    private mutating func requiredText(_ node: JSONNode, _ path: @autoclosure () -> String)
        -> String?
    {
        guard case .some(let text) = string(node, path()) else { return nil }
        guard let text, !text.isBlank else {
            report(.required(path()), at: node.position)
            return nil
        }
        return text
    }

    /// An amount; `null` is absent, any other kind but a string or a number is reported.
    private mutating func money(
        _ node: JSONNode, _ path: @autoclosure () -> String, currency: Currency
    ) -> Money?? {
        let text: String
        switch node.value {
        case .string(let value), .number(let value): text = value
        case .null: return .some(nil)
        default:
            report(
                .jsonType(path(), expected: "a string or a number", found: node.value.kindName),
                at: node.position)
            return .none
        }
        do throws(AmountError) {
            return .some(try Money(parsing: text, currency: currency))
        } catch {
            report(
                .amount(
                    path(), Diagnostic.quote(text), error, currency: currency, example: nil),
                at: node.position)
            return .none
        }
    }

    private mutating func iban(_ node: JSONNode?, _ path: @autoclosure () -> String) -> IBAN?? {
        guard case .some(let text) = string(node, path()) else { return .none }
        guard let text, let node else { return .some(nil) }
        do throws(IBANError) {
            let iban = try IBAN(parsing: text)
            if !iban.nationalCheckDigitsAreValid {
                report(.nationalCheck(path(), Diagnostic.quote(text)), at: node.position)
            }
            return .some(iban)
        } catch {
            report(.iban(path(), Diagnostic.quote(text), error), at: node.position)
            return .none
        }
    }

    /// The account of a statement: its `iban`, or its `id` (an IBAN or `scheme:value`).
    private mutating func account(_ node: JSONNode) -> Account? {
        let keys: Set = ["iban", "id", "name", "kind", "currency"]
        guard let members = members(of: node, path: "account", known: keys, required: [])
        else { return nil }
        var id: AccountID??
        switch (members["iban"], members["id"]) {
        case (let ibanMember?, nil):
            id = iban(ibanMember.node, "account.iban").map { $0.map(AccountID.init) }
        case (nil, let idMember?):
            id = accountID(idMember.node)
        case (nil, nil):
            report(.keyMissing("iban", in: "account"), at: node.position)
        case (_, let idMember?):
            report(.accountGivenTwice(in: "account"), at: idMember.keyPosition)
        }
        let name = string(members["name"]?.node, "account.name")
        var kind: Account.Kind? = .checking
        if case .some(let text?) = string(members["kind"]?.node, "account.kind") {
            kind = Account.Kind(parsing: text)
            if kind == nil {
                report(
                    .accountKind("account.kind", Diagnostic.quote(text)),
                    at: members["kind"]!.node.position)
            }
        }
        var currency: Currency? = .eur
        if case .some(let code?) = string(members["currency"]?.node, "account.currency") {
            currency = Currency(code: code)
            if currency == nil {
                report(
                    .currency("account.currency", Diagnostic.quote(code)),
                    at: members["currency"]!.node.position)
            }
        }
        if case .some(nil) = id, let member = members["iban"] ?? members["id"] {
            report(.required("account.\(member.key)"), at: member.node.position)
        }
        guard case .some(let id?) = id, case .some(let name) = name, let kind, let currency
        else { return nil }
        return Account(id: id, name: name, kind: kind, currency: currency)
    }

    /// An account id of any scheme; `null` is absent.
    private mutating func accountID(_ node: JSONNode) -> AccountID?? {
        guard case .some(let text) = string(node, "account.id") else { return .none }
        guard let text else { return .some(nil) }
        guard text.contains(":") else {
            return iban(node, "account.id").map { $0.map(AccountID.init) }
        }
        do throws(AccountIDParseError) {
            return .some(try AccountID(parsing: text))
        } catch {
            report(.accountID("account.id", Diagnostic.quote(text), error), at: node.position)
            return .none
        }
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

extension StatementJSONParser: StatementReader {
    static let formatName = "statement JSON"
    static let fileSuffixes = [".json"]

    /// JSON rows are always built: their checks need them.
    init(buildsRows: Bool) { self.init() }

    /// `{` or `[` first, which no CSV header starts with (`{1:`, the SWIFT envelope, is
    /// MT940's, tried before).
    static func recognizes(_ head: ArraySlice<UInt8>) -> Bool {
        head.firstNonBlank == UInt8(ascii: "{") || head.firstNonBlank == UInt8(ascii: "[")
    }
}
