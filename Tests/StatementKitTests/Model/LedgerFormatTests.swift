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
        let iban = AccountID(try IBAN(parsing: "DE89370400440532013000"))
        manifest.accounts[iban] = LedgerManifest.AccountEntry(
            account: Account(id: iban, name: "A\tB", kind: .savings, currency: .eur),
            openingBalance: Money(minorUnits: -5, currency: .eur),
            lastImport: "2026-11-01T00:00:00Z", turnover: 12,
            months: [
                Month(year: 2026, month: 10)!: LedgerManifest.MonthLength(
                    dataBytes: 10, idBytes: 16, dataChecksum: .of([1, 2]), idChecksum: .empty)
            ])
        #expect(manifest.encoded.hasPrefix("statements-ledger 2\n"))
        #expect(try LedgerManifest(decoding: manifest.encoded) == manifest)
    }

    @Test func `refuses a manifest cut short or changed by hand`() throws {
        var manifest = LedgerManifest()
        let iban = AccountID(try IBAN(parsing: "DE89370400440532013000"))
        manifest.accounts[iban] = LedgerManifest.AccountEntry(
            account: Account(id: iban, currency: .eur), turnover: 0, months: [:])
        let text = manifest.encoded
        let lines = text.split(separator: "\n")
        for damaged in [
            lines.dropLast().joined(separator: "\n") + "\n",  // the end line lost
            String(text.dropLast(5)),  // cut mid-line
            text.replacingOccurrences(of: "checking", with: "savings"),  // changed
        ] {
            #expect(throws: LedgerManifest.DecodingError.self) {
                try LedgerManifest(decoding: damaged)
            }
        }
    }

    @Test func `reads a format 1 manifest as it was written`() throws {
        let manifest = try LedgerManifest(
            decoding: "statements-ledger 1\ngeneration\t3\n"
                + "account\tDE89370400440532013000\tEUR\tchecking\t-\t-\tHousehold\n"
                + "month\tDE89370400440532013000\t2026-10\t120\t16\n")
        #expect(manifest.version == 1)
        #expect(manifest.generation == 3)
        let entry = try #require(manifest.accounts.values.first)
        #expect(entry.turnover == nil)
        #expect(
            entry.months[Month(year: 2026, month: 10)!]
                == LedgerManifest.MonthLength(dataBytes: 120, idBytes: 16))
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
    static let iban = AccountID(try! IBAN(parsing: "DE89370400440532013000"))

    static func transaction(
        reference: String? = nil, transactionID: String? = nil, description: String? = nil,
        day: String = "2026-10-03", minorUnits: Int64 = -320
    ) -> Transaction {
        Transaction(
            date: try! Day(parsing: day), amount: Money(minorUnits: minorUnits, currency: .eur),
            beneficiary: "Café",
            description: description, reference: reference, transactionID: transactionID)
    }

    @Test func `is stable across processes`() {
        // FNV-1a 64 of the length-prefixed fields, computed independently in Python: a change of the
        // hash would orphan every stored ledger.
        #expect(
            TransactionIdentity(
                account: Self.iban, transaction: Self.transaction(transactionID: "TX-1"),
                occurrence: 1
            ).hash == 0xBAEF_299E_C7EA_AE2D)
        #expect(
            TransactionIdentity(account: Self.iban, transaction: Self.transaction(), occurrence: 1)
                .hash == 0x46BD_751E_B2D0_66C7)
        #expect(
            TransactionIdentity(account: Self.iban, transaction: Self.transaction(), occurrence: 2)
                .hash == 0xE9CD_2003_9202_8864)
    }

    @Test func `uses the transaction id alone when there is one`() {
        let a = TransactionIdentity(
            account: Self.iban, transaction: Self.transaction(transactionID: "T"), occurrence: 1)
        let b = TransactionIdentity(
            account: Self.iban,
            transaction: Self.transaction(transactionID: "T", day: "2026-10-09"), occurrence: 2)
        #expect(a == b)
        #expect(a.isTransactionID)
    }

    @Test func `counts a shared payment reference as content, not identity`() {
        let salary = TransactionIdentity(
            account: Self.iban,
            transaction: Self.transaction(reference: "REF-1", minorUnits: 150_000),
            occurrence: 1)
        let rent = TransactionIdentity(
            account: Self.iban,
            transaction: Self.transaction(reference: "REF-1", minorUnits: -50_000),
            occurrence: 1)
        #expect(salary != rent)
        #expect(!salary.isTransactionID)
        #expect(
            salary
                != TransactionIdentity(
                    account: Self.iban, transaction: Self.transaction(minorUnits: 150_000),
                    occurrence: 1))
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
        #expect(!one.isTransactionID)
    }
}
