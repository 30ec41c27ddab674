import Testing

@testable import StatementKit

struct StatementFormatTests {
    @Test(
        arguments: [
            ("a.json", "date,amount\n", StatementFormat.json),
            ("a.JSON", "", .json),
            ("a.csv", "date,account_iban\n", .csv),
            ("export.txt", "\u{FEFF} \n [{\"account\": {}}]", .json),
            ("a.csv", "{\"account\": {}}", .json),
            ("a.csv", "", .csv),
        ] as [(String, String, StatementFormat)])
    func `tells JSON from CSV by name and first character`(
        path: String, head: String, format: StatementFormat
    ) {
        #expect(StatementFormat(path: path, head: Array(head.utf8)) == format)
    }

    @Test func `reads a JSON statement whatever its file is called`() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write(
            "statement.csv",
            #"{"account": {"iban": "DE89370400440532013000"}, "transactions": [{"date": "2026-10-01", "amount": "-1.00", "beneficiary": "A"}]}"#
        )
        var collector = DiagnosticCollector(file: path)
        var rows = 0
        let summary = StatementFileReader.read(path: path, diagnostics: &collector) { _ in rows += 1
        }
        #expect(collector.diagnostics.isEmpty)
        #expect((summary.rowCount, rows) == (1, 1))
    }
}
