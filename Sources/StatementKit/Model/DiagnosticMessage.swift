/// What a diagnostic says: its code and its wording.
///
/// Every wording lives in this file and its `DiagnosticMessage+…` extensions (one a concern:
/// sniffing, records, fields, balances, the banks' formats), one function per kind of problem,
/// in the order of `DiagnosticCode`, so that a code reads the same wherever it is found (as swift-format keeps
/// its `Finding.Message`s). Input text reaches a message only through `Diagnostic.quote`.
package struct DiagnosticMessage: Hashable, Sendable {
    package let code: DiagnosticCode
    package let text: String

    /// Only the catalogue's extensions make messages: everyone else names one of them.
    init(_ code: DiagnosticCode, _ text: String) {
        self.code = code
        self.text = text
    }
}

// MARK: - Files and paths

extension DiagnosticMessage {
    /// An empty file; `requirement` is what it must at least hold ("a header row").
    static func fileEmpty(requiring requirement: String?) -> Self {
        .init(.fileEmpty, "the file is empty" + (requirement.map { "; \($0) is required" } ?? ""))
    }

    static func fileEndsBeforeHeader(line: Int) -> Self {
        .init(.fileEmpty, "the file ends before its header on line \(line)")
    }

    static let noRowsUnderHeader = Self(
        .fileNoTransactions, "the file has a header but no rows")

    static let noTransactions = Self(.fileNoTransactions, "the file holds no transactions")

    /// A path that cannot be read; `code` is `.pathNotFound` or `.pathUnreadable`.
    static func unreadable(_ path: String?, _ code: DiagnosticCode, reason: String) -> Self {
        .init(code, "cannot read \(path.map(Diagnostic.quote) ?? "the file"): \(reason)")
    }

    /// A file rejected before, found again with the same bytes and not read again: its
    /// first error then (`message`, already made safe), with its code.
    static func stillRejected(
        _ code: DiagnosticCode, since: String, message: String, errorCount: Int
    ) -> Self {
        .init(
            code,
            "still rejected since \(Diagnostic.sanitized(since)) (\(errorCount.counted("error")), not read again until the file changes): \(message)"
        )
    }

    /// A folder's profile that cannot be used; `problem` names the key and what is wrong.
    static func profileInvalid(_ problem: String, file: String) -> Self {
        .init(
            .profileInvalid,
            "cannot read '\(Diagnostic.sanitized(file))' with this folder profile: \(Diagnostic.sanitized(problem))"
        )
    }
}

// MARK: - Encodings

extension DiagnosticMessage {
    static let nulByte = Self(.encodingNUL, "NUL byte in text")

    static let invalidUTF8 = Self(.encodingInvalidUTF8, "invalid UTF-8 byte sequence")

    static func invalidBytes(in encoding: TextEncoding) -> Self {
        .init(.encodingInvalid, "byte sequence that is not valid \(encoding.rawValue)")
    }
}

// MARK: - Formats not read

extension DiagnosticMessage {
    static func formatUnsupported(_ format: UnsupportedFormat) -> Self {
        .init(
            .formatUnsupported,
            "the file is \(format.rawValue), a format statements does not read; export the account as CSV, OFX, camt.053 or MT940 instead"
        )
    }

    /// A file that holds no statement; `reason` says what it holds instead.
    static func notStatement(_ reason: String) -> Self {
        .init(.fileNotStatement, "the file is not a bank statement: \(reason)")
    }
}
