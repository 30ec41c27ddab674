import Foundation
import Testing

/// `process` writes again a report file that is missing or was changed by hand, though the
/// import changed nothing (issue #36, item 5).
@Suite struct ReportRestorationTests {
    static func process(_ workspace: Workspace, _ extra: [String] = []) throws
        -> StatementsRunner.Output
    {
        try StatementsRunner.run(
            [
                "process", "SampleData/good", "-s", workspace.state, "-o",
                workspace.path + "/reports",
            ]
                + extra)
    }

    @Test func `a deleted or edited report file is written again by the next process`() throws {
        let workspace = try Workspace()
        #expect(try Self.process(workspace).status == 0)
        let month = workspace.path + "/reports/2026-10"
        let html = month + "/DE89370400440532013000.html"
        let text = month + "/NL91ABNA0417164300.txt"
        let index = month + "/index.html"
        let original = try [html, text, index].map {
            try Data(contentsOf: URL(fileURLWithPath: $0))
        }
        // Nothing touched: nothing written, nothing read.
        #expect(try Self.process(workspace).stdout.hasSuffix("no report files to write\n"))
        try FileManager.default.removeItem(atPath: html)
        try FileManager.default.removeItem(atPath: index)
        // An edit that keeps the size: only the hash tells.
        let edited = try String(contentsOfFile: text, encoding: .utf8)
            .replacingOccurrences(of: "Holiday", with: "HOLIDAY")
        try edited.write(toFile: text, atomically: false, encoding: .utf8)
        let restored = try Self.process(workspace)
        #expect(restored.status == 0, "\(restored.stderr)")
        #expect(
            restored.stdout.hasSuffix(
                "wrote 3 report files (17 unchanged) to \(workspace.path)/reports/ (2026-10)\n"))
        #expect(
            restored.stderr
                == "statements process: note: report files of 2026-10 are missing or were changed since written; writing them again\n"
        )
        let after = try [html, text, index].map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        #expect(after == original)
        #expect(try Self.process(workspace).stdout.hasSuffix("no report files to write\n"))
        // A dry run says so, and writes nothing.
        try FileManager.default.removeItem(atPath: html)
        let dry = try Self.process(workspace, ["-n"])
        #expect(
            dry.stdout.hasSuffix(
                "would write the statements of 1 month (2026-10) to \(workspace.path)/reports/\n"))
        #expect(!FileManager.default.fileExists(atPath: html))
    }

    @Test func `a file whose times moved but whose bytes did not is left alone`() throws {
        let workspace = try Workspace()
        #expect(try Self.process(workspace).status == 0)
        let csv = workspace.path + "/reports/2026-10/DE89370400440532013000.csv"
        let bytes = try Data(contentsOf: URL(fileURLWithPath: csv))
        try bytes.write(to: URL(fileURLWithPath: csv))
        let again = try Self.process(workspace)
        #expect(again.stdout.hasSuffix("no report files to write\n"), "\(again.stdout)")
        #expect(again.stderr == "")
    }
}
