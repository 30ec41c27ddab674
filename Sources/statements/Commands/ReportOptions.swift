import Foundation
import StatementKit

/// The options `report` and `process` share: the statements' formats, output folder and
/// locale, and what the command prints about them.
struct ReportOptions {
    static let valueOptions: Set = ["report-format", "out", "locale", "format"]
    static let flagOptions: Set = ["bom"]

    /// The help lines of these options, shared by the commands' help texts.
    static let help = """
          -o, --out DIR              the output folder (default: ./reports)
          --report-format FORMAT     text, csv or html; may be repeated or listed as
                                     text,html (default: all three)
          --locale ID                how amounts and dates are written (default: from
                                     LC_ALL, LC_MONETARY or LANG, else en_US)
          --bom                      start CSV statements with a byte order mark, so that
                                     Excel on Windows reads them as UTF-8
          -f, --format text|json     a summary (default) or one JSON document on stdout
        """

    let formats: [ReportFormat]
    let folder: String
    /// The part of a ledger split by account whose statements are written (`--shard`).
    let shard: Shard?
    let locale: Locale
    /// Whether CSV statements start with a byte order mark (`--bom`).
    let csvByteOrderMark: Bool
    /// The format of what the command prints.
    let summaryFormat: ImportReportRenderer.Format

    init(_ options: Arguments, console: Console) throws(CommandError) {
        var formats: [ReportFormat] = []
        for text in options.values("report-format").flatMap({ $0.split(separator: ",") }) {
            guard let format = ReportFormat(rawValue: String(text)) else {
                throw .usage("--report-format must be text, csv or html, not '\(text)'")
            }
            formats.append(format)
        }
        self.formats = formats.isEmpty ? ReportFormat.allCases : formats
        if let text = options.value("format"), ["csv", "html"].contains(text) {
            throw .usage(
                "--format is what the command prints (text or json); the statements' formats are --report-format \(text)"
            )
        }
        summaryFormat = try options.choice("format", default: ImportReportRenderer.Format.text)
        folder = options.value("out") ?? "reports"
        let identifier =
            options.value("locale") ?? Self.environmentLocale(console.environment) ?? "en_US"
        let canonical = identifier.replacingOccurrences(of: "-", with: "_")
        guard Locale.availableIdentifiers.contains(canonical) else {
            throw .usage("--locale '\(identifier)' is not a known locale")
        }
        locale = Locale(identifier: canonical)
        shard = try ReadOptions.shard(options)
        csvByteOrderMark = options.has("bom")
    }

    /// The locale the environment names for money, as the C library reads it: the first
    /// of `LC_ALL`, `LC_MONETARY` and `LANG` that is set, without its encoding and modifier
    /// (`de_DE.UTF-8` is `de_DE`); `nil` for `C` and `POSIX`, or a locale Foundation does
    /// not know (the default then applies: a cron job's odd `LANG` is no error).
    static func environmentLocale(_ environment: [String: String]) -> String? {
        let names = ["LC_ALL", "LC_MONETARY", "LANG"]
        guard let text = names.lazy.compactMap({ environment[$0] }).first(where: { !$0.isEmpty })
        else { return nil }
        let identifier = String(text.prefix { $0 != "." && $0 != "@" })
            .replacingOccurrences(of: "-", with: "_")
        guard identifier != "C", identifier != "POSIX",
            Locale.availableIdentifiers.contains(identifier)
        else { return nil }
        return identifier
    }

    /// The controller of the output folder.
    var controller: ReportController {
        ReportController(
            folder: folder, formats: formats, locale: locale, shard: shard,
            csvByteOrderMark: csvByteOrderMark)
    }

    /// Writes the statements, with progress on a terminal, and returns what was written.
    ///
    /// - Parameters:
    ///   - generation: the ledger generation the reports now reflect, recorded in the output
    ///     folder once every file is written (`process` uses it).
    ///   - record: the record of the files `process` wrote, updated and saved (`process`).
    ///   - accountMonths: the months of each of the given accounts, for the links between
    ///     statements; asked for the accounts of the statements only, whose month records
    ///     only are then read.
    func publish(
        _ statements: [MonthlyStatement], generation: Int? = nil,
        accountMonths: (Set<AccountID>) throws(StorageError) -> [AccountID: [Month]],
        record: ReportFileRecord? = nil, output: Output,
        console: Console
    ) throws(CommandError) -> [PublishedFile] {
        let controller = self.controller
        let progress = output.progress(console)
        defer { progress?.finish() }
        controller.progress = progress?.handler
        do throws(StorageError) {
            return try controller.publish(
                statements, generation: generation,
                accountMonths: accountMonths(Set(statements.map(\.account.id))), record: record)
        } catch {
            throw .environment("\(error)")
        }
    }
}
