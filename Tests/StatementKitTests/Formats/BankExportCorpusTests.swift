import Foundation
import Testing

@testable import StatementKit

/// The real-layout exports of `Fixtures/exports` (banks, cards, wallets and brokers of 29
/// countries, most written by `Scripts/export-corpus-more.py` from the column lists banks
/// publish), read as a user without a profile reads them: each reads
/// right with no profile, or right given only its account (a folder profile with just
/// `account`), or is refused. None is misread: whatever a file yields without errors is
/// exactly its expected rows and total. `expected.tsv` holds what each file contains, written
/// beside the file when it was made, not what the tool reads.
struct BankExportCorpusTests {
    struct Expectation: CustomStringConvertible {
        enum Outcome: String { case none, account, refused }
        let file: String
        let outcome: Outcome
        let account: AccountID?
        let currency: Currency?
        let rows: Int
        let notBooked: Int
        let total: Int64

        var description: String { file }
    }

    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/exports")

    static let expectations: [Expectation] = {
        let text = try! String(
            contentsOf: folder.appendingPathComponent("expected.tsv"), encoding: .utf8)
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(
                String.init)
            return Expectation(
                file: fields[0], outcome: Expectation.Outcome(rawValue: fields[1])!,
                account: fields[2] == "-" ? nil : try! AccountID(parsing: fields[2]),
                currency: Currency(code: fields[3]), rows: Int(fields[4])!,
                notBooked: Int(fields[5])!, total: Int64(fields[6])!)
        }
    }()

    /// What reading a file gave: its transactions and findings.
    struct Reading {
        var transactions: [ParsedRow] = []
        var summary = ParseSummary()
        var collector: DiagnosticCollector

        var total: Int64 { transactions.reduce(0) { $0 + $1.transaction.amount.minorUnits } }
        var errors: [Diagnostic] { collector.diagnostics.filter { $0.severity == .error } }
    }

    static func read(_ file: String, dialect: Dialect?) -> Reading {
        let path = folder.appendingPathComponent(file).path
        var reading = Reading(collector: DiagnosticCollector(file: file))
        reading.summary = StatementFileReader.read(
            path: path, dialect: dialect, diagnostics: &reading.collector
        ) { reading.transactions.append($0) }
        return reading
    }

    /// The profile that fixes only the account: `{"account": {"id": …, "currency": …}}`.
    static func accountOnly(_ expectation: Expectation) -> Dialect {
        var dialect = Dialect.sniffing(account: expectation.account!)
        dialect.accountCurrency = expectation.currency
        return dialect
    }

    /// How a reading compares with what a file holds.
    enum Verdict: String, CaseIterable { case exact, wrong, refused }

    static func verdict(_ reading: Reading, _ expected: Expectation) -> Verdict {
        guard reading.errors.isEmpty else { return .refused }
        let exact =
            reading.transactions.count == expected.rows && reading.total == expected.total
            && reading.summary.notBookedCount == expected.notBooked
            && (expected.currency.map { currency in
                reading.transactions.allSatisfy { $0.account.currency == currency }
            } ?? true)
            && (expected.account.map { id in reading.transactions.allSatisfy { $0.account.id == id }
            }
                ?? true)
        return exact ? .exact : .wrong
    }

    /// The profile `statements profile` prints for a file given its account, if it prints one.
    static func printedProfile(_ expected: Expectation) -> Dialect? {
        let path = folder.appendingPathComponent(expected.file).path
        let bytes = Array(FileManager.default.contents(atPath: path)!)
        let given = expected.account.map { _ in accountOnly(expected) }
        guard case .dialect(let dialect, _) = DialectSniffer.sniff(bytes, account: given) else {
            return nil
        }
        let json = ProfileRenderer().render(dialect)
        return try? Dialect(profile: Array(json.utf8), path: "p.json")
    }

    @Test func `reports how many files each reading gets exactly, and reads none wrong`() {
        var table: [String: [Verdict: Int]] = [:]
        for expected in Self.expectations {
            let bare = Self.verdict(Self.read(expected.file, dialect: nil), expected)
            // A file refused without a profile is tried with an account too: never misread.
            let placeholder = Dialect.sniffing(account: try! AccountID(parsing: "name:corpus"))
            let given =
                expected.account.map { _ in
                    Self.verdict(
                        Self.read(expected.file, dialect: Self.accountOnly(expected)), expected)
                }
                ?? (expected.outcome == .refused
                    ? Self.verdict(Self.read(expected.file, dialect: placeholder), expected)
                    : bare)
            let profiled =
                Self.printedProfile(expected).map {
                    Self.verdict(Self.read(expected.file, dialect: $0), expected)
                } ?? .refused
            if ProcessInfo.processInfo.environment["CORPUS_VERBOSE"] != nil || bare == .wrong
                || given == .wrong
            {
                print("\(expected.file)\t\(expected.outcome)\t\(bare)\t\(given)\t\(profiled)")
            }
            for (given, verdict) in [
                ("nothing", bare), ("only the account", given), ("printed profile", profiled),
            ] {
                table[given, default: [:]][verdict, default: 0] += 1
            }
        }
        print("| given | read exactly | wrong with exit 0 | refused |")
        print("|---|---|---|---|")
        for given in ["nothing", "only the account", "printed profile"] {
            let row = table[given] ?? [:]
            print(
                "| \(given) | \(row[.exact] ?? 0) of \(Self.expectations.count) | \(row[.wrong] ?? 0) | \(row[.refused] ?? 0) |"
            )
            #expect(row[.wrong] == nil, "\(given)")
        }
    }

    @Test func `the corpus has at least 120 layouts from at least 15 countries`() {
        #expect(Self.expectations.count >= 120)
        let regions = Set(Self.expectations.map { $0.file.prefix(2) })
        #expect(regions.subtracting(["eu"]).count >= 15, "\(regions.sorted())")
        #expect(
            regions.isSuperset(of: [
                "us", "uk", "ca", "au", "nl", "de", "ch", "fr", "es", "it", "se", "dk", "eu",
            ]))
    }

    @Test(arguments: expectations)
    func `reads each export right or refuses it, never misreads it`(
        _ expected: Expectation
    ) {
        let bare = Self.read(expected.file, dialect: nil)
        let given = expected.account.map { _ in
            Self.read(expected.file, dialect: Self.accountOnly(expected))
        }
        // A reading without errors is exactly the file's content.
        for reading in [bare] + (given.map { [$0] } ?? []) where reading.errors.isEmpty {
            #expect(reading.transactions.count == expected.rows, "\(reading.collector.diagnostics)")
            #expect(reading.total == expected.total)
            #expect(reading.summary.notBookedCount == expected.notBooked)
            if let currency = expected.currency {
                #expect(reading.transactions.allSatisfy { $0.account.currency == currency })
            }
        }
        // What sniffing arrived at, written as a profile and read back, reads the same.
        if let reading = expected.outcome == .none ? bare : given, reading.errors.isEmpty {
            let path = Self.folder.appendingPathComponent(expected.file).path
            let bytes = Array(FileManager.default.contents(atPath: path)!)
            let sniffed = DialectSniffer.sniff(
                bytes, account: expected.outcome == .none ? nil : Self.accountOnly(expected))
            if case .dialect(let dialect, _) = sniffed {
                let json = ProfileRenderer().render(dialect)
                let profile = try? Dialect(profile: Array(json.utf8), path: "p.json")
                #expect(profile == dialect, "\(json)")
                let again = Self.read(expected.file, dialect: profile)
                #expect(again.errors.isEmpty && again.total == reading.total, "\(json)")
                #expect(again.transactions.count == reading.transactions.count)
            } else {
                Issue.record("\(expected.file) read without a dialect")
            }
        }
        switch expected.outcome {
        case .none:
            #expect(bare.errors.isEmpty, "\(bare.errors)")
            #expect(bare.transactions.count == expected.rows)
        case .account:
            #expect(bare.errors.map(\.code) == [.dialectUnknown], "\(bare.errors)")
            #expect(bare.transactions.isEmpty)
            #expect(given?.errors.isEmpty == true, "\(given?.errors ?? [])")
            #expect(given?.transactions.count == expected.rows)
            #expect(given?.transactions.allSatisfy { $0.account.id == expected.account } == true)
        case .refused:
            // A file with an error is refused whole (`import` takes none of its rows), even
            // where rows before the error were read.
            #expect(!bare.errors.isEmpty)
        }
    }
}
