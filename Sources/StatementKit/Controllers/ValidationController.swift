/// Validates statement files: finds them, reads each with the parser for its format and
/// collects the diagnostics.
public final class ValidationController {
    private let isStrict: Bool
    private let diagnosticLimit: Int

    /// Creates a controller.
    ///
    /// - Parameters:
    ///   - isStrict: whether warnings count as errors.
    ///   - diagnosticLimit: how many diagnostics to keep per file; all are counted.
    public init(isStrict: Bool = false, diagnosticLimit: Int = 100) {
        self.isStrict = isStrict
        self.diagnosticLimit = diagnosticLimit
    }

    /// Validates every file at or below the given paths.
    public func validate(paths: [String]) -> ValidationReport {
        ValidationReport(
            files: FileFinder.entries(for: paths).map { entry in
                switch entry {
                case .file(let path):
                    return validateFile(at: path)
                case .problem(let path, let code, let reason):
                    var collector = DiagnosticCollector(
                        file: path, isStrict: isStrict, limit: diagnosticLimit)
                    collector.report(
                        code, line: 0, column: 0, "cannot read \(Diagnostic.quote(path)): \(reason)"
                    )
                    return FileValidation(path: path, rowCount: 0, collector: collector)
                }
            })
    }

    /// Validates one file, choosing the parser by its extension (`.json`, else CSV).
    public func validateFile(at path: String) -> FileValidation {
        var collector = DiagnosticCollector(file: path, isStrict: isStrict, limit: diagnosticLimit)
        let summary = StatementFileReader.read(
            path: path, buildsRows: false, diagnostics: &collector
        ) { _ in }
        return FileValidation(path: path, rowCount: summary.rowCount, collector: collector)
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
