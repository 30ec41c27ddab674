/// The outcome of validating one file (or one path that could not be read).
package struct FileValidation: Hashable, Sendable {
    /// The path as the user named it or as found below a named folder.
    package private(set) var path: String
    /// How many transaction rows the file holds.
    package let rowCount: Int
    /// How many of them were left out as not booked yet (a profile's `notBooked`).
    package let notBookedCount: Int
    /// The first diagnostics of the file; see `omittedCount` for the rest.
    package private(set) var diagnostics: [Diagnostic]
    package let errorCount: Int
    package let warningCount: Int
    /// How many diagnostics were counted but not kept.
    package let omittedCount: Int
    /// How many diagnostics of each code the file has, kept or not.
    package let codeCounts: [DiagnosticCode: Int]
    /// Whether the file or path could not be read at all.
    package let hasEnvironmentError: Bool

    /// Creates the outcome of one file from its collected diagnostics.
    /// The outcome of a path that could not be read at all.
    static func unreadable(
        _ path: String, _ code: DiagnosticCode, _ reason: String, isStrict: Bool = false,
        limit: Int = 100
    ) -> FileValidation {
        var collector = DiagnosticCollector(file: path, isStrict: isStrict, limit: limit)
        collector.report(.unreadable(path, code, reason: reason), line: 0, column: 0)
        return FileValidation(path: path, rowCount: 0, collector: collector)
    }

    /// The outcome of a file whose folder profile cannot be used: a diagnostic at the
    /// profile's line and column (`PATH_UNREADABLE` when the profile cannot be read).
    static func badProfile(
        _ name: String, _ error: ProfileError, isStrict: Bool = false, limit: Int = 100
    ) -> FileValidation {
        var collector = DiagnosticCollector(file: error.path, isStrict: isStrict, limit: limit)
        if error.isUnreadable {
            collector.report(
                .unreadable(error.path, .pathUnreadable, reason: error.message), line: 0,
                column: 0)
        } else {
            collector.report(
                .profileInvalid(error.message, file: name), line: error.line, column: error.column)
        }
        return FileValidation(path: name, rowCount: 0, collector: collector)
    }

    package init(
        path: String, rowCount: Int, notBookedCount: Int = 0, collector: DiagnosticCollector
    ) {
        self.path = path
        self.rowCount = rowCount
        self.notBookedCount = notBookedCount
        diagnostics = collector.diagnostics
        errorCount = collector.errorCount
        warningCount = collector.warningCount
        omittedCount = collector.omittedCount
        codeCounts = collector.codeCounts
        hasEnvironmentError = collector.hasEnvironmentError
    }
}

extension FileValidation {
    /// The same outcome for a file shown under another name (standard input is read from a
    /// copy, and shown as `<stdin>` or the name given for it).
    func named(_ name: String) -> FileValidation {
        var renamed = self
        renamed.path = name
        renamed.diagnostics = diagnostics.map {
            Diagnostic(
                file: name, line: $0.line, column: $0.column, severity: $0.severity,
                code: $0.code, message: $0.message)
        }
        return renamed
    }
}

/// The outcome of validating every file below the paths of one command.
package struct ValidationReport: Hashable, Sendable {
    /// One entry per file, in the order the files were found.
    package let files: [FileValidation]

    /// Creates a report.
    package init(files: [FileValidation]) {
        self.files = files
    }

    package var rowCount: Int { files.reduce(0) { $0 + $1.rowCount } }
    package var notBookedCount: Int { files.reduce(0) { $0 + $1.notBookedCount } }
    package var errorCount: Int { files.reduce(0) { $0 + $1.errorCount } }
    package var warningCount: Int { files.reduce(0) { $0 + $1.warningCount } }
    /// How many diagnostics of each code the files have, kept or not.
    package var codeCounts: [DiagnosticCode: Int] {
        files.reduce(into: [:]) { $0.merge($1.codeCounts, uniquingKeysWith: +) }
    }
    /// How many files have at least one error.
    package var failedFileCount: Int { files.count { $0.errorCount > 0 } }
    /// Whether some path could not be read.
    package var hasEnvironmentError: Bool { files.contains { $0.hasEnvironmentError } }
}
