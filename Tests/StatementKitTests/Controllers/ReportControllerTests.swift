import Foundation
import Testing

@testable import StatementKit

struct ReportControllerTests {
    @Test
    func
        `writes each format once, leaves unchanged files alone and clears a killed run's temporary file`()
        throws
    {
        let folder = try TemporaryFolder()
        let controller = ReportController(
            folder: folder.path, formats: [.text, .csv], locale: Locale(identifier: "en_US"))
        let statement = SampleStatement.statement
        let leftover = try folder.write(
            "2026-10/.DE89370400440532013000.txt.statements-tmp", "half a fi")
        let first = try controller.publish([statement])
        #expect(first.map(\.isWritten) == [true, true])
        #expect(
            first.map { ($0.path as NSString).lastPathComponent } == [
                "DE89370400440532013000.txt", "DE89370400440532013000.csv",
            ])
        #expect(!FileManager.default.fileExists(atPath: leftover))
        #expect(try controller.publish([statement]).map(\.isWritten) == [false, false])
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.path + "/2026-10").sorted()
                == ["DE89370400440532013000.csv", "DE89370400440532013000.txt"])
    }

    @Test func `records the ledger generation its reports reflect`() throws {
        let folder = try TemporaryFolder()
        let controller = ReportController(
            folder: folder.path, formats: [.html], locale: Locale(identifier: "en_US"))
        #expect(controller.reportedGeneration() == nil)
        try controller.markReported(generation: 7)
        #expect(controller.reportedGeneration() == 7)
    }
}
