import Foundation
import Testing

@testable import StatementKit

/// Deterministic mutations of the sample files: byte flips, inserted quotes, separators and
/// line ends, long digit runs, truncations. Every case must parse without a crash or a hang,
/// give the same result twice, keep its diagnostics bounded, and produce rows only when the
/// file has no error.
enum Mutator {
    static let inserts: [[UInt8]] = [
        [UInt8(ascii: "\"")], [UInt8(ascii: ",")], [UInt8(ascii: "\n")], [UInt8(ascii: "\r")],
        [0x0D, 0x0A],
        Array(repeating: UInt8(ascii: "9"), count: 40), [0], [0xFF], [0xC3], [0xE2, 0x80, 0xAE],
        [0x1B, 0x5B, 0x32, 0x4A],
        Array("{[".utf8), Array("}]".utf8), Array("\\u".utf8), Array(".".utf8), Array("-".utf8),
        Array("e999".utf8),
    ]

    static func mutate(_ input: [UInt8], using generator: inout SeededGenerator) -> [UInt8] {
        var bytes = input
        for _ in 0..<Int.random(in: 1...4, using: &generator) where !bytes.isEmpty {
            let position = Int.random(in: 0..<bytes.count, using: &generator)
            switch Int.random(in: 0..<6, using: &generator) {
            case 0: bytes[position] ^= UInt8(1 << Int.random(in: 0..<8, using: &generator))
            case 1:
                bytes.insert(contentsOf: inserts.randomElement(using: &generator)!, at: position)
            case 2:
                bytes.removeSubrange(
                    position..<min(bytes.count, position + Int.random(in: 1...8, using: &generator))
                )
            case 3: bytes = Array(bytes.prefix(position))
            case 4: bytes[position] = UInt8.random(in: 0...255, using: &generator)
            default:
                let other = Int.random(in: 0..<bytes.count, using: &generator)
                bytes.swapAt(position, other)
            }
        }
        return bytes
    }

    static func samples(_ suffix: String) throws -> [[UInt8]] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
                "SampleData")
        var files: [[UInt8]] = []
        for folder in ["good", "bad"] {
            let url = root.appendingPathComponent(folder)
            for name in try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
            where name.hasSuffix(suffix) {
                files.append(Array(try Data(contentsOf: url.appendingPathComponent(name))))
            }
        }
        // The shapes of the linear-time tests: minified JSON and long CSV lines, valid, with a
        // warning per row and with an error per row.
        for content in LinearTimeTests.Content.allCases {
            files.append(
                suffix == ".json"
                    ? LinearTimeTests.json(rows: 5, content: content, shape: .longLine)
                    : LinearTimeTests.csv(rows: 5, content: content, shape: .longLine))
        }
        return files
    }
}

struct FuzzTests {
    /// 10,000 per format in the normal run; `Scripts/fuzz N` sets `STATEMENTS_FUZZ_CASES`.
    static let casesPerFormat =
        ProcessInfo.processInfo.environment["STATEMENTS_FUZZ_CASES"].flatMap { Int($0) } ?? 10_000

    /// The seed; `Scripts/fuzz` varies it with `STATEMENTS_FUZZ_SEED`.
    static let seed =
        ProcessInfo.processInfo.environment["STATEMENTS_FUZZ_SEED"].flatMap { UInt64($0) } ?? 0

    static func check(_ bytes: [UInt8], parse: ([UInt8]) -> ParseResult) -> String? {
        let first = parse(bytes)
        let second = parse(bytes)
        if first.places != second.places
            || first.rows.map(\.transaction) != second.rows.map(\.transaction)
        {
            return "not deterministic"
        }
        if first.diagnostics.count > 100 { return "more than 100 diagnostics kept" }
        if first.errorCount > 0 && first.diagnostics.isEmpty {
            return "errors counted but none kept"
        }
        if first.diagnostics.contains(where: {
            $0.message.unicodeScalars.contains { $0.value < 0x20 || $0 == "\u{202E}" }
        }) {
            return "a control character in a message"
        }
        if first.rows.contains(where: { $0.transaction.beneficiary.allSatisfy(\.isWhitespace) }) {
            return "a blank beneficiary accepted"
        }
        return nil
    }

