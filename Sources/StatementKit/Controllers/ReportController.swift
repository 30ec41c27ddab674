import Foundation

/// The report formats.
public enum ReportFormat: String, CaseIterable, Hashable, Sendable {
    case text, csv, html

    /// The file extension of the format.
    public var fileExtension: String { self == .text ? "txt" : rawValue }
}

/// What happened to one report file.
public struct PublishedFile: Hashable, Sendable {
    public let path: String
    /// Whether the file was written; `false` when it already held exactly this content.
    public let isWritten: Bool
}

/// Renders monthly statements and writes them as `OUT/YYYY-MM/IBAN.txt|.csv|.html` plus
/// `OUT/YYYY-MM/index.html`, rewriting only files whose content changes.
public final class ReportController {
    private let folder: String
    private let formats: [ReportFormat]
    private let locale: Locale
    private let text: TextStatementRenderer
    private let html: HTMLStatementRenderer

    /// Creates a controller writing below `folder`.
    public init(folder: String, formats: [ReportFormat], locale: Locale) {
        self.folder = folder
        self.formats = ReportFormat.allCases.filter(formats.contains)
        self.locale = locale
        text = TextStatementRenderer(locale: locale)
        html = HTMLStatementRenderer(locale: locale)
    }

    /// Renders one statement in one format.
    public func render(_ statement: MonthlyStatement, as format: ReportFormat) -> String {
        var text = ""
        switch format {
        case .text: self.text.render(statement, into: &text)
        case .csv: CSVStatementRenderer().render(statement, into: &text)
        case .html: html.render(statement, into: &text)
        }
        return text
    }

    /// Writes every statement in every format, and each month's index when HTML is written.
    ///
    /// A file whose content would not change is left alone, bytes and modification time; a
    /// changed one is replaced atomically (written beside, then renamed).
    public func publish(_ statements: [MonthlyStatement]) throws(StorageError) -> [PublishedFile] {
        var published: [PublishedFile] = []
        let byMonth = Dictionary(grouping: statements, by: \.month)
        for month in byMonth.keys.sorted() {
            let monthFolder = "\(folder)/\(month.isoText)"
            for statement in byMonth[month]!.sorted(by: { $0.account.iban < $1.account.iban }) {
                for format in formats {
                    let path =
                        "\(monthFolder)/\(statement.account.iban.electronic).\(format.fileExtension)"
                    published.append(try write(render(statement, as: format), to: path))
                }
            }
            if formats.contains(.html) {
                var index = ""
                MonthIndexRenderer(locale: locale).render(
                    byMonth[month]!, month: month, extensions: formats.map(\.fileExtension),
                    into: &index)
                published.append(try write(index, to: "\(monthFolder)/index.html"))
            }
        }
        return published
    }

    private func write(_ text: String, to path: String) throws(StorageError) -> PublishedFile {
        let bytes = Data(text.utf8)
        if FileManager.default.contents(atPath: path) == bytes {
            return PublishedFile(path: path, isWritten: false)
        }
        let folder = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true)
            try bytes.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            let reason = (error as NSError).localizedFailureReason ?? error.localizedDescription
            throw .io(path: path, operation: "write", reason: reason)
        }
        return PublishedFile(path: path, isWritten: true)
    }
}
