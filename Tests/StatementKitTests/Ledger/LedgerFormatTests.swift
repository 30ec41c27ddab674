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

    @Test func `writes a line byte for byte`() throws {
        let lines: [(Transaction, String)] = [
            (
                Transaction(
                    date: try Day(parsing: "0042-03-07"),
                    amount: Money(minorUnits: -5, currency: .eur),
                    beneficiary: "A\\B\tC", beneficiaryIBAN: try IBAN(parsing: "BE68539007547034"),
                    description: "d\r\n", reference: "r", transactionID: "T1"),
                "0042-03-07\t-5\tA\\\\B\\tC\tBE68539007547034\td\\r\\n\tr\tT1\n"
            ),
            (
                Transaction(
                    date: try Day(parsing: "2026-12-31"),
                    amount: Money(minorUnits: 0, currency: .eur),
                    beneficiary: "K"),
                "2026-12-31\t0\tK\t\t\t\t\n"
            ),
            (
                Transaction(
                    date: try Day(parsing: "9999-01-01"),
                    amount: Money(minorUnits: -.max, currency: .eur), beneficiary: "Käse"),
                "9999-01-01\t-9223372036854775807\tKäse\t\t\t\t\n"
            ),
        ]
        for (transaction, line) in lines {
            var bytes: [UInt8] = [1, 2]
            LedgerRecord.encode(transaction, into: &bytes)
            #expect(bytes == [1, 2] + Array(line.utf8))
        }
    }

    @Test func `escapes a special byte wherever it stands in a text, and only then`() {
        func naive(_ text: [UInt8]) -> [UInt8] {
            text.flatMap { byte -> [UInt8] in
                switch byte {
                case 92: [92, 92]
                case 9: [92, UInt8(ascii: "t")]
                case 10: [92, UInt8(ascii: "n")]
                case 13: [92, UInt8(ascii: "r")]
                default: [byte]
                }
            }
        }
        // Every position of a word and of the tail after the last whole word, and bytes the
        // word-wise test must not take for special ones (`[` is 91, `]` 93, 11, 12, 14).
        for length in 0...19 {
            for special: UInt8 in [92, 9, 10, 13, 0, 11, 12, 14, 91, 93, 0xC3, 0x7F] {
                for position in 0..<max(1, length) {
                    var text = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    if length > 0 { text[position] = special }
                    var escaped: [UInt8] = []
                    text.withUnsafeBytes { LedgerRecord.escape($0, into: &escaped) }
                    #expect(escaped == naive(text), "\(text)")
                    // Never `false` for a text to escape; `true` only for one with a byte
                    // below 14 or `\` (the exact pass then decides).
                    let mayNeed = text.withUnsafeBytes(LedgerRecord.mayNeedEscaping)
                    if text.contains(where: { [92, 9, 10, 13].contains($0) }) {
                        #expect(mayNeed, "\(text)")
                    } else if !text.contains(where: { $0 < 14 }) {
                        #expect(!mayNeed, "\(text)")
                    }
                }
            }
        }
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
    static let october = Month(year: 2026, month: 10)!

    /// An account's months with two extents each in the logs.
    static let months: [Month: LedgerManifest.MonthLength] = [
        october: LedgerManifest.MonthLength(
            dataBytes: 10, idBytes: 48, dataChecksum: .of([1, 2]), idChecksum: .empty,
            extents: [
                .init(dataOffset: 0, dataBytes: 4, idOffset: 16, idBytes: 32),
                .init(dataOffset: 30, dataBytes: 6, idOffset: 80, idBytes: 16),
            ]),
        october.next!: LedgerManifest.MonthLength(
            dataBytes: 3, idBytes: 16, dataChecksum: .of([3]), idChecksum: .of([4]),
            extents: [.init(dataOffset: 36, dataBytes: 3, idOffset: 96, idBytes: 16)]),
    ]

    @Test func `round-trips accounts, pages, logs and sections`() throws {
        let iban = AccountID(try IBAN(parsing: "DE89370400440532013000"))
        let section = LedgerManifest.section(of: Self.months)
        var accounts: [AccountID: LedgerManifest.AccountEntry] = [:]
        accounts[iban] = LedgerManifest.AccountEntry(
            account: Account(id: iban, name: "A\tB", kind: .savings, currency: .eur),
            openingBalance: Money(minorUnits: -5, currency: .eur),
            lastImport: "2026-11-01T00:00:00Z", turnover: 12, months: [:],
            section: .init(offset: 7, bytes: section.count, checksum: .of(section)),
            monthsLoaded: false)
        let other = AccountID(try IBAN(parsing: "NL91ABNA0417164300"))
        accounts[other] = LedgerManifest.AccountEntry(
            account: Account(id: other, currency: .eur), turnover: 0, months: [:])
        // A page: a line per account, by id; totals unknown for months not read.
        let page = LedgerManifest.page(of: [other, iban], in: accounts)
        let pageText = String(decoding: page, as: UTF8.self)
        #expect(pageText.hasPrefix("account\tDE89370400440532013000\tEUR\tsavings\t-5\t"))
        #expect(
            pageText.contains("\tA\\tB\t7:\(section.count):\(Checksum.of(section).hexText)\t-\n"))
        #expect(pageText.hasSuffix("\t0\t-\t\t-\t0:0:-:-:0\n"))  // in balance, no months
        var manifest = LedgerManifest()
        manifest.logs = LedgerManifest.LogLengths(dataBytes: 39, idBytes: 112)
        let end = 7 + section.count + page.count
        manifest.monthsLog = LedgerManifest.MonthsLog(name: "months.3", bytes: end)
        manifest.liveBytes = end - 7
        var read = manifest
        try read.readPage(page)
        accounts[other]!.totals = AccountTotals()
        #expect(read.accounts == accounts)
        // The manifest: a line per page, where it lies in the months log.
        let number = LedgerManifest.page(of: iban)
        manifest.pages[number] = .init(
            offset: 7 + section.count, bytes: page.count, checksum: .of(page))
        manifest.unloadedPages = [number]
        let text = manifest.encoded
        #expect(
            text.hasPrefix(
                "statements-ledger 7\ngeneration\t0\nlogs\t39\t112\nmonths\tmonths.3\t\(end)\t\(end - 7)\npage\t\(number)\t\(7 + section.count):\(page.count):"
            ))
        #expect(!text.contains("account\t"))
        #expect(try LedgerManifest(decoding: text) == manifest)
        // The section: a line per month, its extents in the order appended.
        #expect(
            String(decoding: section, as: UTF8.self).hasPrefix(
                "2026-10\t10\t48\t\(Checksum.of([1, 2]).hexText)\t\(Checksum.empty.hexText)\t0:4:16:32,30:6:80:16\n2026-11\t"
            ))
        #expect(try LedgerManifest.months(ofSection: section, logs: manifest.logs) == Self.months)
        // A page past the months log's committed length is refused.
        manifest.monthsLog.bytes -= 1
        manifest.liveBytes = 0
        #expect(throws: LedgerManifest.DecodingError.self) {
            try LedgerManifest(decoding: manifest.encoded)
        }
    }

    @Test func `grows a month's last extent when its bytes follow it in both logs`() {
        var month = LedgerManifest.MonthLength.empty
        let (first, second, third): ([UInt8], [UInt8], [UInt8]) = ([1, 2], [3], [4])
        let ids = [UInt8](repeating: 0, count: 16)
        month.advance(data: first.span, ids: ids.span, at: .init())
        month.advance(data: second.span, ids: ids.span, at: .init(dataBytes: 2, idBytes: 16))
        // Another month's bytes came between: a new extent.
        month.advance(data: third.span, ids: ids.span, at: .init(dataBytes: 9, idBytes: 64))
        #expect(
            month.extents == [
                .init(dataOffset: 0, dataBytes: 3, idOffset: 0, idBytes: 32),
                .init(dataOffset: 9, dataBytes: 1, idOffset: 64, idBytes: 16),
            ])
        #expect(month.dataBytes == 4 && month.idBytes == 48)
        #expect(month.dataChecksum == .of([1, 2, 3, 4]))
    }

    @Test func `keeps a month's missing values apart from zero, and equal months equal`() {
        let bare = LedgerManifest.MonthLength(dataBytes: 0, idBytes: 0)
        #expect(bare.dataChecksum == nil && bare.idChecksum == nil)
        #expect(bare.total == nil && bare.days == nil && bare.extents == nil)
        var zeros = bare
        zeros.dataChecksum = Checksum(value: 0)
        zeros.idChecksum = Checksum(value: 0)
        zeros.total = 0
        zeros.days = 1...31
        #expect(zeros.dataChecksum == Checksum(value: 0) && zeros.idChecksum == Checksum(value: 0))
        #expect(zeros.total == 0 && zeros.days == 1...31)
        #expect(zeros != bare)
        // Each value taken away again: the month is the bare one, bit for bit.
        zeros.dataChecksum = nil
        #expect(zeros.dataChecksum == nil && zeros.idChecksum == Checksum(value: 0))
        zeros.idChecksum = nil
        zeros.total = nil
        #expect(zeros != bare)
        zeros.days = nil
        #expect(zeros == bare && zeros.hashValue == bare.hashValue)
        // What a first import at a bank's scale holds millions of (it was 96 bytes).
        #expect(MemoryLayout<LedgerManifest.MonthLength>.stride == 56)
    }

    @Test func `refuses extents outside the logs or not adding up to their month`() throws {
        func section(_ extents: String, data: Int = 10) -> [UInt8] {
            Array(
                "2026-10\t\(data)\t16\t\(Checksum.empty.hexText)\t\(Checksum.empty.hexText)\t\(extents)\n"
                    .utf8)
        }
        #expect(throws: Never.self) {
            try LedgerManifest.months(
                ofSection: section("0:10:0:16"), logs: .init(dataBytes: 10, idBytes: 16))
        }
        for (logs, extents) in [
            ((9, 16), "0:10:0:16"),  // past the data log's committed length
            ((10, 0), "0:10:0:16"),  // past the index log's
            ((10, 16), "0:9:0:16"),  // not the month's length
            ((10, 16), "0:10:8:16"),  // an index entry cut in two
            ((20, 32), "0:5:0:16,5:5"),  // an extent without its index
            ((10, 16), ""),  // none
            ((10, 16), "-1:10:0:16"),
        ] {
            #expect(throws: LedgerManifest.DecodingError.self, "\(extents)") {
                try LedgerManifest.months(
                    ofSection: section(extents), logs: .init(dataBytes: logs.0, idBytes: logs.1))
            }
        }
        // A section cut short, or with a line of another shape.
        #expect(throws: LedgerManifest.DecodingError.self) {
            try LedgerManifest.months(
                ofSection: section("0:10:0:16").dropLast(), logs: .init(dataBytes: 10, idBytes: 16))
        }
        #expect(throws: LedgerManifest.DecodingError.self) {
            try LedgerManifest.months(
                ofSection: Array("2026-10\t10\t16\n".utf8), logs: .init(dataBytes: 10, idBytes: 16))
        }
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
            text.replacingOccurrences(of: "generation\t0", with: "generation\t1"),  // changed
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

    @Test func `keys an account-month in 48 bytes`() {
        // A first import at a bank's scale holds millions of them in several tables.
        #expect(MemoryLayout<Month>.size == 3)
        #expect(MemoryLayout<AccountID>.size == 41)
        #expect(MemoryLayout<ImportRun.AccountMonth>.stride == 48)
    }

    @Test func `numbers identical rows in the order they come, each content on its own`() {
        var counter = TransactionIdentity.OccurrenceCounter()
        let contents: [UInt64] = [7, 9, 7, 7, 0, 9, 7, .max, 0]
        #expect(contents.map { counter.next($0) } == [1, 1, 2, 3, 1, 2, 4, 1, 2])
        // Past the four kept in place, in a set: 0 is a hash like any other.
        var many = TransactionIdentity.OccurrenceCounter()
        let more: [UInt64] = [1, 2, 3, 4, 5, 6, 5, 1, 6, 6, 0, 0, 4, 7, 7]
        #expect(more.map { many.next($0) } == [1, 1, 1, 1, 1, 1, 2, 2, 2, 3, 1, 2, 2, 1, 2])
    }

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

    @Test func `feeds a number's zero bytes as the byte-wise FNV-1a does`() {
        func naive(_ number: UInt64, from start: UInt64) -> UInt64 {
            (0..<8).reduce(start) { value, index in
                (value ^ (number >> (8 * UInt64(index)) & 0xFF)) &* 0x0000_0100_0000_01B3
            }
        }
        let numbers: [UInt64] = [
            0, 1, 0xFF, 0x100, 0x1_0000, 0x0100_0001, 20_261_003, 1 << 56, 0x00FF_0000_0000_0000,
            UInt64(bitPattern: -1234), .max, 0x8000_0000_0000_0000,
        ]
        for number in numbers {
            var hasher = StableHasher()
            hasher.combine(UInt64(7))
            hasher.combine(number)
            #expect(hasher.value == naive(number, from: naive(7, from: 0xCBF2_9CE4_8422_2325)))
        }
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

struct ImportedFileRecordTests {
    static func record(_ size: Int64) -> ImportedFile {
        ImportedFile(
            stamp: FileStamp(
                size: size, modified: 1_790_000_000_123_456_789, changed: 1_790_000_001_000_000_000,
                inode: 42, device: 2049),
            content: ContentHash(first: 0xDEAD_BEEF, second: .max), reading: .of([1, 2, 3]),
            transactionCount: 11, rowCount: 12, notBookedCount: 1)
    }

    @Test func `round-trips file records, whatever their paths hold`() throws {
        var manifest = LedgerManifest()
        manifest.generation = 4
        manifest.files["/in box/a.csv"] = Self.record(100)
        manifest.files["/in\tbox/new\nline\\.sta"] = Self.record(7)
        manifest.files["/unsettled.ofx"] = ImportedFile(
            stamp: .unsettled, content: ContentHash(first: 1, second: 2), reading: .empty,
            transactionCount: 0, rowCount: 0, notBookedCount: 0)
        let text = manifest.encoded
        #expect(
            text.contains(
                "\nfile\t100\t1790000000123456789\t1790000001000000000\t42\t2049\t00000000deadbeefffffffffffffffff\t"
            ))
        #expect(try LedgerManifest(decoding: text) == manifest)
    }

    @Test func `reads a format 2 manifest, which has no file records`() throws {
        var manifest = LedgerManifest()
        let iban = AccountID(try IBAN(parsing: "DE89370400440532013000"))
        manifest.accounts[iban] = LedgerManifest.AccountEntry(
            account: Account(id: iban, currency: .eur), turnover: 0, months: [:])
        // Format 2: no logs, no months log, no sections (and no file records).
        let lines = manifest.format6Lines
            .filter { !$0.hasPrefix("logs\t") && !$0.hasPrefix("months\t") }
            .map { line in
                // Without format 5's balance state and format 4's section.
                guard line.hasPrefix("account\t") else { return String(line) }
                var fields = line.split(separator: "\t", omittingEmptySubsequences: false)
                fields.remove(at: 7)
                return fields.dropLast().joined(separator: "\t")
            }
        let body = (["statements-ledger 2"] + lines.dropFirst()).joined(separator: "\n") + "\n"
        let format2 = body + "end\t\(Checksum.of(body[...].utf8).hexText)\n"
        let read = try LedgerManifest(decoding: format2)
        #expect(read.version == 2)
        #expect(read.accounts == manifest.accounts)
        #expect(read.files.isEmpty)
        // A file record in a format 2 manifest is not one of its records.
        let withFile =
            body
            + "file\t1\t1\t1\t1\t1\t\(ContentHash(first: 1, second: 1))\t\(Checksum.empty.hexText)\t0\t0\t0\t/a\n"
        #expect(throws: LedgerManifest.DecodingError.self) {
            try LedgerManifest(
                decoding: withFile + "end\t\(Checksum.of(withFile[...].utf8).hexText)\n")
        }
    }

    @Test func `refuses a damaged file record`() throws {
        var manifest = LedgerManifest()
        manifest.files["/a.csv"] = Self.record(100)
        let good = manifest.encoded.split(separator: "\n").dropLast().joined(separator: "\n") + "\n"
        for damaged in [
            good.replacingOccurrences(of: "\t42\t", with: "\tx\t"),
            good.replacingOccurrences(of: "deadbeef", with: "deadbeeg"),
            good.replacingOccurrences(of: "\t11\t12\t1\t", with: "\t-11\t12\t1\t"),
            good.replacingOccurrences(of: "\t/a.csv", with: ""),
        ] {
            let text = LedgerManifest.sealed(Array(damaged.utf8))
            #expect(throws: LedgerManifest.DecodingError.self) {
                try LedgerManifest(decoding: text)
            }
        }
    }
}

