import Foundation

/// Validates statement files: finds them, reads each with the parser for its format and
/// collects the diagnostics.
package final class ValidationController {
    private let isStrict: Bool
    private let diagnosticLimit: Int
    private let jobs: Int
    /// Told of each file done, when set.
    package var progress: ProgressHandler?

    /// Creates a controller.
    ///
    /// - Parameters:
    ///   - isStrict: whether warnings count as errors.
    ///   - diagnosticLimit: how many diagnostics to keep per file (0: all); all are counted.
    ///   - jobs: how many files to validate at once (default: one per core).
    package init(
        isStrict: Bool = false, diagnosticLimit: Int = 100,
        jobs: Int = ProcessInfo.processInfo.activeProcessorCount
    ) {
        self.isStrict = isStrict
        self.diagnosticLimit = diagnosticLimit
        self.jobs = max(1, jobs)
    }

    /// Creates a controller that reads as the settings say, telling their progress handler.
    package convenience init(_ settings: ReadSettings) {
        self.init(
            isStrict: settings.isStrict, diagnosticLimit: settings.diagnosticLimit,
            jobs: settings.jobs)
        progress = settings.progress
    }

    /// Validates every file, `jobs` files at a time, or, with fewer files than jobs, one
    /// after another with each large one read in `jobs` parts at once; the report lists them
    /// in the order they were found, whatever order they finish in.
    package func validate(_ files: StatementFiles) -> ValidationReport {
        let entries = files.entries
        let done = FileTally(count: entries.count, progress: progress)
        done.report(nil)
        if entries.count < jobs {
            return ValidationReport(
                files: entries.map { entry, dialect, _ in
                    let file = Self.validate(
                        entry, dialect: dialect, isStrict: self.isStrict, limit: diagnosticLimit,
                        parts: jobs)
                    done.report(file)
                    return file
                })
        }
        let results = ConcurrentResults<FileValidation>(count: entries.count)
        let work = WorkCounter(count: entries.count)
        let (isStrict, limit) = (isStrict, diagnosticLimit)
        // Each worker takes the next file until none is left.
        DispatchQueue.concurrentPerform(iterations: min(jobs, max(1, entries.count))) { _ in
            while let index = work.take() {
                let (entry, dialect, _) = entries[index]
                let file = Self.validate(entry, dialect: dialect, isStrict: isStrict, limit: limit)
                results[index] = file
                done.report(file)
            }
        }
        return ValidationReport(files: results.values.map { $0! })
    }

    /// Validates one file, choosing the parser by its extension (`.json`, else CSV).
    ///
    /// - Parameter dialect: the dialect of a CSV file; sniffed when `nil` (see
    ///   `StatementFileReader`).
    package func validateFile(at path: String, dialect: Dialect? = nil) -> FileValidation {
        Self.validate(
            .file(FileFinder.FoundFile(path, profile: nil, archivePath: nil)), dialect: dialect,
            isStrict: isStrict, limit: diagnosticLimit)
    }

    private static func validate(
        _ entry: FileFinder.Entry, dialect: Dialect?, isStrict: Bool, limit: Int, parts: Int = 1
    ) -> FileValidation {
        switch entry {
        case .file(let found) where found.name != found.path:
            return validate(
                .file(FileFinder.FoundFile(found.path, profile: nil, archivePath: nil)),
                dialect: dialect, isStrict: isStrict, limit: limit, parts: parts
            ).named(found.name)
        case .file(let found):
            let path = found.path
            if let validation = validateInParts(
                path: path, dialect: dialect, parts: parts, isStrict: isStrict, limit: limit),
                !isWindows1252(validation, dialect: dialect)
            {
                return validation
            }
            var collector = DiagnosticCollector(file: path, isStrict: isStrict, limit: limit)
            var summary = StatementFileReader.read(
                path: path, dialect: dialect, buildsRows: false, diagnostics: &collector
            ) { _ in }
            if summary.needsSniffing {
                collector = DiagnosticCollector(file: path, isStrict: isStrict, limit: limit)
                summary = StatementFileReader.read(
                    path: path, dialect: dialect, buildsRows: false, sniffing: true,
                    diagnostics: &collector
                ) { _ in }
            }
            return FileValidation(
                path: path, rowCount: summary.rowCount, notBookedCount: summary.notBookedCount,
                collector: collector)
        case .problem(let path, let code, let reason):
            return FileValidation.unreadable(path, code, reason, isStrict: isStrict, limit: limit)
        case .badProfile(let found, let error):
            return FileValidation.badProfile(found.name, error, isStrict: isStrict, limit: limit)
        }
    }

    /// Whether a file read in parts turned out to be Windows-1252 text: it is then read again
    /// whole, through the sniffer, as reading it in one go does.
    private static func isWindows1252(_ validation: FileValidation, dialect: Dialect?) -> Bool {
        guard let source = try? FileByteSource(path: validation.path) else { return false }
        return
            (try? StatementFileReader.isWindows1252(
                source, profile: dialect, diagnostics: validation.diagnostics)) == true
    }

    /// The name of a file's format when it is not CSV (which needs no profile), for
    /// `statements profile`.
    package static func formatName(path: String) throws -> String? {
        try StatementFormat(of: FileByteSource(path: path), path: path).name
    }

    /// The diagnostic of a file in a format that is named but not read (QIF, AEB43, ZIP).
    package static func unsupportedFormat(path: String) throws -> DiagnosticMessage? {
        let head = try FileByteSource(path: path).readHead(StatementFormat.headLength)
        return UnsupportedFormat(head: head).map(DiagnosticMessage.formatUnsupported)
    }

    /// Sniffs how a CSV file is written, for `statements profile`.
    ///
    /// - Parameter account: the account, for a file that does not name its own.
    package static func sniff(path: String, account: Dialect? = nil) throws -> SniffResult {
        DialectSniffer.sniff(try FileByteSource(path: path).readAll(), account: account)
    }

    /// Reads a file with the profile `json`, as `--profile` would: the check `statements
    /// profile` makes of the profile it prints.
    ///
    /// - Returns: how the file validates with it.
    /// - Throws: `ProfileError` when the profile cannot be read.
    package static func check(profile json: String, path: String) throws(ProfileError)
        -> FileValidation
    {
        let dialect = try Dialect(profile: Array(json.utf8), path: "profile")
        var diagnostics = DiagnosticCollector(file: path)
        var rows = 0
        _ = StatementFileReader.read(path: path, dialect: dialect, diagnostics: &diagnostics) {
            _ in rows += 1
        }
        return FileValidation(path: path, rowCount: rows, collector: diagnostics)
    }
}
