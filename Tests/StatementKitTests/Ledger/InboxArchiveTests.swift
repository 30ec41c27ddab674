import Foundation
import Testing

@testable import StatementKit

/// The archive moves a file only while it holds the bytes the import read.
struct InboxArchiveTests {
    /// An inbox folder with one file, found as a run finds it, and a report that says it
    /// was imported with the stamp it had then.
    private func imported(_ text: String) throws -> (
        folder: String, files: StatementFiles, report: ImportReport
    ) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "archive-\(UUID().uuidString)"
        ).path
        try FileManager.default.createDirectory(
            atPath: folder + "/inbox", withIntermediateDirectories: true)
        try text.write(toFile: folder + "/inbox/a.csv", atomically: false, encoding: .utf8)
        let files = try StatementFiles.find([folder + "/inbox"])
        var file = FileImport(
            outcome: .imported(new: 1, present: 0),
            validation: FileValidation(
                path: "a.csv", rowCount: 1, collector: DiagnosticCollector(file: "a.csv")))
        file.readStamp = POSIXIO.stamp(of: folder + "/inbox/a.csv")
        #expect(file.readStamp != nil)
        return (folder, files, ImportReport(files: [file], isDryRun: false))
    }

    @Test func `moves a file that holds the bytes read`() throws {
        let (folder, files, report) = try imported("date\n")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let outcomes = InboxArchive.archive(files, report: report, into: folder + "/done")
        guard case .archived(let file) = try #require(outcomes.first) else {
            Issue.record("not archived: \(outcomes)")
            return
        }
        #expect(file.to == folder + "/done/a.csv")
        #expect(try String(contentsOfFile: file.to, encoding: .utf8) == "date\n")
        #expect(!FileManager.default.fileExists(atPath: folder + "/inbox/a.csv"))
    }

    @Test func `leaves a file that grew after it was read in the inbox`() throws {
        let (folder, files, report) = try imported("date\n")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let handle = try #require(FileHandle(forWritingAtPath: folder + "/inbox/a.csv"))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("a row written later\n".utf8))
        try handle.close()
        let outcomes = InboxArchive.archive(files, report: report, into: folder + "/done")
        guard case .left(_, let reason) = try #require(outcomes.first) else {
            Issue.record("not left: \(outcomes)")
            return
        }
        #expect(reason == "it changed after it was read")
        #expect(FileManager.default.fileExists(atPath: folder + "/inbox/a.csv"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/done/a.csv"))
    }

    @Test func `leaves a file renamed onto the name after the read in the inbox`() throws {
        let (folder, files, report) = try imported("date\n")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "other\n".write(toFile: folder + "/new.csv", atomically: false, encoding: .utf8)
        #expect(rename(folder + "/new.csv", folder + "/inbox/a.csv") == 0)
        let outcomes = InboxArchive.archive(files, report: report, into: folder + "/done")
        guard case .left = try #require(outcomes.first) else {
            Issue.record("not left: \(outcomes)")
            return
        }
        #expect(try String(contentsOfFile: folder + "/inbox/a.csv", encoding: .utf8) == "other\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/inbox") == ["a.csv"])
    }

    @Test func `leaves a file that changed while it was read in the inbox`() throws {
        var (folder, files, report) = try imported("date\n")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var file = report.files[0]
        file.readStamp = nil
        report = ImportReport(files: [file], isDryRun: false)
        let outcomes = InboxArchive.archive(files, report: report, into: folder + "/done")
        guard case .left(_, let reason) = try #require(outcomes.first) else {
            Issue.record("not left: \(outcomes)")
            return
        }
        #expect(reason == "it changed while it was read")
        #expect(FileManager.default.fileExists(atPath: folder + "/inbox/a.csv"))
    }

    @Test func `refuses an archive inside an input folder but not beside it`() throws {
        let (folder, files, _) = try imported("date\n")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(InboxArchive.refusal(of: folder + "/inbox/x/y", for: files) != nil)
        #expect(InboxArchive.refusal(of: folder + "/inbox/../inbox", for: files) != nil)
        #expect(InboxArchive.refusal(of: folder + "/inbox-done", for: files) == nil)
        #expect(InboxArchive.refusal(of: folder + "/done", for: files) == nil)
    }
}
