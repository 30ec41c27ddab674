/// The sections of a profile that have parts of their own (columns, accounts, the account, the
/// preamble and footer), and the check that the settings together describe statements.
extension ProfileReader {
    func columns(_ node: JSONNode) throws(ProfileError) -> [Dialect.Field: [Dialect
        .ColumnReference]]
    {
        let object = try members(
            node, "columns", allowed: Dialect.Field.allCases.map(\.rawValue))
        var columns: [Dialect.Field: [Dialect.ColumnReference]] = [:]
        for (name, value) in object {
            let field = Dialect.Field(rawValue: name)!
            let key = "columns.\(name)"
            var items = [value]
            if case .array(let array) = value.value {
                guard field.isJoinable else {
                    throw fail(
                        key, "takes one column; only beneficiary and description join several")
                }
                guard !array.isEmpty else { throw fail(key, "must name at least one column") }
                items = array
            }
            var references: [Dialect.ColumnReference] = []
            for item in items {
                switch item.value {
                case .string(let text) where !text.trimmingCharacters(in: .whitespaces).isEmpty:
                    references.append(.name(text))
                case .number:
                    references.append(.number(try integer(item, key, minimum: 1)))
                default:
                    throw fail(
                        key, "must be a header name, a column number from 1, or an array of them")
                }
            }
            columns[field] = references
        }
        return columns
    }

    /// The ids of the accounts an account column names: `{"Checking": "aba:…", …}`.
    func accounts(_ node: JSONNode, into dialect: inout Dialect) throws(ProfileError) {
        guard case .object(let members) = node.value, !members.isEmpty else {
            throw fail("accounts", "must map the account column's texts to account ids")
        }
        for member in members {
            let key = "accounts.\(member.key)"
            let text = try string(member.node, key)
            do throws(AccountIDParseError) {
                dialect.accountsByName[Dialect.accountNameKey(member.key)] = try AccountID(
                    parsing: text)
            } catch {
                throw fail(
                    key, DiagnosticMessage.accountID(key, Diagnostic.quote(text), error).text,
                    naming: false)
            }
        }
    }

    func account(_ node: JSONNode, into dialect: inout Dialect) throws(ProfileError) {
        let object = try members(
            node, "account", allowed: ["iban", "id", "name", "currency", "currencies", "kind"])
        if object["iban"] != nil && object["id"] != nil {
            throw fail("account", "give the account's \"iban\" or its \"id\", not both")
        }
        for key in ["iban", "id"] {
            guard let node = object[key] else { continue }
            let text = try string(node, "account.\(key)")
            do throws(AccountIDParseError) {
                // "iban" takes only an IBAN; "id" an IBAN or an id of another scheme.
                if key == "iban" {
                    do throws(IBANError) {
                        dialect.accountID = AccountID(try IBAN(parsing: text))
                    } catch { throw .iban(error) }
                } else {
                    dialect.accountID = try AccountID(parsing: text)
                }
            } catch {
                throw fail(
                    "account.\(key)",
                    DiagnosticMessage.accountID("account.\(key)", Diagnostic.quote(text), error)
                        .text, naming: false)
            }
        }
        if let node = object["name"] { dialect.accountName = try string(node, "account.name") }
        if let node = object["currency"] {
            let text = try string(node, "account.currency")
            guard let currency = Currency(code: text) else {
                throw fail("account.currency", "\(Diagnostic.quote(text)) is not an ISO 4217 code")
            }
            dialect.accountCurrency = currency
        }
        if let node = object["currencies"] {
            for text in try strings(node, "account.currencies") {
                guard let currency = Currency(code: text) else {
                    throw fail(
                        "account.currencies", "\(Diagnostic.quote(text)) is not an ISO 4217 code")
                }
                dialect.accountCurrencies.append(currency)
            }
            if let currency = dialect.accountCurrency,
                !dialect.accountCurrencies.contains(currency)
            {
                throw fail("account.currency", "must be one of account.currencies")
            }
            if let id = dialect.accountID,
                dialect.accountCurrencies.contains(where: { AccountID(id, pocket: $0) == nil })
            {
                throw fail(
                    "account.currencies",
                    "the pockets of \(id.text) would be longer than \(AccountID.maximumLength) characters; use a shorter name"
                )
            }
        }
        if let node = object["kind"] {
            let text = try string(node, "account.kind")
            guard let kind = Account.Kind(parsing: text) else {
                throw fail(
                    "account.kind",
                    "must be one of \(Account.Kind.allCases.map(\.rawValue).joined(separator: ", "))"
                )
            }
            dialect.accountKind = kind
        }
    }

    /// The positions of a `preamble` or `footer` object: `{"iban": {"line": 2, "field": 1}}`.
    func positions(_ node: JSONNode, _ part: String, allowed: [Dialect.PreambleItem])
        throws(ProfileError) -> [Dialect.PreambleItem: Dialect.PreamblePosition]
    {
        let object = try members(node, part, allowed: allowed.map(\.rawValue))
        var positions: [Dialect.PreambleItem: Dialect.PreamblePosition] = [:]
        for (name, value) in object {
            let key = "\(part).\(name)"
            let position = try members(value, key, allowed: ["line", "field"])
            guard let line = position["line"], let field = position["field"] else {
                throw fail(key, "needs line and field")
            }
            positions[Dialect.PreambleItem(rawValue: name)!] = Dialect.PreamblePosition(
                line: try integer(line, "\(key).line", minimum: 1),
                field: try integer(field, "\(key).field", minimum: 1))
        }
        return positions
    }

