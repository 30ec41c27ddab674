import Testing

@testable import StatementKit

struct AccountIDTests {
    @Test(arguments: [
        ("aba:021000021/123456789", "aba:021000021/123456789"),
        ("ABA: 021000021 123456789", "aba:021000021/123456789"),
        ("sort-code:60-16-13 31926819", "sort-code:601613/31926819"),
        ("bsb:062-000 12345678", "bsb:062000/12345678"),
        ("card:AMEX ****1004", "card:amex/1004"),
        ("card:visa x4242", "card:visa/4242"),
        ("name:PayPal EUR", "name:paypal-eur"),
        ("de89 3704 0044 0532 0130 00", "DE89370400440532013000"),
        ("CH93 0076 2011 6238 5295 7@eur", "CH9300762011623852957@EUR"),
    ])
    func `reads each scheme into its canonical text`(input: String, canonical: String) throws {
        let id = try AccountID(parsing: input)
        #expect(id.text == canonical)
        #expect(try AccountID(parsing: id.text) == id)
        // From bytes (a ledger's records), the same id.
        #expect(try AccountID(parsing: Array(input.utf8).span) == id)
    }

    @Test(arguments: [
        ("aba:021000022/123456789", AccountIDParseError.accountID(.routingCheckDigit)),
        ("aba:02100002/123456789", .accountID(.malformed(.aba))),
        ("sort-code:601613/3192681", .accountID(.malformed(.sortCode))),
        ("card:amex/104", .accountID(.malformed(.card))),
        ("name:../../etc", .accountID(.malformed(.name))),
        ("name:..", .accountID(.malformed(.name))),
        ("name:", .accountID(.malformed(.name))),
        ("swift:DEUTDEFF", .accountID(.unknownScheme("swift"))),
        ("DE89370400440532013001", .iban(.checksumMismatch(actual: "89", expected: "62"))),
    ])
    func `refuses what a scheme does not allow`(input: String, error: AccountIDParseError) {
        #expect(throws: error) { try AccountID(parsing: input) }
        #expect(throws: error) {
            try AccountID(parsing: Array(input.utf8).span)
        }
    }

    @Test func `keeps an IBAN's bytes, so that ledgers and identities do not change`() throws {
        let iban = try IBAN(parsing: "DE89370400440532013000")
        let id = AccountID(iban)
        #expect(id.text == iban.electronic)
        #expect(id.fileName == iban.electronic)
        #expect(id.iban == iban)
        #expect(try AccountID(parsing: "aba:021000021/123456789").iban == nil)
    }

    @Test func `keeps a pocket per currency of an account of several`() throws {
        let wise = try AccountID(parsing: "name:wise")
        let usd = Currency(code: "USD")!
        let pocket = try #require(AccountID(wise, pocket: usd))
        #expect(pocket.text == "name:wise@USD")
        #expect(pocket.pocket == usd && pocket.base == wise && wise.pocket == nil)
        #expect(try AccountID(parsing: "name:wise @ usd") == pocket)
        let iban = try AccountID(parsing: "CH93 0076 2011 6238 5295 7@EUR")
        #expect(iban.text == "CH9300762011623852957@EUR")
        #expect(iban.iban?.electronic == "CH9300762011623852957")
        #expect(iban.fileName == "CH9300762011623852957@EUR")
        let longest = try AccountID(parsing: "name:" + String(repeating: "a", count: 32))
        #expect(AccountID(longest, pocket: usd) == nil)
        let long = try AccountID(parsing: "name:" + String(repeating: "a", count: 31))
        #expect(AccountID(long, pocket: usd)?.text.utf8.count == 40)
        for bad in ["name:wise@", "name:wise@XYZ", "name:wise@USD@EUR", "@USD"] {
            #expect(throws: AccountIDParseError.self, "\(bad)") { try AccountID(parsing: bad) }
        }
    }

    @Test func `names files that stay inside their folder`() throws {
        for text in ["aba:021000021/123456789", "card:amex/1004", "name:a.b-c", "name:..."] {
            let name = try AccountID(parsing: text).fileName
            #expect(!name.contains("/") && name != "." && name != "..", "\(name)")
        }
        #expect(try AccountID(parsing: "card:amex/1004").fileName == "card_amex_1004")
        #expect(throws: AccountIDParseError.self) { try AccountID(parsing: "name:Café/1") }
    }
}
