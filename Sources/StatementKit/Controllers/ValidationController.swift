import Foundation

/// Validates statement files: finds them, reads each with the parser for its format and
/// collects the diagnostics.
public final class ValidationController {
    private let isStrict: Bool
    private let diagnosticLimit: Int
    private let jobs: Int

    /// Creates a controller.
    ///
    /// - Parameters:
    ///   - isStrict: whether warnings count as errors.
    ///   - diagnosticLimit: how many diagnostics to keep per file; all are counted.
    ///   - jobs: how many files to validate at once (default: one per core).
    public init(
        isStrict: Bool = false, diagnosticLimit: Int = 100,
        jobs: Int = ProcessInfo.processInfo.activeProcessorCount
    ) {
        self.isStrict = isStrict
        self.diagnosticLimit = diagnosticLimit
        self.jobs = max(1, jobs)
    }

    /// Validates every file at or below the given paths, `jobs` files at a time; the report
    /// lists them in the order they were found, whatever order they finish in.
    public func validate(paths: [String]) -> ValidationReport {
        let entries = FileFinder.entries(for: paths)
        let results = ConcurrentResults<FileValidation>(count: entries.count)
        let work = WorkCounter(count: entries.count)
        let (isStrict, limit) = (isStrict, diagnosticLimit)
        // Each worker takes the next file until none is left.
        DispatchQueue.concurrentPerform(iterations: min(jobs, max(1, entries.count))) { _ in
            while let index = work.take() {
                results[index] = Self.validate(entries[index], isStrict: isStrict, limit: limit)
            }
        }
        return ValidationReport(files: results.values.map { $0! })
    }

    /// Validates one file, choosing the parser by its extension (`.json`, else CSV).
    public func validateFile(at path: String) -> FileValidation {
        Self.validate(.file(path), isStrict: isStrict, limit: diagnosticLimit)
    }

    private static func validate(_ entry: FileFinder.Entry, isStrict: Bool, limit: Int)
        -> FileValidation
    {
        switch entry {
        case .file(let path):
            var collector = DiagnosticCollector(file: path, isStrict: isStrict, limit: limit)
            let summary = StatementFileReader.read(
                path: path, buildsRows: false, diagnostics: &collector
            ) { _ in }
            return FileValidation(path: path, rowCount: summary.rowCount, collector: collector)
        case .problem(let path, let code, let reason):
            return unreadable(path, code, reason, isStrict: isStrict, limit: limit)
        }
    }

    /// The outcome of a path that could not be read at all.
    static func unreadable(
        _ path: String, _ code: DiagnosticCode, _ reason: String, isStrict: Bool = false,
        limit: Int = 100
    ) -> FileValidation {
        var collector = DiagnosticCollector(file: path, isStrict: isStrict, limit: limit)
        collector.report(
            code, line: 0, column: 0, "cannot read \(Diagnostic.quote(path)): \(reason)")
        return FileValidation(path: path, rowCount: 0, collector: collector)
    }
}

/// Opens a statement file and runs the parser for its format over it.
enum StatementFileReader {
    /// Reads a file, reporting problems into `diagnostics` and each valid row to `onRow`.
    ///
    /// - Parameter buildsRows: `false` when only the diagnostics matter: CSV rows are then
    ///   checked without building their transactions.
    static func read(
        path: String, buildsRows: Bool = true, diagnostics: inout DiagnosticCollector,
        onRow: (ParsedRow) -> Void
    ) -> ParseSummary {
        do {
            let source = try FileByteSource(path: path)
            if path.lowercased().hasSuffix(".json") {
                let bytes = try source.readAll()
                return bytes.withUnsafeBytes {
                    StatementJSONParser().parse($0, diagnostics: &diagnostics, onRow: onRow)
                }
            }
            return StatementCSVParser(buildsRows: buildsRows).parse(
                source, diagnostics: &diagnostics, onRow: onRow)
        } catch {
            diagnostics.report(
                .pathUnreadable, line: 0, column: 0,
                "cannot read \(Diagnostic.quote(path)): \(error)")
            return ParseSummary()
        }
    }
}