    /// Checks that the settings together describe statements.
    func check(_ dialect: Dialect, hasIndicator: Bool) throws(ProfileError) {
        try checkPlaces(dialect)
        try checkSigns(dialect, hasIndicator: hasIndicator)
        guard !dialect.columns.isEmpty else {
            if dialect.sign != .signed {
                throw fail("sign", "needs a columns mapping with its columns")
            }
            return
        }
        try checkColumns(dialect)
    }

    /// Checks where the account, its currency and the statement balances come from.
    private func checkPlaces(_ dialect: Dialect) throws(ProfileError) {
        for (item, position) in dialect.preamble where position.line >= dialect.headerLine {
            throw fail(
                "preamble.\(item.rawValue).line",
                "must be above the header line \(dialect.headerLine)")
        }
        if dialect.hasNoHeader {
            guard !dialect.columns.isEmpty else {
                throw fail(
                    "columns",
                    "a file without header row (headerLine 0) needs a columns mapping by number")
            }
            for (field, references) in dialect.columns {
                for case .name(let name) in references {
                    throw fail(
                        "columns.\(field.rawValue)",
                        "a file without header row (headerLine 0) names columns by number, not \(Diagnostic.quote(name))"
                    )
                }
            }
        }
        let has = { (field: Dialect.Field) in dialect.columns[field] != nil }
        let ibanSources = [
            has(.account), dialect.accountID != nil, dialect.preamble[.iban] != nil,
        ]
        if !dialect.accountsByName.isEmpty && !has(.account) {
            throw fail("accounts", "needs the column that names the account (account_iban)")
        }
        if ibanSources.filter({ $0 }).count > 1 {
            throw fail(
                "account",
                "give the account one way: a column, account.iban, account.id or preamble.iban")
        }
        // With a currency column, account.currency is the default for blank cells.
        if dialect.accountCurrency != nil && dialect.preamble[.currency] != nil {
            throw fail("account.currency", "the currency also comes from the preamble")
        }
        for (item, position) in dialect.footer where position.line > dialect.footerLines {
            throw fail(
                "footer.\(item.rawValue).line",
                "counts the \(dialect.footerLines.counted("footer line")) from the last up")
        }
        let balances = [Dialect.PreambleItem.openingBalance, .closingBalance]
        if has(.account),
            balances.contains(where: {
                dialect.preamble[$0] != nil || dialect.footer[$0] != nil
            })
        {
            throw fail(
                "preamble",
                "statement balances need a file of one account: give it with account.id or preamble.iban, not a column"
            )
        }
        if balances.contains(where: { dialect.preamble[$0] != nil && dialect.footer[$0] != nil }) {
            throw fail("footer", "declares a balance that the preamble declares too")
        }
    }

    /// Checks the settings of not-booked rows and of debit and credit indicators.
    private func checkSigns(_ dialect: Dialect, hasIndicator: Bool) throws(ProfileError) {
        let has = { (field: Dialect.Field) in dialect.columns[field] != nil }
        if !dialect.notBooked.isEmpty != has(.status) {
            throw fail(
                "notBooked",
                "and columns.status go together: the texts of the status column that mark a row not booked yet"
            )
        }
        if hasIndicator && dialect.sign != .indicator {
            throw fail("indicator", "is only used with \"sign\": \"indicator\"")
        }
        if dialect.sign == .indicator
            && (dialect.debitIndicators.isEmpty || dialect.creditIndicators.isEmpty)
        {
            throw fail("indicator", "needs debit and credit texts with \"sign\": \"indicator\"")
        }
    }

    /// Checks that the columns mapped are those the sign needs, and that they name the
    /// counterparty and the account.
    private func checkColumns(_ dialect: Dialect) throws(ProfileError) {
        let has = { (field: Dialect.Field) in dialect.columns[field] != nil }
        let ibanSources = [
            has(.account), dialect.accountID != nil, dialect.preamble[.iban] != nil,
        ]
        var required: [Dialect.Field] = [.date]
        var excluded: [Dialect.Field] = []
        switch dialect.sign {
        case .signed, .chargesPositive:
            (required, excluded) = (required + [.amount], [.debit, .credit, .indicator])
        case .debitCredit, .inOut:
            (required, excluded) = (required + [.debit, .credit], [.amount, .indicator])
        case .indicator:
            (required, excluded) = (required + [.amount, .indicator], [.debit, .credit])
        }
        for field in required where !has(field) {
            throw fail(
                "columns", "needs \(field.rawValue) with \"sign\": \"\(dialect.sign.rawValue)\"")
        }
        for field in excluded where has(field) {
            throw fail(
                "columns.\(field.rawValue)",
                "is not used with \"sign\": \"\(dialect.sign.rawValue)\"")
        }
        if !has(.beneficiary) && !has(.description) {
            throw fail("columns", "needs beneficiary or description")
        }
        if !ibanSources.contains(true) {
            throw fail(
                "columns",
                "needs account_iban, or the profile needs account.iban, account.id or preamble.iban"
            )
        }
    }
}
