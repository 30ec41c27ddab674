/// Why a profile file cannot be used: named with `--profile`, a usage error (exit 2); a
/// folder's own, a `PROFILE_INVALID` diagnostic that rejects the folder's files (exit 1).
package struct ProfileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The profile's path as the user named it.
    package let path: String
    package let message: String
    /// Where in the profile the problem is (1-based); 0 when it concerns the whole file.
    package var line = 0
    package var column = 0
    /// Whether the profile could not be read at all (an environment problem, exit 3).
    package var isUnreadable = false

    package init(path: String, message: String, line: Int = 0, column: Int = 0) {
        self.path = path
        self.message = message
        self.line = line
        self.column = column
    }

    package var description: String {
        let place = line > 0 ? "line \(line), column \(column): " : ""
        return "profile '\(Diagnostic.sanitized(path))': \(place)\(message)"
    }
}

extension Dialect {
    /// Reads a profile: a JSON object whose keys the README documents.
    ///
    /// - Throws: `ProfileError` for invalid JSON, an unknown key, a value of the wrong type
    ///   or range, or a mapping that cannot describe a statement (no date, no amount, no
    ///   account), at the line and column of the key or value concerned.
    package init(profile bytes: UnsafeRawBufferPointer, path: String) throws(ProfileError) {
        let root: JSONNode
        do {
            root = try JSONReader.parse(bytes)
        } catch {
            throw ProfileError(
                path: path, message: error.message, line: error.position.line,
                column: error.position.column)
        }
        let reader = ProfileReader(path: path, root: root)
        self = try reader.dialect(root)
    }
}

/// Reads the JSON of a profile into a `Dialect`, naming the key of every problem.
private struct ProfileReader {
    let path: String
    /// Where each key's value starts, by its dotted path (`columns.date`).
    let positions: [String: SourcePosition]

    init(path: String, root: JSONNode) {
        self.path = path
        var positions: [String: SourcePosition] = ["": root.position]
        func visit(_ node: JSONNode, _ prefix: String) {
            guard case .object(let members) = node.value else { return }
            for member in members {
                let name = prefix.isEmpty ? member.key : "\(prefix).\(member.key)"
                if positions[name] == nil { positions[name] = member.node.position }
                visit(member.node, name)
            }
        }
        visit(root, "")
        self.positions = positions
    }

    /// The error of a key, at its value (or, for a key not there, at the nearest enclosing
    /// one); `key` prefixes the message unless `naming` is false.
    func fail(_ key: String, _ message: String, naming: Bool = true) -> ProfileError {
        var enclosing = key
        while positions[enclosing] == nil, !enclosing.isEmpty {
            enclosing = enclosing.lastIndex(of: ".").map { String(enclosing[..<$0]) } ?? ""
        }
        let position = positions[enclosing] ?? SourcePosition(line: 1, column: 1)
        return ProfileError(
            path: path, message: key.isEmpty || !naming ? message : "\(key): \(message)",
            line: position.line, column: position.column)
    }

    func members(_ node: JSONNode, _ key: String, allowed: [String]) throws(ProfileError)
        -> [String: JSONNode]
    {
        guard case .object(let members) = node.value else {
            throw fail(key, "must be an object, not \(node.value.kindName)")
        }
        var result: [String: JSONNode] = [:]
        for member in members {
            let name = key.isEmpty ? member.key : "\(key).\(member.key)"
            guard allowed.contains(member.key) else {
                let hint =
                    Suggestion.closest(to: member.key, among: allowed).map {
                        "did you mean \(Diagnostic.quote($0))?"
                    } ?? "allowed here: \(allowed.joined(separator: ", "))"
                throw ProfileError(
                    path: path, message: "\(name): unknown key; \(hint)",
                    line: member.keyPosition.line, column: member.keyPosition.column)
            }
            guard result[member.key] == nil else {
                throw ProfileError(
                    path: path, message: "\(name): appears twice",
                    line: member.keyPosition.line, column: member.keyPosition.column)
            }
            result[member.key] = member.node
        }
        return result
    }

    func string(_ node: JSONNode, _ key: String) throws(ProfileError) -> String {
        guard case .string(let text) = node.value else {
            throw fail(key, "must be a string, not \(node.value.kindName)")
        }
        return text
    }

    func integer(_ node: JSONNode, _ key: String, minimum: Int) throws(ProfileError) -> Int {
        guard case .number(let text) = node.value, let value = Int(text), value >= minimum else {
            throw fail(key, "must be a whole number of at least \(minimum)")
        }
        return value
    }

    func character(_ node: JSONNode, _ key: String, among choices: [UInt8], names: [String])
        throws(ProfileError) -> UInt8
    {
        let text = try string(node, key)
        guard let byte = text.utf8.first, text.utf8.count == 1, choices.contains(byte) else {
            throw fail(
                key,
                "must be one of \(names.joined(separator: ", ")), not \(Diagnostic.quote(text))")
        }
        return byte
    }

    func strings(_ node: JSONNode, _ key: String) throws(ProfileError) -> [String] {
        guard case .array(let items) = node.value, !items.isEmpty else {
            throw fail(key, "must be a non-empty array of strings")
        }
        var result: [String] = []
        for item in items { result.append(try string(item, key)) }
        return result
    }

