import Testing

@testable import StatementKit

struct LedgerRecordTests {
    @Test func `round-trips transactions with every kind of text`() throws {
        let transactions = [
            Transaction(
                date: try Day(parsing: "2026-10-03"),
                amount: Money(minorUnits: -1234, currency: .eur),
                beneficiary: "Tab\there, new\nline\r and \\ backslash",
                beneficiaryIBAN: try IBAN(parsing: "FR1420041010050500013M02606"),
                description: "Müller 東京 😀", reference: "TX-1"),
            Transaction(
                date: try Day(parsing: "2024-02-29"),
                amount: Money(minorUnits: .max, currency: .eur), beneficiary: "K"),
        ]
        var bytes: [UInt8] = []
        for transaction in transactions { LedgerRecord.encode(transaction, into: &bytes) }
        #expect(bytes.filter { $0 == 10 }.count == 2)
        #expect(try LedgerRecord.decode(bytes, currency: .eur) == transactions)
        #expect(
            try LedgerRecord.sum(Array(bytes.prefix(bytes.firstIndex(of: 10)! + 1)), currency: .eur)
                .minorUnits == -1234)
    }

    @Test func `refuses a damaged record`() {
        #expect(throws: LedgerRecord.DecodingError.self) {
            try LedgerRecord.decode(Array("2026-10-03\t12\tK\t\t\t".utf8), currency: .eur)
        }
        #expect(throws: LedgerRecord.DecodingError.self) {
            try LedgerRecord.sum(Array("2026-10-03\t1x2\tK\t\t\t\n".utf8), currency: .eur)
        }
        #expect(throws: LedgerRecord.DecodingError.self) {
            try LedgerRecord.decode(Array("2026-10-03\t12\n".utf8), currency: .eur)
        }
    }
}

struct LedgerManifestTests {
    @Test func `round-trips accounts and month lengths`() throws {
        var manifest = LedgerManifest()
        let iban = try IBAN(parsing: "DE89370400440532013000")
        manifest.accounts[iban] = LedgerManifest.AccountEntry(
            account: Account(iban: iban, name: "A\tB", kind: .savings, currency: .eur),
            openingBalance: Money(minorUnits: -5, currency: .eur),
            lastImport: "2026-11-01T00:00:00Z",
            months: [
                Month(year: 2026, month: 10)!: LedgerManifest.MonthLength(
                    dataBytes: 10, idBytes: 16)
            ])
        #expect(manifest.encoded.hasPrefix("statements-ledger 1\n"))
        #expect(try LedgerManifest(decoding: manifest.encoded) == manifest)
    }

    @Test func `refuses newer versions and damage`() {
        #expect(throws: LedgerManifest.DecodingError.newerVersion(9)) {
            try LedgerManifest(decoding: "statements-ledger 9\n")
        }
        #expect(throws: LedgerManifest.DecodingError.self) {
            try LedgerManifest(decoding: "something else\n")
        }
        #expect(throws: LedgerManifest.DecodingError.self) {
            try LedgerManifest(
                decoding: "statements-ledger 1\nmonth\tDE89370400440532013000\t2026-10\t1\t8\n")
        }
    }
}

struct TransactionIdentityTests {
    static let iban = try! IBAN(parsing: "DE89370400440532013000")

    static func transaction(
        reference: String? = nil, description: String? = nil, day: String = "2026-10-03"
    ) -> Transaction {
        Transaction(
            date: try! Day(parsing: day), amount: Money(minorUnits: -320, currency: .eur),
            beneficiary: "Café",
            description: description, reference: reference)
    }

    @Test func `is stable across processes`() {
        // FNV-1a 64 of the length-prefixed fields, computed independently in Python: a change of the
        // hash would orphan every stored ledger.
        #expect(
            TransactionIdentity(
                account: Self.iban, transaction: Self.transaction(reference: "TX-1"), occurrence: 1
            ).hash == 0x2D74_0F12_9878_A8EF)
        #expect(
            TransactionIdentity(account: Self.iban, transaction: Self.transaction(), occurrence: 1)
                .hash == 0x655B_A31D_C2B4_213F)
        #expect(
            TransactionIdentity(account: Self.iban, transaction: Self.transaction(), occurrence: 2)
                .hash == 0x086B_4E02_A1E6_42DC)
    }

    @Test func `uses the reference alone when there is one`() {
        let a = TransactionIdentity(
            account: Self.iban, transaction: Self.transaction(reference: "R"), occurrence: 1)
        let b = TransactionIdentity(
            account: Self.iban, transaction: Self.transaction(reference: "R", day: "2026-10-09"),
            occurrence: 2)
        #expect(a == b)
        #expect(a.isReference)
    }

    @Test func `tells identical rows apart by their occurrence and fields apart by content`() {
        let one = TransactionIdentity(
            account: Self.iban, transaction: Self.transaction(), occurrence: 1)
        #expect(
            one
                != TransactionIdentity(
                    account: Self.iban, transaction: Self.transaction(), occurrence: 2))
        #expect(
            one
                != TransactionIdentity(
                    account: Self.iban, transaction: Self.transaction(description: ""),
                    occurrence: 1))
        #expect(
            one
                != TransactionIdentity(
                    account: Self.iban, transaction: Self.transaction(day: "2026-10-04"),
                    occurrence: 1))
        #expect(!one.isReference)
    }
}
