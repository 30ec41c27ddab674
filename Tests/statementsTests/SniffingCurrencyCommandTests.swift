import Foundation
import Testing

/// End-to-end tests of the currency an export's amounts are written in (`£12.50`,
/// `-45,20 PLN`, `1 234,00 Kč`) when no column names it (#35).
struct SniffingCurrencyCommandTests {
    /// Imports `text` as the account `name:x` and returns the run and the register's rows.
    private func importExport(_ text: String, _ arguments: [String] = []) throws -> (
        StatementsRunner.Output, [String]
    ) {
        let workspace = try Workspace()
        defer { withExtendedLifetime(workspace) {} }
        let export = try workspace.write("export.csv", text)
        let output = try StatementsRunner.run(
            ["import", export, "--account", "name:x", "--state", workspace.state] + arguments)
        let register = try StatementsRunner.run([
            "register", "--state", workspace.state, "-f", "csv",
        ])
        return (
            output, register.stdout.split(whereSeparator: \.isNewline).dropFirst().map(String.init)
        )
    }

    @Test func `takes the currency that every amount is written in`() throws {
        let (czech, czechRows) = try importExport(
            "Datum;Protistrana;Částka;Zůstatek\n1.10.2026;Výplata;42 000,00 Kč;52 000,00 Kč\n"
                + "3.10.2026;Nájem;-15 000,00 Kč;37 000,00 Kč\n"
                + "15.10.2026;Albert;-451,10 Kč;36 548,90 Kč\n")
        #expect(czech.status == 0, "\(czech.stderr)")
        #expect(
            czech.stderr.contains(
                #"export.csv:2:19: warning: [DIALECT_ASSUMED] no currency column; the amounts are written in CZK, such as "42 000,00 Kč" (line 2)"#
            ), "\(czech.stderr)")
        #expect(
            czechRows.map { $0.split(separator: ",").suffix(3).joined(separator: ",") } == [
                "42000.00,CZK,52000.00", "-15000.00,CZK,37000.00", "-451.10,CZK,36548.90",
            ])

        let (polish, polishRows) = try importExport(
            "#Data operacji;#Opis operacji;#Kwota;\n2026-10-01;\"BIEDRONKA\";-45,20 PLN;\n"
                + "2026-10-05;\"WYNAGRODZENIE\";5 400,00 PLN;\n")
        #expect(polish.status == 0, "\(polish.stderr)")
        #expect(
            polishRows.map { $0.split(separator: ",").suffix(3).first! } == ["-45.20", "5400.00"])
        #expect(polishRows.count == 2)
        #expect(polishRows.allSatisfy { $0.contains(",PLN,") }, "\(polishRows)")

        // A pound sign is pounds, whatever the dates; a given currency still wins (and the
        // amounts' sign then contradicts it, row by row).
        let pounds =
            "Date,Description,Amount\n2026-10-01,Salary,\"£2,500.00\"\n2026-10-02,Tea,(£12.50)\n"
        let (british, britishRows) = try importExport(pounds)
        #expect(british.status == 0, "\(british.stderr)")
        #expect(
            britishRows.map { $0.split(separator: ",").suffix(3).joined(separator: ",") } == [
                "2500.00,GBP,2500.00", "-12.50,GBP,2487.50",
            ])
        let (given, _) = try importExport(pounds, ["--currency", "EUR"])
        #expect(given.status == 1)
        #expect(given.stderr.contains("[CURRENCY_CONFLICT]"), "\(given.stderr)")
    }

    @Test func `takes a sign of several currencies only where something else says which`() throws {
        let dollars = { (dates: [String]) in
            "Date,Description,Amount\n"
                + dates.enumerated().map { index, date in
                    "\(date),Row \(index),$1\(index).50\n"
                }.joined()
        }
        // Month-first dates: American dollars, said.
        let (american, americanRows) = try importExport(dollars(["10/01/2026", "10/13/2026"]))
        #expect(american.status == 0, "\(american.stderr)")
        #expect(americanRows.count == 2)
        #expect(americanRows.allSatisfy { $0.contains(",USD,") }, "\(americanRows)")
        #expect(american.stderr.contains("the amounts are written in USD"), "\(american.stderr)")

        // Day-first dates: Australian, Canadian, Singapore dollars … refused with the choice.
        let (open, rows) = try importExport(dollars(["01/10/2026", "13/10/2026"]))
        #expect(open.status == 1)
        #expect(rows.isEmpty)
        #expect(
            open.stderr.contains(
                #"export.csv:2:18: error: [DIALECT_UNKNOWN] the amounts are written with a sign of several currencies (AUD, CAD, HKD, MXN, NZD, SGD, USD), such as "$10.50" (line 2), and nothing else in the file says which; give it with --currency CODE"#
            ), "\(open.stderr)")
        let (decided, decidedRows) = try importExport(
            dollars(["01/10/2026", "13/10/2026"]), ["--currency", "AUD"])
        #expect(decided.status == 0, "\(decided.stderr)")
        #expect(decidedRows.count == 2)
        #expect(decidedRows.allSatisfy { $0.contains(",AUD,") }, "\(decidedRows)")

        // Euros beside pounds, with no column to say each row's currency: refused.
        let (mixed, _) = try importExport(
            "Date,Description,Amount\n2026-10-01,Hotel,-120.00 €\n2026-10-02,Train,-£40.00\n")
        #expect(mixed.status == 1)
        #expect(
            mixed.stderr.contains(
                #"export.csv:3:18: error: [DIALECT_UNKNOWN] the amounts are written in several currencies, such as "-120.00 €" (line 2) and "-£40.00" (line 3)"#
            ), "\(mixed.stderr)")
    }
}