    func dialect(_ root: JSONNode) throws(ProfileError) -> Dialect {
        let keys = [
            "description", "encoding", "separator", "quote", "decimalMark", "thousandsSeparator",
            "dateFormat", "headerLine", "footerLines", "rowOrder", "columns", "sign", "indicator",
            "account", "accounts", "preamble", "footer", "notBooked",
        ]
        let object = try members(root, "", allowed: keys)
        var dialect = Dialect()
        if let node = object["description"] { _ = try string(node, "description") }
        if let node = object["encoding"] {
            let text = try string(node, "encoding")
            guard let encoding = TextEncoding(rawValue: text.lowercased()) else {
                let names = TextEncoding.allCases.map(\.rawValue).joined(separator: ", ")
                throw fail("encoding", "must be one of \(names), not \(Diagnostic.quote(text))")
            }
            dialect.encoding = encoding
        }
        if let node = object["separator"] {
            dialect.separator = try character(
                node, "separator", among: Array(",;\t|".utf8),
                names: ["\",\"", "\";\"", "\"\\t\"", "\"|\""])
        }
        if let node = object["quote"] {
            dialect.quote = try character(
                node, "quote", among: Array("\"'".utf8), names: ["'\"'", "\"'\""])
        }
        var decimalMark = dialect.amountFormat.decimalMark
        var thousands = dialect.amountFormat.thousandsSeparator
        if let node = object["decimalMark"] {
            decimalMark = try character(
                node, "decimalMark", among: AmountFormat.decimalMarks, names: ["\".\"", "\",\""])
        }
        if let node = object["thousandsSeparator"] {
            if case .string("") = node.value {
                thousands = nil
            } else if case .null = node.value {
                thousands = nil
            } else {
                thousands = try character(
                    node, "thousandsSeparator", among: AmountFormat.thousandsSeparators,
                    names: ["\".\"", "\",\"", "\"'\"", "\" \"", "\"\"", "null"])
            }
        }
        guard thousands != decimalMark else {
            throw fail("thousandsSeparator", "must differ from decimalMark")
        }
        dialect.amountFormat = AmountFormat(decimalMark: decimalMark, thousandsSeparator: thousands)
        if let node = object["dateFormat"] {
            let pattern = try string(node, "dateFormat")
            do {
                dialect.dateFormat = try DateFormat(pattern)
            } catch {
                throw fail("dateFormat", error.description)
            }
        }
        if let node = object["headerLine"] {
            dialect.headerLine = try integer(node, "headerLine", minimum: 0)
        }
        if let node = object["footerLines"] {
            dialect.footerLines = try integer(node, "footerLines", minimum: 0)
        }
        if let node = object["rowOrder"] {
            let text = try string(node, "rowOrder")
            guard text == "oldest-first" || text == "newest-first" else {
                throw fail(
                    "rowOrder",
                    "must be oldest-first or newest-first, not \(Diagnostic.quote(text))")
            }
            dialect.isNewestFirst = text == "newest-first"
        }
        if let node = object["columns"] { dialect.columns = try columns(node) }
        if let node = object["sign"] {
            let text = try string(node, "sign")
            guard let sign = Dialect.Sign(rawValue: text) else {
                let names = Dialect.Sign.allCases.map(\.rawValue).joined(separator: ", ")
                throw fail("sign", "must be one of \(names), not \(Diagnostic.quote(text))")
            }
            dialect.sign = sign
        }
        if let node = object["indicator"] {
            let indicator = try members(node, "indicator", allowed: ["debit", "credit"])
            dialect.debitIndicators =
                try indicator["debit"].map { (n) throws(ProfileError) in
                    try strings(n, "indicator.debit")
                } ?? []
            dialect.creditIndicators =
                try indicator["credit"].map { (n) throws(ProfileError) in
                    try strings(n, "indicator.credit")
                } ?? []
        }
        if let node = object["notBooked"] {
            dialect.notBooked = try strings(node, "notBooked")
        }
        if let node = object["account"] { try account(node, into: &dialect) }
        if let node = object["preamble"] {
            dialect.preamble = try positions(
                node, "preamble", allowed: Dialect.PreambleItem.allCases)
        }
        if let node = object["footer"] {
            dialect.footer = try positions(
                node, "footer", allowed: [.openingBalance, .closingBalance])
        }
        if let node = object["accounts"] { try accounts(node, into: &dialect) }
        if object["account"] != nil && Set(object.keys).isSubset(of: ["account", "description"]) {
            // The account alone: every file's layout is sniffed.
            guard dialect.accountID != nil else {
                throw fail("account", "alone needs the account's \"id\" or \"iban\"")
            }
            dialect.sniffsLayout = true
            return dialect
        }
        try check(dialect, hasIndicator: object["indicator"] != nil)
        return dialect
    }

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
        guard !dialect.columns.isEmpty else {
            if dialect.sign != .signed {
                throw fail("sign", "needs a columns mapping with its columns")
            }
            return
        }
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
