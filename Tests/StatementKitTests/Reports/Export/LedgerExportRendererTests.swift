import Testing

@testable import StatementKit

/// The account names and texts of `statements export`, which hledger, ledger-cli and beancount
/// must read as written (`Scripts/export-check` runs the tools).
struct LedgerExportRendererTests {
    @Test(
        arguments: [
            ("DE89370400440532013000", "checking", "Assets:Bank:DE89370400440532013000"),
            ("aba:021000021/123456789", "checking", "Assets:Bank:Aba:021000021-123456789"),
            ("sort-code:601613/31926819", "savings", "Assets:Bank:Sort-Code:601613-31926819"),
            ("card:amex/1004", "credit-card", "Liabilities:Bank:Card:AMEX-1004"),
            ("name:paypal.eur", "checking", "Assets:Bank:Name:PAYPALdotEUR"),
            ("name:paypal-eur", "checking", "Assets:Bank:Name:PAYPAL-EUR"),
            ("name:.hidden", "checking", "Assets:Bank:Name:0dotHIDDEN"),
            ("name:wise@USD", "checking", "Assets:Bank:Name:WISE:USD"),
            ("CH9300762011623852957@EUR", "checking", "Assets:Bank:CH9300762011623852957:EUR"),
        ] as [(String, String, String)])
    func `names each account so that every tool accepts it and no two meet`(
        id: String, kind: String, name: String
    ) throws {
        let account = Account(
            id: try AccountID(parsing: id), kind: try #require(Account.Kind(parsing: kind)),
            currency: .eur)
        #expect(account.exportName == name)
        // beancount: capitalised components of letters, digits and dashes.
        for component in name.split(separator: ":") {
            #expect(component.first.map { $0.isUppercase || $0.isNumber } == true)
            #expect(
                component.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") })
        }
    }

    @Test(
        arguments: [
            ("Café Le Zinc", "Café Le Zinc"),
            ("  two  spaces\tand\ttabs  ", "two spaces and tabs"),
            ("line\r\nbreak\u{2028}here", "line break here"),
            ("bidi\u{202E}override", "bidi\u{FFFD}override"),
            ("a;b|c", "a,b/c"),
        ] as [(String, String)])
    func `writes texts on one line, comment and payee separators replaced`(
        text: String, line: String
    ) {
        #expect(text.exportLine(replacing: [59: ",", 124: "/"]) == line)
    }

    @Test func `quotes beancount strings with their quotes and backslashes escaped`() {
        #expect(#"Say "hi" \ bye"#.beancountString == #""Say \"hi\" \\ bye""#)
        #expect("".beancountString == #""""#)
        #expect("new\nline".beancountString == #""new line""#)
    }
}
