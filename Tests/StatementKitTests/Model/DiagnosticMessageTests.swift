import Testing

@testable import StatementKit

/// The catalogue words a problem once: CSV and JSON say the same after the field's name.
struct DiagnosticMessageTests {
    static let header =
        "date,amount,currency,beneficiary,beneficiary_iban,description,account_iban\n"

    /// The message of the only diagnostic of a file, without the field name before the value.
    static func wording(_ result: ParseResult, after name: String) -> String? {
        guard result.diagnostics.count == 1, let text = result.diagnostics.first?.message,
            text.hasPrefix(name)
        else { return nil }
        return String(text.dropFirst(name.count))
    }

    @Test(arguments: [
        ("2026-10-03", "12.345", "", DiagnosticCode.amountPrecision, "amount"),
        ("2026-10-03", "1e5", "", .amountFormat, "amount"),
        ("2026-02-30", "1.00", "", .dateInvalid, "date"),
        ("03.10.2026", "1.00", "", .dateFormat, "date"),
        ("2026-10-03", "1.00", "DE00 0000", .ibanLength, "beneficiary_iban"),
        ("2026-10-03", "1.00", "DE89370400440532013001", .ibanChecksum, "beneficiary_iban"),
    ])
    func `words a bad value the same in CSV and JSON`(
        date: String, amount: String, iban: String, code: DiagnosticCode, csvName: String
    ) throws {
        let csv = parseCSV(
            Self.header + "\(date),\(amount),EUR,Kiosk,\(iban),,DE89370400440532013000\n")
        let jsonName = csvName == "beneficiary_iban" ? "beneficiaryIban" : csvName
        let json = parseJSON(
            StatementJSONParserTests.statement(
                """
                { "date": "\(date)", "amount": "\(amount)", "beneficiary": "Kiosk"\(iban.isEmpty ? "" : ", \"beneficiaryIban\": \"\(iban)\"") }
                """))
        #expect(csv.codes == [code])
        #expect(json.codes == [code])
        let csvWording = try #require(Self.wording(csv, after: csvName))
        #expect(Self.wording(json, after: "transactions[0].\(jsonName)") == csvWording)
    }

    @Test func `words a blank required field the same in CSV and JSON`() {
        let csv = parseCSV(Self.header + "2026-10-03,1.00,EUR, ,,,DE89370400440532013000\n")
        let json = parseJSON(
            StatementJSONParserTests.statement(
                #"{ "date": "2026-10-03", "amount": "1.00", "beneficiary": " " }"#))
        #expect(csv.diagnostics.map(\.message) == ["beneficiary is required and must not be blank"])
        #expect(
            json.diagnostics.map(\.message) == [
                "transactions[0].beneficiary is required and must not be blank"
            ])
    }

    @Test func `gives every message its code`() {
        #expect(DiagnosticMessage.required("x").code == .fieldEmpty)
        #expect(DiagnosticMessage.assumedWindows1252.code == .dialectAssumed)
        #expect(DiagnosticMessage.noAccountIBAN.code == .dialectUnknown)
        #expect(DiagnosticMessage.datesInNoOrder.text.hasSuffix("(see statements profile)"))
        #expect(DiagnosticMessage.noAccountIBAN.text.contains("give it with --account ID"))
        #expect(
            DiagnosticMessage.amount("a", "\"1\"", .empty, currency: .eur, example: nil)
                == .required("a"))
    }
}
