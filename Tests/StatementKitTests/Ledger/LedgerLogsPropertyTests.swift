import Foundation
import Testing

@testable import StatementKit

/// The logs and the months log, whatever the runs: files imported over many runs, in small
/// steps, some rejected, with months logs copied at every chance, hold exactly what one run
/// over the same files holds.
struct LedgerLogsPropertyTests {
    static let accounts = ["DE89370400440532013000", "BE68539007547034", "NL91ABNA0417164300"]

    /// A statement file of random rows over three accounts and three months; with `isBad`,
    /// one row has an amount with three decimals, so the whole file is rejected.
    static func file(_ generator: inout SeededGenerator, isBad: Bool) -> String {
        var text = StateControllerTests.header
        let count = Int.random(in: 1...40, using: &generator)
        let bad = isBad ? Int.random(in: 0..<count, using: &generator) : -1
        for index in 0..<count {
            let month = ["09", "10", "11"].randomElement(using: &generator)!
            let day = String(format: "%02d", Int.random(in: 1...28, using: &generator))
            let account = accounts.randomElement(using: &generator)!
            let cents = Int.random(in: -5_000...5_000, using: &generator)
            let amount =
                index == bad
                ? "1.005"
                : "\(cents < 0 ? "-" : "")\(abs(cents) / 100).\(String(format: "%02d", abs(cents) % 100))"
            // A few repeated rows (identical coffees) and transaction ids.
            let name = ["Kiosk", "Café", "Rent"].randomElement(using: &generator)!
            let id =
                Bool.random(using: &generator)
                ? "" : "T\(Int.random(in: 0..<60, using: &generator))-\(cents)"
            text += "2026-\(month)-\(day),\(account),\(amount),\(name),,\(id)\n"
        }
        return text
    }

    @Test(arguments: 0..<12)
    func `hold what one run over the same files holds`(seed: Int) throws {
        var generator = SeededGenerator(seed: UInt64(seed))
        let runs = try TestLedger()
        let whole = try TestLedger()
        var paths: [String] = []
        var outcomes: [FileImport.Outcome] = []
        for index in 0..<Int.random(in: 3...8, using: &generator) {
            let text = Self.file(&generator, isBad: Int.random(in: 0..<4, using: &generator) == 0)
            paths.append(try runs.files.write("f\(index).csv", text))
        }
        // The files in runs of one to three, each written out in steps of 60 to 600 bytes,
        // the months log written in pieces of 1 to 300 bytes and copied whenever a section is
        // superseded, and the identities of months not touched lately let go of (read again
        // from the logs) after every step.
        var next = 0
        while next < paths.count {
            let batch = Array(
                paths[next..<min(paths.count, next + Int.random(in: 1...3, using: &generator))])
            next += batch.count
            let storage = StorageController(folder: runs.state)
            storage.monthsLogSlack = 0
            storage.monthsLogChunk = Int.random(in: 1...300, using: &generator)
            let controller = runs.controller(
                storage, stagingLimit: Int.random(in: 60...600, using: &generator))
            controller.identityLimit = Int.random(in: 0...2, using: &generator)
            let report = try controller.importFiles(at: batch)
            outcomes += report.files.map(\.outcome)
            let manifest = try StorageController(folder: runs.state).loadManifest()
            let live =
                manifest.accounts.values.reduce(0) { $0 + ($1.section?.bytes ?? 0) }
                + manifest.pages.reduce(0) { $0 + ($1?.bytes ?? 0) }
            #expect(manifest.liveBytes == live)
            #expect(manifest.monthsLog.bytes <= 2 * live)
        }
        #expect(outcomes.contains { if case .imported = $0 { true } else { false } })
        let once = try whole.controller().importFiles(at: paths)
        #expect(once.files.map(\.outcome) == outcomes)
        #expect(try runs.contents() == whole.contents())
        #expect(try StorageController(folder: runs.state).check().problems.isEmpty)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: runs.state).filter {
                $0.hasPrefix("months.")
            }.count <= 1)
    }
}
