import Foundation
import Testing

/// Every folder of `SampleData/` but `bad/`, processed into one ledger, is one world: no file
/// rejected, no account in two currencies, no two statements of one account for the same
/// days, every balance a bank states holding (issue #36, item 9).
@Suite struct SampleWorldTests {
    static let folders = [
        "SampleData/good", "SampleData/profiles", "SampleData/exports", "SampleData/formats",
    ]

    @Test func `the four sample folders process into one ledger that checks`() throws {
        let workspace = try Workspace()
        let output = try StatementsRunner.run(
            ["process"] + Self.folders + [
                "--state", workspace.state, "--out", workspace.path + "/reports",
            ])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(!output.stderr.contains("error:"), "\(output.stderr)")
        #expect(!output.stdout.contains("rejected"))
        #expect(!output.stdout.contains("out of balance"))
        let check = try StatementsRunner.run(["check", "--state", workspace.state])
        #expect(check.status == 0, "\(check.stderr)")
        // One account per bank account: no account is fed by two banks' files.
        let accounts = try StatementsRunner.run(["accounts", "-s", workspace.state, "-f", "json"])
        let list = try #require(
            try JSONSerialization.jsonObject(with: Data(accounts.stdout.utf8)) as? [[String: Any]])
        #expect(list.allSatisfy { $0["outOfBalance"] is NSNull })
        // An account may have several files (months, formats), never two for one day.
        var owners: [String: [(file: String, first: String, last: String)]] = [:]
        for folder in Self.folders {
            for file in try Self.statementFiles(in: folder) {
                let one = try Workspace()
                let imported = try StatementsRunner.run(["import", file, "-s", one.state, "-q"])
                #expect(imported.status == 0, "\(file): \(imported.stderr)")
                let ids = try StatementsRunner.run(["accounts", "-s", one.state, "-f", "json"])
                let objects = try #require(
                    try JSONSerialization.jsonObject(with: Data(ids.stdout.utf8))
                        as? [[String: Any]])
                for object in objects {
                    owners[try #require(object["id"] as? String), default: []].append(
                        (
                            file, try #require(object["firstDate"] as? String),
                            try #require(object["lastDate"] as? String)
                        ))
                }
            }
        }
        #expect(owners.count == list.count)
        for (account, files) in owners {
            let ordered = files.sorted { $0.first < $1.first }
            for (earlier, later) in zip(ordered, ordered.dropFirst()) {
                #expect(
                    earlier.last < later.first,
                    "\(account): \(earlier.file) and \(later.file) cover the same days")
            }
        }
        // The household's account and its savings run on into November, in their banks' own
        // formats.
        #expect(owners["DE89370400440532013000"]?.count == 2)
        #expect(owners["NL91ABNA0417164300"]?.count == 2)
    }

    /// The statement files of a sample folder (not its profiles).
    static func statementFiles(in folder: String) throws -> [String] {
        let root = StatementsRunner.packageRoot.path + "/" + folder
        let names = try FileManager.default.subpathsOfDirectory(atPath: root)
        return names.filter { !$0.hasSuffix("statements-profile.json") }
            .map { root + "/" + $0 }
            .filter { path in
                var isFolder: ObjCBool = false
                return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
                    && !isFolder.boolValue
            }.sorted()
    }
}
