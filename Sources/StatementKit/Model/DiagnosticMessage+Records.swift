// The message catalogue: CSV records and columns, JSON structure.

extension DiagnosticMessage {
    static func fieldCount(_ count: Int, header: Int) -> Self {
        .init(.csvFieldCount, "row has \(count.counted("field")), the header has \(header)")
    }

    static let unterminatedQuote = Self(
        .csvUnterminatedQuote, "quoted field is never closed: the file ends inside it")

    static let strayQuote = Self(
        .csvStrayQuote,
        "quote inside an unquoted field or after a closing quote; quote the whole field and double inner quotes"
    )

    static func recordTooLong(limit: Int) -> Self {
        .init(
            .csvRecordTooLong,
            "record is longer than \(limit.counted("byte")); reading stopped here")
    }

    static func headerLacks(_ names: [String]) -> Self {
        .init(
            .columnMissing,
            "the header lacks required \(names.count == 1 ? "column" : "columns") \(names.joined(separator: ", "))"
        )
    }

    static func headerLacksProfileColumns(_ names: [String]) -> Self {
        .init(
            .columnMissing,
            "the header lacks the profile's \(names.count == 1 ? "column" : "columns") \(names.joined(separator: ", "))"
        )
    }

    static func firstRowLacksProfileColumns(_ names: [String], fieldCount: Int) -> Self {
        .init(
            .columnMissing,
            "the first row has \(fieldCount.counted("field")); the profile maps \(names.count == 1 ? "column" : "columns") \(names.joined(separator: ", "))"
        )
    }

    static func columnTwice(_ name: String) -> Self {
        .init(.columnDuplicate, "column \(Diagnostic.quote(name)) appears twice in the header")
    }

    static func profileColumnAmbiguous(_ name: String, columns: [Int], field: String) -> Self {
        .init(
            .columnDuplicate,
            "the profile's column \(Diagnostic.quote(name)) is the name of columns \(columns.map(String.init).joined(separator: " and ")); map \(field) to one of them by number"
        )
    }

    /// Unknown columns: a few `names` (quoted), and how many `more` there are.
    static func ignoringColumns(_ names: [String], more: Int) -> Self {
        .init(
            .columnUnknown,
            "ignoring unknown \(names.count + more == 1 ? "column" : "columns") \(names.joined(separator: ", "))\(more > 0 ? " and \(more) more" : "")"
        )
    }
}

// MARK: - JSON structure

extension DiagnosticMessage {
    /// A syntax error; the JSON reader words each one (`expected ':' after an object key`).
    static func jsonSyntax(_ message: String, isTooDeep: Bool) -> Self {
        .init(isTooDeep ? .jsonTooDeep : .jsonSyntax, message)
    }

    /// A value of the wrong kind: `expected` is "an object", "a string or a number", …
    static func jsonType(_ path: String, expected: String, found: String) -> Self {
        .init(.jsonType, "\(path) must be \(expected), not \(found)")
    }

    static func keyTwice(_ key: String, in path: String) -> Self {
        .init(.jsonDuplicateKey, "key \(Diagnostic.quote(key)) appears twice in \(path)")
    }

    /// An account given by both `iban` and `id`.
    static func accountGivenTwice(in path: String) -> Self {
        .init(.jsonDuplicateKey, "\(path) has both \"iban\" and \"id\"; give one of them")
    }

    static func keyMissing(_ key: String, in path: String) -> Self {
        .init(.keyMissing, "\(path) lacks required key \"\(key)\"")
    }

    static func ignoringKey(_ key: String, in path: String) -> Self {
        .init(.keyUnknown, "ignoring unknown key \(Diagnostic.quote(key)) in \(path)")
    }
}

// MARK: - Fields
