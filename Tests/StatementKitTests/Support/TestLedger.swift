import Foundation
import Testing

@testable import StatementKit

/// A ledger in a temporary folder, with helpers to import text and read the result.
final class TestLedger {
    let files: TemporaryFolder
    let state: String

    init() throws {
        files = try TemporaryFolder()
        state = files.path + "/ledger"
    }

    /// A controller; a small `stagingLimit` makes it write a file out in many steps.
    func controller(_ storage: StorageController? = nil, stagingLimit: Int = 16 << 20)
        -> StateController
    {
        StateController(
            storage: storage ?? StorageController(folder: state), clock: { "2026-11-01T00:00:00Z" },
            stagingLimit: stagingLimit)
    }

    @discardableResult
    func importText(_ text: String, name: String = "in.csv", dryRun: Bool = false) throws
        -> ImportReport
    {
        let path = try files.write(name, text)
        return try controller().importFiles(at: [path], dryRun: dryRun)
    }

    func accounts() throws -> [AccountSummary] {
        try controller().accountSummaries()
    }

    func account(_ iban: String) throws -> AccountSummary {
        try #require(try accounts().first { $0.account.id.text == iban })
    }

    /// Every file of the state folder but the lock, with its bytes.
    func snapshot() throws -> [String: Data] {
        var result: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: state)
        while let name = enumerator?.nextObject() as? String {
            var isFolder: ObjCBool = false
            let exists = FileManager.default.fileExists(
                atPath: state + "/" + name, isDirectory: &isFolder)
            if exists && !isFolder.boolValue && name != "lock" {
                result[name] = FileManager.default.contents(atPath: state + "/" + name)
            }
        }
        return result
    }

    /// What the ledger holds, however its logs are laid out: each account's record and each
    /// account-month's committed transaction lines and identity entries, read back.
    func contents() throws -> [String: [UInt8]] {
        let storage = StorageController(folder: state)
        let manifest = try storage.loadManifest()
        var result: [String: [UInt8]] = [:]
        for (accountID, entry) in manifest.accounts {
            var record = entry
            (record.months, record.section) = ([:], nil)
            result[accountID.text] = Array("\(record)".utf8)
            for (month, length) in entry.months {
                let name = "\(accountID.text) \(month.isoText)"
                result[name + " data"] = try storage.dataBytes(
                    of: accountID, in: month, length: length)
                result[name + " ids"] = try storage.identityBytes(
                    of: accountID, in: month, length: length)
            }
        }
        return result
    }

    /// The snapshot without the manifest's records of imported files (and so its checksum
    /// line): what two ledgers holding the same transactions from other files share.
    func transactionSnapshot() throws -> [String: Data] {
        var result = try snapshot()
        let manifest = String(decoding: result["manifest"] ?? Data(), as: UTF8.self)
        result["manifest"] = Data(
            manifest.split(separator: "\n", omittingEmptySubsequences: false)
                .filter { !$0.hasPrefix("file\t") && !$0.hasPrefix("end\t") }
                .joined(separator: "\n").utf8)
        return result
    }
}

extension StateController {
    /// Imports the files at or below `paths`, which hold no profiles.
    func importFiles(at paths: [String], dryRun: Bool = false) throws -> ImportReport {
        try importFiles(StatementFiles.find(paths), dryRun: dryRun)
    }
}
