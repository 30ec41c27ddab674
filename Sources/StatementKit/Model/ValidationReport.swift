/// The outcome of validating one file (or one path that could not be read).
public struct FileValidation: Hashable, Sendable {
    /// The path as the user named it or as found below a named folder.
    public let path: String
    /// How many transaction rows the file holds.
    public let rowCount: Int
    /// The first diagnostics of the file; see `omittedCount` for the rest.
    public let diagnostics: [Diagnostic]
    public let errorCount: Int
    public let warningCount: Int
    /// How many diagnostics were counted but not kept.
    public let omittedCount: Int
    /// Whether the file or path could not be read at all.
    public let hasEnvironmentError: Bool

    /// Creates the outcome of one file from its collected diagnostics.
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

    public init(path: String, rowCount: Int, collector: DiagnosticCollector) {
        self.path = path
        self.rowCount = rowCount
        diagnostics = collector.diagnostics
        errorCount = collector.errorCount
        warningCount = collector.warningCount
        omittedCount = collector.omittedCount
        hasEnvironmentError = collector.hasEnvironmentError
    }
}

/// The outcome of validating every file below the paths of one command.
public struct ValidationReport: Hashable, Sendable {
    /// One entry per file, in the order the files were found.
    public let files: [FileValidation]

    /// Creates a report.
    public init(files: [FileValidation]) {
        self.files = files
    }

    public var rowCount: Int { files.reduce(0) { $0 + $1.rowCount } }
    public var errorCount: Int { files.reduce(0) { $0 + $1.errorCount } }
    public var warningCount: Int { files.reduce(0) { $0 + $1.warningCount } }
    /// How many files have at least one error.
    public var failedFileCount: Int { files.count { $0.errorCount > 0 } }
    /// Whether some path could not be read.
    public var hasEnvironmentError: Bool { files.contains { $0.hasEnvironmentError } }
}
