import Foundation
import Testing

@testable import StatementKit

/// Issue #34's property: for random sets of statement files per account (running balances,
/// opening and closing balances, some statements missing, some delivered twice), every order
/// of import gives the ledger one run over all files gives: the same balances, counts and
/// verdicts.
struct BalanceAssertionPropertyTests {
    static let accounts = ["DE89370400440532013000", "NL91ABNA0417164300"]

    /// One account's bookings, by day, and its balance before the first.
    struct Timeline {
        var opening: Int64
        var days: [(day: Day, amounts: [Int64])]
    }

    /// A statement: a run of consecutive days of one account's timeline.
    struct Statement {
        let account: String
        let opening: Int64
        let days: [(day: Day, amounts: [Int64])]

        var closing: Int64 { days.reduce(opening) { $0 + $1.amounts.reduce(0, +) } }
    }

    static func decimal(_ cents: Int64) -> String {
        let sign = cents < 0 ? "-" : ""
        let magnitude = cents.magnitude
        return "\(sign)\(magnitude / 100).\(magnitude % 100 < 10 ? "0" : "")\(magnitude % 100)"
    }

    static func timeline(_ random: inout SeededGenerator) -> Timeline {
        var days: [(day: Day, amounts: [Int64])] = []
        var ordinal = try! Day(year: 2026, month: 9, day: 20).ordinal
        for _ in 0..<Int.random(in: 8...16, using: &random) {
            ordinal += Int.random(in: 1...5, using: &random)
            let amounts = (0..<Int.random(in: 1...3, using: &random)).map { _ in
                Int64.random(in: 1...200_000, using: &random)
                    * (Bool.random(using: &random) ? 1 : -1)
            }
            days.append((Day(ordinal: ordinal), amounts))
        }
        return Timeline(opening: Int64.random(in: 0...1_000_000, using: &random), days: days)
    }

    /// The statement's text, as canonical CSV with a running balance column, or as JSON with
    /// opening and closing balances; every booking's beneficiary names its day and place, so
    /// that no two are the same transaction.
    static func text(of statement: Statement, asJSON: Bool) -> String {
        var balance = statement.opening
        if asJSON {
            var rows: [String] = []
            for (day, amounts) in statement.days {
                for (index, amount) in amounts.enumerated() {
                    rows.append(
                        "{\"date\": \"\(day.isoText)\", \"amount\": \"\(decimal(amount))\", \"beneficiary\": \"Shop \(day.isoText) \(index)\"}"
                    )
                }
            }
            return """
                {"account": {"iban": "\(statement.account)"}, "openingBalance": "\(decimal(statement.opening))",
                 "closingBalance": "\(decimal(statement.closing))",
                 "transactions": [\(rows.joined(separator: ",\n  "))]}

                """
        }
        var lines = ["date,account_iban,amount,beneficiary,balance"]
        for (day, amounts) in statement.days {
            for (index, amount) in amounts.enumerated() {
                balance += amount
                lines.append(
                    "\(day.isoText),\(statement.account),\(decimal(amount)),Shop \(day.isoText) \(index),\(decimal(balance))"
                )
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// What the ledger shows of each account: count, balance, the latest bank balance and
    /// the ledger's at its day, and the balance state.
    static func figures(_ ledger: TestLedger) throws -> [String] {
        try ledger.accounts().map { summary in
            "\(summary.account.id.text) \(summary.transactionCount) \(summary.balance.minorUnits)"
                + " \(summary.bankBalance.map { "\($0.assertion.day) \($0.assertion.balance.minorUnits) \($0.ledger.minorUnits)" } ?? "-")"
                + " \(summary.outOfBalance.map { "\($0.since) \($0.difference.minorUnits)" } ?? "in balance")"
        }
    }

    @Test(arguments: 1...24)
    func `gives the same ledger in any order of import as in one run`(seed: Int) throws {
        var random = SeededGenerator(seed: UInt64(seed))
        let folder = try TemporaryFolder()
        var files: [String] = []
        var expectsGap: [String: Bool] = [:]
        for account in Self.accounts {
            let timeline = Self.timeline(&random)
            // Cut into 3 to 5 statements of consecutive days.
            var cuts = Set<Int>()
            while cuts.count < Int.random(in: 2...4, using: &random) {
                cuts.insert(Int.random(in: 1..<timeline.days.count, using: &random))
            }
            var statements: [Statement] = []
            var start = 0
            var opening = timeline.opening
            for end in cuts.sorted() + [timeline.days.count] {
                let statement = Statement(
                    account: account, opening: opening, days: Array(timeline.days[start..<end]))
                statements.append(statement)
                opening = statement.closing
                start = end
            }
            // Sometimes one statement never arrives; one inside the others leaves a gap.
            var missing: Int?
            if Bool.random(using: &random) {
                missing = Int.random(in: 0..<statements.count, using: &random)
            }
            let inJSON = statements.map { _ in Bool.random(using: &random) }
            // A JSON statement states its opening and closing balances; a CSV one its running
            // balances, which say nothing of a file of a single day (it may start and end
            // within it). A missing statement leaves a gap where a statement before it and one
            // after it state balances.
            let states = statements.indices.map { inJSON[$0] || statements[$0].days.count > 1 }
            expectsGap[account] =
                missing.map { index in
                    statements[index].closing != statements[index].opening
                        && states[..<index].contains(true) && states[(index + 1)...].contains(true)
                } ?? false
            for (index, statement) in statements.enumerated() where index != missing {
                let asJSON = inJSON[index]
                let name = "\(account)-\(index).\(asJSON ? "json" : "csv")"
                let text = Self.text(of: statement, asJSON: asJSON)
                files.append(try folder.write(name, text))
                // Sometimes delivered twice, under another name.
                if Int.random(in: 0..<4, using: &random) == 0 {
                    files.append(try folder.write("again-" + name, text))
                }
            }
        }
        // One run over all files.
        let whole = try TestLedger()
        let report = try whole.controller().importFiles(at: files)
        #expect(report.rejectedCount == 0)
        let expected = try Self.figures(whole)
        for account in Self.accounts {
            let line = try #require(expected.first { $0.hasPrefix(account) })
            #expect(line.hasSuffix("in balance") != expectsGap[account]!, "\(line)")
        }
        // Each file in a run of its own, in three random orders.
        for _ in 0..<3 {
            let ledger = try TestLedger()
            for file in files.shuffled(using: &random) {
                _ = try ledger.controller().importFiles(at: [file])
            }
            #expect(try Self.figures(ledger) == expected, "seed \(seed)")
        }
    }
}
