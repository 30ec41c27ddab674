/// The decoder of statement JSON: its statements, their rows held or checked, and balances.
extension StatementJSONParser {
    /// Checks the statements of a JSON file as the reader walks them.
    struct Decoder {
        var diagnostics: DiagnosticCollector
        var summary = ParseSummary()
        private var reportedUnknownKeys: Set<String> = []
        var transactionIDs = TransactionIDChecker()

        init(diagnostics: DiagnosticCollector) {
            self.diagnostics = diagnostics
        }

        mutating func report(_ message: DiagnosticMessage, at position: SourcePosition) {
            diagnostics.report(message, line: position.line, column: position.column)
        }

        mutating func reportUnknownKey(
            _ key: String, in path: String, at position: SourcePosition
        ) {
            guard reportedUnknownKeys.insert("\(path).\(key)").inserted else { return }
            report(.ignoringKey(key, in: path), at: position)
        }

        /// What is known of the statement being read.
        struct StatementState {
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
                    try transactions(&reader, &state, rowsBefore: rowsBefore, onRow: onRow)
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
            endStatement(of: account, &state, start: start)
        }

        /// Reads a statement's `transactions` array: each row checked once the account is known,
        /// held until it comes.
        private mutating func transactions<Source: ByteSource>(
            _ reader: inout JSONReader<Source>, _ state: inout StatementState, rowsBefore: Int,
            onRow: (ParsedRow) -> Void
        ) throws(JSONSyntaxError) {
            guard try reader.peekValue() == UInt8(ascii: "[") else {
                let node = try reader.readValue()
                report(
                    .jsonType("transactions", expected: "an array", found: node.value.kindName),
                    at: node.position)
                state.isValid = false
                return
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
        }

        /// Ends a statement whose account is valid: its balances read and checked against its rows.
        private mutating func endStatement(
            of account: Account, _ state: inout StatementState, start: SourcePosition
        ) {
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
                stated.append(
                    (.opening, opening, state.openingNode?.position.line ?? statementLine))
            }
            if let closing = state.closing {
                stated.append(
                    (.closing, closing, state.closingNode?.position.line ?? statementLine))
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

        mutating func resolveBalances(_ account: Account, _ state: inout StatementState) {
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
    }
}