struct ContentHashTests {
    @Test func `hashes the same bytes alike however they are fed`() {
        var generator = SeededGenerator(seed: 11)
        for length in [0, 1, 7, 8, 9, 63, 64, 65, 1000] {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let whole = ContentHash.of(bytes)
            var pieces = ContentHasher()
            var start = 0
            while start < length {
                let end = min(length, start + Int.random(in: 1...13, using: &generator))
                bytes[start..<end].withUnsafeBytes { pieces.feed($0) }
                start = end
            }
            #expect(pieces.finish() == whole)
            #expect(ContentHash(hexText: whole.description) == whole)
        }
    }

    @Test func `hashes a file as it is read to what hashing it on its own gives`() throws {
        let folder = try TemporaryFolder()
        // Three and a half reads' worth, so that the hash goes on past where reading stopped.
        let text = String(
            (0..<(3_600_000 / 36)).map { "2026-10-\($0 % 28 + 1),line \($0)\n" }.joined())
        let file = try folder.write("s.csv", text)
        let whole = try FileByteSource(path: file).contentHash()
        #expect(whole == ContentHash.of(Array(text.utf8)))
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        for (reads, skips) in [(0, false), (2, false), (5, false), (2, true)] {
            let source = try FileByteSource(path: file, hashing: true)
            if skips { _ = try source.readAll(from: 10) }
            for _ in 0..<reads {
                _ = try chunk.withUnsafeMutableBytes { try source.read(into: $0) }
            }
            #expect(try source.contentHashOfWhole() == whole, "\(reads) reads, skips \(skips)")
        }
    }

    @Test func `tells apart bytes that differ in one bit, in length or in order`() {
        let base = Array("date,account_iban,amount\n2026-10-03,DE89,-1.50\n".utf8)
        var hashes: Set<ContentHash> = [ContentHash.of(base)]
        for index in base.indices {
            for bit in 0..<8 {
                var changed = base
                changed[index] ^= 1 << bit
                hashes.insert(ContentHash.of(changed))
            }
        }
        hashes.insert(ContentHash.of(base + [0]))
        hashes.insert(ContentHash.of(Array(base.dropLast())))
        hashes.insert(ContentHash.of(Array(base.reversed())))
        #expect(hashes.count == 1 + base.count * 8 + 3)
        #expect(ContentHash(hexText: "0123456789abcdef0123456789abcdeg") == nil)
        #expect(ContentHash(hexText: "+123456789abcdef0123456789abcdef") == nil)
    }
}