    @Test func `survives thousands of mutated CSV files`() throws {
        var generator = SeededGenerator(seed: 2026 &+ Self.seed)
        let samples = try Mutator.samples(".csv")
        var failures: [String] = []
        for index in 0..<Self.casesPerFormat {
            let bytes = Mutator.mutate(samples[index % samples.count], using: &generator)
            if let failure = Self.check(bytes, parse: { parseCSV($0) }) {
                failures.append("case \(index): \(failure): \(Array(bytes.prefix(200)))")
            }
            let checkOnly = parseCSV(bytes, buildsRows: false)
            let full = parseCSV(bytes)
            if checkOnly.places != full.places || checkOnly.errorCount != full.errorCount
                || !checkOnly.rows.isEmpty
            {
                failures.append("case \(index): checking without building rows reports differently")
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(3))")
    }

    /// The sample bank exports of `SampleData/profiles`, each with its profile.
    static func bankExports() throws -> [(bytes: [UInt8], dialect: Dialect)] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("SampleData/profiles")
        var exports: [([UInt8], Dialect)] = []
        for folder in try FileManager.default.contentsOfDirectory(atPath: root.path).sorted() {
            let url = root.appendingPathComponent(folder)
            let profile = Array(
                try Data(contentsOf: url.appendingPathComponent("statements-profile.json")))
            let dialect = try Dialect(profile: profile, path: folder)
            for name in try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
            where name.hasSuffix(".csv") {
                exports.append(
                    (Array(try Data(contentsOf: url.appendingPathComponent(name))), dialect))
            }
        }
        return exports
    }

