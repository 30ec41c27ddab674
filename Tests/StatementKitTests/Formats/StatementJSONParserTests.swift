import Testing

@testable import StatementKit

struct StatementJSONParserTests {
    static func statement(_ transactions: String, extra: String = "") -> String {
        """
        {
          "account": { "iban": "DE89 3704 0044 0532 0130 00", "name": "Household", "kind": "checking", "currency": "EUR" },\(extra)
          "transactions": [
            \(transactions)
          ]
        }
        """
    }

    @Test func `reads a statement with string and number amounts exactly`() throws {
        let result = parseJSON(
            Self.statement(
                """
                { "date": "2026-10-03", "amount": "-12.34", "beneficiary": "Café", "beneficiaryIban": "FR1420041010050500013M02606", "reference": "T1" },
                    { "date": "2026-10-04", "amount": 92233720368547758.07, "beneficiary": "Big", "description": null }
                """))
        #expect(result.diagnostics.isEmpty)
        #expect(result.rows.map(\.transaction.amount.minorUnits) == [-1234, .max])
        #expect(
            result.rows[0].transaction.beneficiaryIBAN?.electronic == "FR1420041010050500013M02606")
        #expect(result.rows[0].account.name == "Household")
        #expect(result.rows.map(\.line) == [4, 5])
    }

    @Test func `reads an array of statements`() {
        let one = Self.statement(#"{ "date": "2026-10-03", "amount": "1", "beneficiary": "A" }"#)
        #expect(parseJSON("[\(one), \(one)]").rows.count == 2)
    }

    @Test(
        arguments: [
            ("92233720368547758.08", "AMOUNT_OVERFLOW"), ("1e3", "AMOUNT_FORMAT"),
            ("\"1.005\"", "AMOUNT_PRECISION"),
            ("-0", ""), ("\"+.5\"", "AMOUNT_FORMAT"), ("1E400", "AMOUNT_FORMAT"),
            ("\"NaN\"", "AMOUNT_FORMAT"),
        ] as [(String, String)])
    func `reads numbers from their text, never through Double`(amount: String, code: String) {
        let result = parseJSON(
            Self.statement(
                "{ \"date\": \"2026-10-03\", \"amount\": \(amount), \"beneficiary\": \"A\" }"))
        #expect(result.codes.map(\.rawValue) == (code.isEmpty ? [] : [code]))
    }

    @Test func `points at the offending value`() {
        let result = parseJSON(
            Self.statement(
                """
                { "date": "2026-02-30", "amount": "1", "beneficiary": " " }
                """))
        #expect(result.places == ["4:15 DATE_INVALID", "4:59 FIELD_EMPTY"])
    }

    @Test func `checks opening plus transactions against closing`() {
        let rows = #"{ "date": "2026-10-03", "amount": "-10.00", "beneficiary": "A" }"#
        let good = parseJSON(
            Self.statement(rows, extra: #" "openingBalance": "100.00", "closingBalance": 90,"#))
        #expect(good.diagnostics.isEmpty)
        #expect(good.summary.openingBalances.values.first?.minorUnits == 10_000)
        let bad = parseJSON(
            Self.statement(rows, extra: #" "openingBalance": "100.00", "closingBalance": "91.00","#)
        )
        #expect(bad.codes == [.balanceClosing])
    }

    @Test func `checks running balances`() {
        let result = parseJSON(
            Self.statement(
                """
                { "date": "2026-10-03", "amount": "-10.00", "beneficiary": "A", "balance": "90.00" },
                    { "date": "2026-10-04", "amount": "-10.00", "beneficiary": "A", "balance": "81.00" }
                """, extra: #" "openingBalance": "100.00","#))
        #expect(result.places == ["5:80 BALANCE_RUNNING"])
    }

    @Test func `reports missing, unknown, duplicate and mistyped keys`() {
        let result = parseJSON(
            Self.statement(
                """
                { "date": "2026-10-03", "beneficiary": "A", "mood": "happy" },
                    { "date": "2026-10-03", "amount": "1", "amount": "2", "beneficiary": "A" },
                    { "date": 20261003, "amount": "1", "beneficiary": "A" }
                """))
        #expect(
            result.places == [
                "4:49 KEY_UNKNOWN", "4:5 KEY_MISSING", "5:44 JSON_DUPLICATE_KEY", "6:15 JSON_TYPE",
            ])
    }

    @Test func `rejects a transaction in another currency`() {
        let result = parseJSON(
            Self.statement(
                #"{ "date": "2026-10-03", "amount": "1", "currency": "USD", "beneficiary": "A" }"#))
        #expect(result.codes == [.currencyConflict])
    }

    @Test func `reports syntax errors at their position`() {
        #expect(parseJSON("{\n  \"account\": ,\n}").places == ["2:14 JSON_SYNTAX"])
        // Read in one pass, a file reports what came before its syntax error too.
        #expect(
            parseJSON("[1, 2,]").places == ["1:2 JSON_TYPE", "1:5 JSON_TYPE", "1:7 JSON_SYNTAX"])
        #expect(parseJSON("{\"a\": \"\u{01}\"}").codes.last == .jsonSyntax)
        #expect(
            parseJSON(Array("{\"a\": \"".utf8) + [0xFF] + Array("\"}".utf8)).places.last
                == "1:8 JSON_SYNTAX")
        #expect(parseJSON("\"\\uD800\"").codes == [.jsonSyntax])
        #expect(
            parseJSON("{} {}").places == ["1:1 KEY_MISSING", "1:1 KEY_MISSING", "1:4 JSON_SYNTAX"])
        #expect(parseJSON("").codes == [.fileEmpty])
    }

    @Test func `stops deep nesting without exhausting the stack`() {
        #expect(parseJSON(String(repeating: "[", count: 200_000)).codes == [.jsonTooDeep])
        #expect(parseJSON(String(repeating: "{\"a\":", count: 200_000)).codes.last == .jsonTooDeep)
    }

    @Test func `reports a statement that is not an object`() {
        #expect(parseJSON("[1]").codes == [.jsonType, .fileNoTransactions])
    }

    @Test func `validates account fields`() {
        let json = """
            {"account": {"iban": "DE00370400440532013000", "kind": "current", "currency": "EURO"}, "transactions": []}
            """
        #expect(
            parseJSON(json).codes == [
                .ibanChecksum, .accountKind, .currencyUnknown, .fileNoTransactions,
            ])
    }
}

struct JSONParserTests {
    static func parse(_ text: String) throws -> JSONValue {
        try JSONReader.parse(Array(text.utf8)).value
    }

    @Test func `keeps numbers as text`() throws {
        #expect(
            try Self.parse("[0.1, -0, 1E400, 92233720368547758.07]")
                == .array(
                    [
                        .number("0.1"), .number("-0"), .number("1E400"),
                        .number("92233720368547758.07"),
                    ].enumerated().map {
                        JSONNode(
                            value: $0.element,
                            position: SourcePosition(line: 1, column: [2, 7, 11, 18][$0.offset]))
                    }))
    }

    @Test func `decodes escapes and surrogate pairs`() throws {
        #expect(
            try Self.parse(#""a\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00""#)
                == .string("a\"\\/\u{8}\u{C}\n\r\té😀"))
    }

    @Test(arguments: [
        "01", "1.", "-", ".5", "+1", "1e", "tru", "nul", "[1,]", "{\"a\" 1}", "'a'", "[1 2]",
        "\"\\x\"",
    ])
    func `rejects what RFC 8259 does not allow`(text: String) {
        #expect(throws: JSONSyntaxError.self) { try Self.parse(text) }
    }
}

struct JSONNullTests {
    static func statement(_ transaction: String) -> String {
        #"{"account": {"iban": "DE89370400440532013000"}, "transactions": ["#
            + #"{"date": "2026-10-02", "amount": "1.00", "beneficiary": "A"}, "# + transaction
            + "]}"
    }

    @Test(arguments: [
        (#"{"date": "2026-10-03", "amount": null, "beneficiary": "B"}"#, "1:161 FIELD_EMPTY"),
        (#"{"date": null, "amount": "-1.00", "beneficiary": "B"}"#, "1:137 FIELD_EMPTY"),
        (#"{"date": "2026-10-03", "amount": "-1.00", "beneficiary": null}"#, "1:185 FIELD_EMPTY"),
    ])
    func `reports null where a value is required, never drops the row silently`(
        transaction: String, place: String
    ) {
        let result = parseJSON(Self.statement(transaction))
        #expect(result.places == [place])
        #expect(result.rows.count == 1)
        #expect(result.errorCount == 1)
    }
}

struct JSONReaderWindowTests {
    /// A statement with escapes, surrogate pairs, multi-byte UTF-8, numbers and literals, and
    /// a syntax error at the end, so that every token can straddle a refill of the window.
    static let text = """
        {"account": {"iban": "DE89 3704 0044 0532 0130 00", "name": "Caf\\u00e9 \\ud83d\\ude00 Müller"},
         "openingBalance": 10.50, "closingBalance": "7.50",\r\n "transactions": [
          {"date": "2026-10-01", "amount": -1.00, "beneficiary": "Bäckerei \\"Zum Löwen\\"",
           "description": "a\\tb\\nc", "reference": null, "balance": "9.50"},
          {"date": "2026-10-02", "amount": "-2.00", "beneficiary": "€ shop", "x": [true, false, null, 1e5]}
         ]} trailing
        """

    @Test(arguments: 1...9)
    func `reads the same when the window refills anywhere`(step: Int) {
        var whole = DiagnosticCollector(file: "t.json")
        var wholeRows: [ParsedRow] = []
        _ = StatementJSONParser().parse(MemoryByteSource(Self.text), diagnostics: &whole) {
            wholeRows.append($0)
        }
        var trickled = DiagnosticCollector(file: "t.json")
        var trickledRows: [ParsedRow] = []
        let source = TrickleByteSource(inner: MemoryByteSource(Self.text), step: step)
        _ = StatementJSONParser().parse(source, diagnostics: &trickled) { trickledRows.append($0) }
        #expect(trickled.diagnostics == whole.diagnostics)
        #expect(trickledRows.map(\.transaction) == wholeRows.map(\.transaction))
        #expect(
            whole.diagnostics.map { "\($0.line):\($0.column) \($0.code.rawValue)" } == [
                "6:70 KEY_UNKNOWN", "7:5 JSON_SYNTAX",
            ])
        #expect(wholeRows.map(\.transaction.beneficiary) == ["Bäckerei \"Zum Löwen\"", "€ shop"])
        #expect(wholeRows.first?.account.name == "Café 😀 Müller")
    }
}

struct JSONBalanceOrderTests {
    static let rows =
        #""transactions": [{"date": "2026-10-01", "amount": "-1.00", "beneficiary": "A"}]"#
    static let account = #""account": {"iban": "DE89370400440532013000"}"#

    @Test func `reconciles a closing balance that comes after the transactions`() {
        let result = parseJSON(
            "{\(Self.account), \"openingBalance\": \"10.00\", \(Self.rows), \"closingBalance\": \"8.00\"}"
        )
        #expect(result.codes == [.balanceClosing])
        let matching = parseJSON(
            "{\(Self.account), \"openingBalance\": \"10.00\", \(Self.rows), \"closingBalance\": \"9.00\"}"
        )
        #expect(matching.codes.isEmpty)
    }

    @Test func `reports a wrong balance once, whenever it comes`() {
        let result = parseJSON(
            "{\(Self.account), \"closingBalance\": \"x\", \(Self.rows), \"openingBalance\": \"10.00\"}"
        )
        #expect(result.codes == [.amountFormat])
    }
}

struct JSONAccountIDTests {
    static func statement(_ account: String) -> String {
        #"{ "account": \#(account), "transactions": [ { "date": "2026-10-03", "amount": "-1.00", "beneficiary": "Kiosk" } ] }"#
    }

    @Test func `reads an account by its id, of any scheme`() {
        let result = parseJSON(Self.statement(#"{ "id": "card:VISA x4242", "currency": "USD" }"#))
        #expect(result.diagnostics.isEmpty)
        #expect(result.rows.first?.account.id.text == "card:visa/4242")
    }

    @Test func `refuses an account given twice, a bad id and none at all`() {
        #expect(
            parseJSON(Self.statement(#"{ "iban": "DE89370400440532013000", "id": "name:x" }"#))
                .places == ["1:50 JSON_DUPLICATE_KEY"])
        #expect(
            parseJSON(Self.statement(#"{ "id": "aba:021000022/1" }"#)).places == ["1:22 ACCOUNT_ID"]
        )
        #expect(parseJSON(Self.statement(#"{ "name": "x" }"#)).places == ["1:14 KEY_MISSING"])
    }
}
