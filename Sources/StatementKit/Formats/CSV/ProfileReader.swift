/// Reads the JSON of a profile into a `Dialect`, naming the key of every problem.
struct ProfileReader {
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
            "account", "accounts", "preamble", "footer", "notBooked", "fee",
        ]
        let object = try members(root, "", allowed: keys)
        var dialect = Dialect()
        if let node = object["description"] { _ = try string(node, "description") }
        try readLayout(object, into: &dialect)
        try readMapping(object, into: &dialect)
        if object["account"] != nil && Set(object.keys).isSubset(of: ["account", "description"]) {
            // The account alone: every file's layout is sniffed.
            guard dialect.accountID != nil else {
                throw fail("account", "alone needs the account's \"id\" or \"iban\"")
            }
            dialect.sniffsLayout = true
            return dialect
        }
        if object["fee"] != nil, dialect.columns[.fee] == nil {
            throw fail("fee", "needs the fee's column (columns.fee)")
        }
        try check(dialect, hasIndicator: object["indicator"] != nil)
        return dialect
    }

    /// The layout of the text: encoding, separator, quote, amounts, dates, header, footer,
    /// and the order of the rows.
    private func readLayout(_ object: [String: JSONNode], into dialect: inout Dialect)
        throws(ProfileError)
    {
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
    }

    /// What the columns, the preamble and the footer hold, and how amounts are signed.
    private func readMapping(_ object: [String: JSONNode], into dialect: inout Dialect)
        throws(ProfileError)
    {
        if let node = object["columns"] { dialect.columns = try columns(node) }
        if let node = object["sign"] {
            let text = try string(node, "sign")
            guard let sign = Dialect.Sign(rawValue: text) else {
                let names = Dialect.Sign.allCases.map(\.rawValue).joined(separator: ", ")
                throw fail("sign", "must be one of \(names), not \(Diagnostic.quote(text))")
            }
            dialect.sign = sign
        }
        if let node = object["fee"] {
            let text = try string(node, "fee")
            guard let sign = Dialect.FeeSign(rawValue: text) else {
                throw fail("fee", "must be deducted or signed, not \(Diagnostic.quote(text))")
            }
            dialect.feeSign = sign
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
    }
}
