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

    /// Validates every file, `jobs` files at a time, or, with fewer files than jobs, one
    /// after another with each large one read in `jobs` parts at once; the report lists them
    /// in the order they were found, whatever order they finish in.
    public func validate(_ files: StatementFiles) -> ValidationReport {
        let entries = files.entries
        if entries.count < jobs {
            return ValidationReport(
                files: entries.map { entry, dialect in
                    Self.validate(
                        entry, dialect: dialect, isStrict: self.isStrict, limit: diagnosticLimit,
                        parts: jobs)
                })
        }
        let results = ConcurrentResults<FileValidation>(count: entries.count)
        let work = WorkCounter(count: entries.count)
        let (isStrict, limit) = (isStrict, diagnosticLimit)
        // Each worker takes the next file until none is left.
        DispatchQueue.concurrentPerform(iterations: min(jobs, max(1, entries.count))) { _ in
            while let index = work.take() {
                let (entry, dialect) = entries[index]
                results[index] = Self.validate(
                    entry, dialect: dialect, isStrict: isStrict, limit: limit)
            }
        }
        return ValidationReport(files: results.values.map { $0! })
    }

    /// Validates one file, choosing the parser by its extension (`.json`, else CSV).
    ///
    /// - Parameter dialect: the dialect of a CSV file; sniffed when `nil` (see
    ///   `StatementFileReader`).
    public func validateFile(at path: String, dialect: Dialect? = nil) -> FileValidation {
        Self.validate(
            .file(path, profile: nil), dialect: dialect, isStrict: isStrict, limit: diagnosticLimit)
    }

    private static func validate(
        _ entry: FileFinder.Entry, dialect: Dialect?, isStrict: Bool, limit: Int, parts: Int = 1
    ) -> FileValidation {
        switch entry {
        case .file(let path, _):
            if let validation = validateInParts(
                path: path, dialect: dialect, parts: parts, isStrict: isStrict, limit: limit)
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
            return FileValidation(path: path, rowCount: summary.rowCount, collector: collector)
        case .problem(let path, let code, let reason):
            return FileValidation.unreadable(path, code, reason, isStrict: isStrict, limit: limit)
        }
    }

    /// Sniffs how a CSV file is written, for `statements profile`.
    public static func sniff(path: String) throws -> SniffResult {
        DialectSniffer.sniff(try FileByteSource(path: path).readAll())
    }

}

/// Opens a statement file and runs the parser for its format and dialect over it.
///
/// JSON files are read as SPEC 2.2. A CSV file is read in the dialect of its profile. Without
/// one, a file whose first line is a canonical header is streamed as canonical CSV; any
/// other is sniffed (`DialectSniffer`): what sniffing had to assume is reported as
/// `DIALECT_ASSUMED`, a bank export it cannot make out as `DIALECT_UNKNOWN`, and a file in
/// which it finds no header at all is read as canonical CSV, which then says what is wrong.
enum StatementFileReader {
    /// Reads a file, reporting problems into `diagnostics` and each valid row to `onRow`.
    ///
    /// - Parameters:
    ///   - buildsRows: `false` when only the diagnostics matter: CSV rows are then checked
    ///     without building their transactions.
    ///   - sniffing: sniff a file without profile even when it starts with a canonical header,
    ///     as after a streamed read found it to be Windows-1252 (`ParseSummary.needsSniffing`).
    static func read(
        path: String, dialect: Dialect? = nil, buildsRows: Bool = true, sniffing: Bool = false,
        diagnostics: inout DiagnosticCollector, onRow: (ParsedRow) -> Void
    ) -> ParseSummary {
        do {
            let source = try FileByteSource(path: path)
            if path.lowercased().hasSuffix(".json") {
                return StatementJSONParser().parse(
                    source, diagnostics: &diagnostics, onRow: onRow)
            }
            if !sniffing, let streamed = try streamedDialect(source, profile: dialect) {
                var summary = StatementCSVParser(dialect: streamed, buildsRows: buildsRows).parse(
                    source, diagnostics: &diagnostics, onRow: onRow)
                // Invalid UTF-8 in a file without profile: Windows-1252 is sniffed, as in any
                // other export, unless the file holds valid UTF-8 too.
                if dialect == nil,
                    diagnostics.diagnostics.contains(where: { $0.code == .encodingInvalidUTF8 }),
                    DialectSniffer.isWindows1252(try source.readAll(from: 0))
                {
                    summary.needsSniffing = true
                }
                return summary
            }
            let bytes = try source.readAll()
            var chosen = dialect ?? Dialect()
            var text: [UInt8]?
            if dialect == nil {
                let (sniffed, decoded) = DialectSniffer.sniffDecoding(bytes)
                let found = sniffed.report(into: &diagnostics)
                if case .unknown = sniffed { return ParseSummary() }
                if case .lacksAccount = sniffed { return ParseSummary() }
                if let found { (chosen, text) = (found, found.withoutFooter(decoded)) }
            }
            return StatementCSVParser(dialect: chosen, buildsRows: buildsRows).parse(
                MemoryByteSource(text ?? chosen.text(of: bytes)), diagnostics: &diagnostics,
                onRow: onRow)
        } catch {
            diagnostics.report(
                .pathUnreadable, line: 0, column: 0,
                "cannot read \(Diagnostic.quote(path)): \(error)")
            return ParseSummary()
        }
    }

    /// The dialect in which a CSV file is streamed: its profile's when that is UTF-8 without
    /// footer lines, canonical CSV when there is no profile and the file starts with a
    /// canonical header; `nil` when the file must be read whole, to be decoded, cut or sniffed.
    static func streamedDialect(_ source: FileByteSource, profile: Dialect?) throws -> Dialect? {
        if let profile {
            return profile.encoding == .utf8 && profile.footerLines == 0 ? profile : nil
        }
        return try startsWithCanonicalHeader(source) ? Dialect() : nil
    }

    /// Whether the file's first record names every required canonical column (an empty file
    /// counts, so that the canonical parser reports it); leaves the file at its start.
    private static func startsWithCanonicalHeader(_ source: FileByteSource) throws -> Bool {
        let head = try source.readHead(64 << 10)
        var reader = CSVReader(source: MemoryByteSource(head), chunkSize: max(1, head.count))
        guard (try? reader.nextRecord()) == true else { return true }
        let columns = reader.withRecord { record in
            Set(
                record.fields.indices.compactMap { field in
                    record.withField(field) {
                        StatementCSVParser.Column(header: String(decoding: $0, as: UTF8.self))
                    }
                })
        }
        return columns.isSuperset(of: StatementCSVParser.Column.required)
    }
}
