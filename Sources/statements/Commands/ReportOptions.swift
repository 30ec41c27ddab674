import Foundation
import StatementKit

/// The options `report` and `process` share: formats, output folder and locale.
struct ReportOptions {
    static let valueOptions: Set = ["format", "out", "locale"]

    let formats: [ReportFormat]
    let folder: String
    let locale: Locale

    init(_ options: Arguments) throws(CommandError) {
        var formats: [ReportFormat] = []
        for text in options.values("format") {
            guard let format = ReportFormat(rawValue: text) else {
                throw .usage("--format must be text, csv or html, not '\(text)'")
            }
            formats.append(format)
        }
        self.formats = formats.isEmpty ? ReportFormat.allCases : formats
        folder = options.value("out") ?? "reports"
        let identifier = options.value("locale") ?? "en_US"
        let canonical = identifier.replacingOccurrences(of: "-", with: "_")
        guard Locale.availableIdentifiers.contains(canonical) else {
            throw .usage("--locale '\(identifier)' is not a known locale")
        }
        locale = Locale(identifier: canonical)
    }

    /// The controller of the output folder.
    var controller: ReportController {
        ReportController(folder: folder, formats: formats, locale: locale)
    }

    /// Writes the statements, printing each file written, and returns the exit status.
    ///
    /// - Parameter generation: the ledger generation the reports now reflect, recorded in the
    ///   output folder once every file is written (`process` uses it).
    func publish(_ statements: [MonthlyStatement], generation: Int? = nil, console: Console)
        throws(CommandError) -> Int32
    {
        var standardOutput = console.output
        let files: [PublishedFile]
        do throws(StorageError) {
            files = try controller.publish(statements, generation: generation)
        } catch {
            throw .environment("\(error)")
        }
        for file in files where file.isWritten {
            print("wrote  \(file.path)", to: &standardOutput)
        }
        let unchanged = files.count { !$0.isWritten }
        print(
            "wrote \(files.count - unchanged) report files, \(unchanged) unchanged",
            to: &standardOutput)
        return ExitCode.success
    }
}
