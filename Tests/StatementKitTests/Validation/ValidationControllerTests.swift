import Foundation
import Testing

@testable import StatementKit

struct ValidationControllerTests {
    static let good =
        "date,account_iban,amount,beneficiary\n2026-10-01,DE89370400440532013000,1.00,K\n"

    @Test
    func `finds csv and json files recursively in byte order, skipping hidden and other files`()
        throws
    {
        let folder = try TemporaryFolder()
        for name in [
            "b.csv", "a/z.JSON", "a/c.csv", ".hidden.csv", ".git/x.csv", "notes.txt", "B.csv",
        ] {
            try folder.write(name, Self.good)
        }
        let report = ValidationController().validate(paths: [folder.path])
        #expect(
            report.files.map { String($0.path.dropFirst(folder.path.count + 1)) } == [
                "B.csv", "a/c.csv", "a/z.JSON", "b.csv",
            ])
    }

    @Test func `validates a named file whatever its extension`() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("export.txt", Self.good)
        let report = ValidationController().validate(paths: [file])
        #expect(report.files.map(\.rowCount) == [1])
        #expect(report.errorCount == 0)
    }

    @Test func `reports a missing path as an environment problem and goes on`() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("good.csv", Self.good)
        let report = ValidationController().validate(paths: [folder.path + "/missing.csv", file])
        #expect(report.files.map { $0.diagnostics.first?.code } == [.pathNotFound, nil])
        #expect(report.hasEnvironmentError)
        #expect(report.rowCount == 1)
    }

    @Test func `reports a path that is neither file nor folder`() throws {
        let folder = try TemporaryFolder()
        let fifo = folder.path + "/pipe.csv"
        #expect(mkfifo(fifo, 0o644) == 0)
        let report = ValidationController().validate(paths: [fifo])
        #expect(report.files.first?.diagnostics.first?.code == .pathUnreadable)
        #expect(report.hasEnvironmentError)
    }

    @Test func `ends symbolic link loops`() throws {
        let folder = try TemporaryFolder()
        try folder.write("data/a.csv", Self.good)
        try FileManager.default.createSymbolicLink(
            atPath: folder.path + "/data/loop", withDestinationPath: folder.path + "/data")
        try FileManager.default.createSymbolicLink(
            atPath: folder.path + "/data/dangling.csv", withDestinationPath: "/nonexistent")
        let report = ValidationController().validate(paths: [folder.path])
        #expect(report.files.map(\.rowCount) == [1])
        #expect(!report.hasEnvironmentError)
    }

    @Test func `applies strict to the whole run`() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write(
            "w.csv",
            "date,account_iban,amount,beneficiary,x\n2026-10-01,DE89370400440532013000,1,K,y\n")
        #expect(ValidationController().validate(paths: [file]).errorCount == 0)
        #expect(ValidationController(isStrict: true).validate(paths: [file]).errorCount == 1)
    }

    @Test func `counts all diagnostics of a file but keeps the limit`() throws {
        let folder = try TemporaryFolder()
        let rows = (1...250).map { _ in "2026-13-01,DE89370400440532013000,1,K" }.joined(
            separator: "\n")
        let file = try folder.write(
            "many.csv", "date,account_iban,amount,beneficiary\n" + rows + "\n")
        let result = ValidationController().validateFile(at: file)
        #expect(result.errorCount == 250)
        #expect(result.diagnostics.count == 100)
        #expect(result.omittedCount == 150)
    }
}

extension ValidationController {
    /// Validates the files at or below `paths`, which hold no profiles.
    func validate(paths: [String]) -> ValidationReport {
        validate(try! StatementFiles.find(paths))
    }
}
