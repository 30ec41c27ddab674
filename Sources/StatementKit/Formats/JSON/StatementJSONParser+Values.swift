/// The values of statement JSON: members, text, amounts, IBANs and the account.
extension StatementJSONParser.Decoder {
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
    mutating func string(_ node: JSONNode?, _ path: @autoclosure () -> String)
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
    mutating func requiredText(_ node: JSONNode, _ path: @autoclosure () -> String)
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
    mutating func money(
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

    mutating func iban(_ node: JSONNode?, _ path: @autoclosure () -> String) -> IBAN?? {
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
    mutating func account(_ node: JSONNode) -> Account? {
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
}
