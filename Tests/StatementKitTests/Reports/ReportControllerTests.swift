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
        // Left by a killed run of an older release, and by a killed run (no such process).
        let leftover = try folder.write(
            "2026-10/.DE89370400440532013000.txt.statements-tmp", "half a fi")
        let killed = try folder.write(
            "2026-10/.DE89370400440532013000.txt.2147483646.statements-tmp", "half a fi")
        let first = try controller.publish([statement])
        #expect(first.map(\.isWritten) == [true, true])
        #expect(
            first.map { ($0.path as NSString).lastPathComponent } == [
                "DE89370400440532013000.txt", "DE89370400440532013000.csv",
            ])
        #expect(!FileManager.default.fileExists(atPath: leftover))
        #expect(!FileManager.default.fileExists(atPath: killed))
        #expect(try controller.publish([statement]).map(\.isWritten) == [false, false])
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.path + "/2026-10").sorted()
                == ["DE89370400440532013000.csv", "DE89370400440532013000.txt"])
    }

    @Test func `replaces a file changed by hand whole, leaving nothing beside it`() throws {
        let folder = try TemporaryFolder()
        let controller = ReportController(
            folder: folder.path, formats: [.text], locale: Locale(identifier: "en_US"))
        _ = try controller.publish([SampleStatement.statement])
        let path = folder.path + "/2026-10/DE89370400440532013000.txt"
        let original = try String(contentsOfFile: path, encoding: .utf8)
        for edit in ["changed by hand", String(original.dropLast()) + "!"] {
            try edit.write(toFile: path, atomically: false, encoding: .utf8)
            #expect(try controller.publish([SampleStatement.statement]).map(\.isWritten) == [true])
            #expect(try String(contentsOfFile: path, encoding: .utf8) == original)
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: folder.path + "/2026-10")
                    == ["DE89370400440532013000.txt"])
        }
    }

    @Test func `hands the cores runs of statements from different months in turn`() {
        let (a, b, c) = (
            Month(year: 2026, month: 8)!, Month(year: 2026, month: 9)!,
            Month(year: 2026, month: 10)!
        )
        let runs = ReportController.runs(of: [a, a, a, b, c, c, c, c, c], length: 2)
        // Every month's first run, then every second, and so on; each statement once.
        #expect(runs == [0..<2, 3..<4, 4..<6, 2..<3, 6..<8, 8..<9])
        #expect(ReportController.runs(of: [], length: 2).isEmpty)
    }

    @Test func `records the ledger generation its reports reflect`() throws {
        let folder = try TemporaryFolder()
        let controller = ReportController(
            folder: folder.path, formats: [.html], locale: Locale(identifier: "en_US"))
        #expect(controller.reportedGeneration() == nil)
        _ = try controller.publish([SampleStatement.statement], generation: 7)
        #expect(controller.reportedGeneration() == 7)
        // A run that read an older ledger never moves the record back.
        _ = try controller.publish([SampleStatement.statement], generation: 5)
        #expect(controller.reportedGeneration() == 7)
    }

    @Test func `lets runs that write one output folder at once end with a complete set`()
        throws
    {
        let folder = try TemporaryFolder()
        let statement = SampleStatement.statement
        let failures = ConcurrentResults<String>(count: 8)
        let path = folder.path
        DispatchQueue.concurrentPerform(iterations: 8) { run in
            let controller = ReportController(
                folder: path, formats: [.text, .html], locale: Locale(identifier: "en_US"))
            do {
                for _ in 0..<10 { _ = try controller.publish([statement], generation: run) }
            } catch {
                failures[run] = "\(error)"
            }
        }
        #expect(failures.values.compactMap { $0 }.isEmpty)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path + "/2026-10")
        #expect(
            names.sorted() == [
                ".closing-balances.tsv", "DE89370400440532013000.html",
                "DE89370400440532013000.txt", "index.html",
            ])
        for name in names {
            let size =
                try FileManager.default.attributesOfItem(
                    atPath: folder.path + "/2026-10/" + name)[.size] as? Int
            #expect((size ?? 0) > 0, "\(name)")
        }
        let reader = ReportController(
            folder: folder.path, formats: [.html], locale: Locale(identifier: "en_US"))
        #expect(reader.reportedGeneration() == 7)
    }
}
