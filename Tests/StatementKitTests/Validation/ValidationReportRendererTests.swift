import Foundation
import Testing

@testable import StatementKit

struct ValidationReportRendererTests {
    static func report() -> ValidationReport {
        var bad = DiagnosticCollector(file: "in/oct.csv")
        bad.report(
            .iban(
                "account_iban", "\"DE89 3704 0044 0532 0130 01\"",
                .checksumMismatch(actual: "89", expected: "62")), line: 14, column: 23)
        bad.report(.ignoringColumns(["\"x, y\""], more: 0), line: 1, column: 9)
        var good = DiagnosticCollector(file: "in/nov.csv")
        good.report(.noRowsUnderHeader, line: 1, column: 1)
        return ValidationReport(files: [
            FileValidation(path: "in/oct.csv", rowCount: 41_199, collector: bad),
            FileValidation(path: "in/nov.csv", rowCount: 1, collector: good),
        ])
    }

    static func render(
        _ format: ValidationReportRenderer.Format, _ report: ValidationReport = report()
    ) -> (String, String) {
        var diagnostics = ""
        var results = ""
        ValidationReportRenderer(format: format).render(
            report, diagnostics: &diagnostics, results: &results)
        return (diagnostics, results)
    }

    @Test func `writes compiler-style text and a summary`() {
        let (diagnostics, results) = Self.render(.text)
        #expect(
            diagnostics == """
                in/oct.csv:14:23: error: [IBAN_CHECKSUM] account_iban "DE89 3704 0044 0532 0130 01": check digits 89 do not match (expected 62)
                in/oct.csv:1:9: warning: [COLUMN_UNKNOWN] ignoring unknown column "x, y"
                in/nov.csv:1:1: warning: [FILE_NO_TRANSACTIONS] the file has a header but no rows

                """)
        #expect(
            results == """
                1 error, 2 warnings in 1 of 2 files (41,200 rows checked)
                  1 × COLUMN_UNKNOWN, 1 × FILE_NO_TRANSACTIONS, 1 × IBAN_CHECKSUM

                """)
    }

    @Test func `says only the diagnostics when quiet, a line per file when verbose`() {
        for (verbosity, expected) in [
            (Verbosity.quiet, ""),
            (
                .verbose,
                """
                checked  in/oct.csv: 41,199 rows, 1 error, 1 warning
                checked  in/nov.csv: 1 row, 1 warning
                1 error, 2 warnings in 1 of 2 files (41,200 rows checked)
                  1 × COLUMN_UNKNOWN, 1 × FILE_NO_TRANSACTIONS, 1 × IBAN_CHECKSUM

                """
            ),
        ] {
            var (diagnostics, results) = ("", "")
            ValidationReportRenderer(format: .text, verbosity: verbosity).render(
                Self.report(), diagnostics: &diagnostics, results: &results)
            #expect(results == expected)
            #expect(diagnostics.split(separator: "\n").count == 3)
        }
    }

    @Test func `colours the severity, the place and the code on a terminal`() {
        let diagnostic = Diagnostic(
            file: "a.csv", line: 3, column: 12, severity: .error, code: .ibanChecksum,
            message: "m")
        #expect(
            diagnostic.textLine(TextStyle(isColored: true))
                == "\u{1B}[1ma.csv:3:12:\u{1B}[0m \u{1B}[1;31merror:\u{1B}[0m \u{1B}[1;36m[IBAN_CHECKSUM]\u{1B}[0m m"
        )
        let warning = Diagnostic(
            file: "a.csv", line: 1, column: 1, severity: .warning, code: .columnUnknown,
            message: "m")
        #expect(warning.textLine(TextStyle(isColored: true)).contains("\u{1B}[1;33mwarning:"))
        #expect(warning.textLine(.plain) == "a.csv:1:1: warning: [COLUMN_UNKNOWN] m")
    }

    @Test func `summarises a clean run`() {
        let report = ValidationReport(files: [
            FileValidation(path: "a", rowCount: 1, collector: DiagnosticCollector(file: "a"))
        ])
        #expect(Self.render(.text, report).1 == "no errors in 1 file (1 row checked)\n")
    }

    @Test func `notes how many diagnostics were not shown`() {
        var collector = DiagnosticCollector(file: "f.csv", limit: 1)
        collector.report(.date("date", "\"a\"", .invalid, format: nil), line: 2, column: 1)
        collector.report(.date("date", "\"b\"", .invalid, format: nil), line: 3, column: 1)
        let (diagnostics, _) = Self.render(
            .text,
            ValidationReport(files: [
                FileValidation(path: "f.csv", rowCount: 2, collector: collector)
            ]))
        #expect(
            diagnostics.hasSuffix(
                "f.csv: note: 1 more diagnostic not shown (--max-diagnostics 0 shows all)\n"))
    }

    @Test func `writes one JSON document`() throws {
        let (diagnostics, results) = Self.render(.json)
        #expect(diagnostics.isEmpty)
        let document = try #require(
            JSONSerialization.jsonObject(with: Data(results.utf8)) as? [String: Any])
        let summary = try #require(document["summary"] as? [String: Any])
        #expect(
            summary.compactMapValues { $0 as? Int }
                == ["files": 2, "rows": 41_200, "notBooked": 0, "errors": 1, "warnings": 2])
        #expect(
            summary["codes"] as? [String: Int] == [
                "IBAN_CHECKSUM": 1, "COLUMN_UNKNOWN": 1, "FILE_NO_TRANSACTIONS": 1,
            ])
        let first = try #require((document["diagnostics"] as? [[String: Any]])?.first)
        #expect(first["file"] as? String == "in/oct.csv")
        #expect(first["line"] as? Int == 14)
        #expect(first["column"] as? Int == 23)
        #expect(first["severity"] as? String == "error")
        #expect(first["code"] as? String == "IBAN_CHECKSUM")
        #expect((first["message"] as? String)?.hasPrefix("account_iban \"DE89") == true)
    }

    @Test func `writes GitHub annotations with escaped properties`() {
        let (_, results) = Self.render(.github)
        #expect(
            results == """
                ::error file=in/oct.csv,line=14,col=23,title=IBAN_CHECKSUM::account_iban "DE89 3704 0044 0532 0130 01": check digits 89 do not match (expected 62)
                ::warning file=in/oct.csv,line=1,col=9,title=COLUMN_UNKNOWN::ignoring unknown column "x, y"
                ::warning file=in/nov.csv,line=1,col=1,title=FILE_NO_TRANSACTIONS::the file has a header but no rows
                1 error, 2 warnings in 1 of 2 files (41,200 rows checked)
                  1 × COLUMN_UNKNOWN, 1 × FILE_NO_TRANSACTIONS, 1 × IBAN_CHECKSUM

                """)
    }

    @Test func `escapes control characters in file names`() {
        let diagnostic = Diagnostic(
            file: "a\u{1B}[2J.csv", line: 0, column: 0, severity: .error, code: .pathNotFound,
            message: "m")
        #expect(diagnostic.textLine == "a\\u{1B}[2J.csv: error: [PATH_NOT_FOUND] m")
    }

    @Test func `groups thousands`() {
        #expect(
            [0, 999, 1000, 41_200, 1_000_000].map(\.groupedText) == [
                "0", "999", "1,000", "41,200", "1,000,000",
            ])
        #expect(
            [-1, -1000, Int.min].map(\.groupedText) == [
                "-1", "-1,000", "-9,223,372,036,854,775,808",
            ])
    }
}