    @Test func `survives thousands of mutated bank exports, sniffed and with their profiles`()
        throws
    {
        var generator = SeededGenerator(seed: 4711 &+ Self.seed)
        let exports = try Self.bankExports()
        var failures: [String] = []
        for index in 0..<Self.casesPerFormat / 2 {
            let (sample, profile) = exports[index % exports.count]
            let bytes = Mutator.mutate(sample, using: &generator)
            if let failure = Self.check(bytes, parse: { parseCSV($0, dialect: profile) }) {
                failures.append("case \(index) with its profile: \(failure)")
            }
            if case .dialect(let sniffed, _) = DialectSniffer.sniff(bytes),
                let failure = Self.check(bytes, parse: { parseCSV($0, dialect: sniffed) })
            {
                failures.append("case \(index) sniffed: \(failure)")
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(3))")
    }

    @Test func `survives thousands of mutated JSON files`() throws {
        var generator = SeededGenerator(seed: 13616 &+ Self.seed)
        let samples = try Mutator.samples(".json")
        var failures: [String] = []
        for index in 0..<Self.casesPerFormat {
            let bytes = Mutator.mutate(samples[index % samples.count], using: &generator)
            if let failure = Self.check(bytes, parse: { parseJSON($0) }) {
                failures.append(
                    "case \(index): \(failure): \(String(decoding: bytes.prefix(300), as: UTF8.self))"
                )
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(3))")
    }
}

extension FuzzTests {
    /// The statements of `SampleData/formats` (MT940, camt.053, OFX, QFX) and the bad ones.
    static func bankFormats() throws -> [[UInt8]] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("SampleData")
        var files: [[UInt8]] = []
        for folder in ["formats", "bad"] {
            let url = root.appendingPathComponent(folder)
            for name in try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
            where [".sta", ".940", ".xml", ".ofx", ".qfx"].contains(where: name.hasSuffix) {
                files.append(Array(try Data(contentsOf: url.appendingPathComponent(name))))
            }
        }
        return files
    }

    @Test func `survives thousands of mutated MT940, camt and OFX files`() throws {
        var generator = SeededGenerator(seed: 940 &+ Self.seed)
        let samples = try Self.bankFormats()
        #expect(samples.count >= 9)
        var failures: [String] = []
        for index in 0..<Self.casesPerFormat / 2 {
            let bytes = Mutator.mutate(samples[index % samples.count], using: &generator)
            if let failure = Self.check(bytes, parse: { parseBankFormat($0) }) {
                failures.append(
                    "case \(index): \(failure): \(String(decoding: bytes.prefix(200), as: UTF8.self))"
                )
            }
            let full = parseBankFormat(bytes)
            let checkOnly = parseBankFormat(bytes, buildsRows: false)
            if checkOnly.places != full.places {
                failures.append("case \(index): checking without building rows reports differently")
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(3))")
    }
}

struct FuzzImportTests {
    /// 300 mutated sample files, each into a fresh ledger: a file is rejected exactly when it
    /// has an error; otherwise the ledger holds its rows (a repeated transaction id once) and every
    /// account's balance is its opening balance plus exactly those amounts.
    @Test func `imports mutated files whole or not at all, with exact totals`() throws {
        var generator = SeededGenerator(seed: 77 &+ FuzzTests.seed)
        let samples =
            try Mutator.samples(".csv").map { ($0, "csv") }
            + Mutator.samples(".json").map { ($0, "json") }
        var failures: [String] = []
        for index in 0..<300 {
            let (sample, kind) = samples[index % samples.count]
            let bytes = Mutator.mutate(sample, using: &generator)
            let ledger = try TestLedger()
            let path = ledger.files.path + "/case.\(kind)"
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let report = try ledger.controller().importFiles(at: [path])
            // Read as import reads it: a CSV file whose header is not canonical is sniffed.
            var parsed = ParseResult()
            var collector = DiagnosticCollector(file: path)
            parsed.summary = StatementFileReader.read(path: path, diagnostics: &collector) {
                parsed.rows.append($0)
            }
            if parsed.summary.needsSniffing {
                // Windows-1252 text streamed as UTF-8: import reads it again, sniffed.
                (parsed, collector) = (ParseResult(), DiagnosticCollector(file: path))
                parsed.summary = StatementFileReader.read(
                    path: path, sniffing: true, diagnostics: &collector
                ) { parsed.rows.append($0) }
            }
            parsed.errorCount = collector.errorCount
            let accounts = try ledger.accounts()
            guard parsed.errorCount == 0 else {
                if report.files.map(\.outcome) != [.rejected] || !accounts.isEmpty {
                    failures.append("case \(index): a file with errors was imported")
                }
                continue
            }
            var seen: Set<String> = []
            var expected: [String: (count: Int, total: Int64)] = [:]
            for row in parsed.rows {
                let iban = row.account.id.text
                // A transaction id listed twice (same amount, close dates) is one booking.
                if let id = row.transaction.transactionID, !seen.insert(iban + "\t" + id).inserted {
                    continue
                }
                expected[iban, default: (0, 0)].count += 1
                expected[iban, default: (0, 0)].total += row.transaction.amount.minorUnits
            }
            for account in accounts {
                let iban = account.account.id.text
                let opening = parsed.summary.openingBalances[account.account.id]?.minorUnits ?? 0
                if account.transactionCount != expected[iban]?.count
                    || account.balance.minorUnits != opening + (expected[iban]?.total ?? 0)
                {
                    failures.append(
                        "case \(index): \(iban) holds \(account.transactionCount) / \(account.balance.minorUnits)"
                    )
                }
            }
            if Set(accounts.map(\.account.id.text)) != Set(expected.keys) {
                failures.append(
                    "case \(index): accounts \(accounts.map(\.account.id.text)) for \(expected.keys)"
                )
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
    }
}
