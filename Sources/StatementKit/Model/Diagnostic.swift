/// How serious a diagnostic is.
package enum Severity: String, Hashable, Sendable, Codable {
    case error, warning
}

/// The stable identifier of each kind of problem, printed as `[CODE]`.
package enum DiagnosticCode: String, Hashable, Sendable, CaseIterable, Codable {
    case fileEmpty = "FILE_EMPTY"
    case fileNoTransactions = "FILE_NO_TRANSACTIONS"
    case pathNotFound = "PATH_NOT_FOUND"
    case pathUnreadable = "PATH_UNREADABLE"
    case profileInvalid = "PROFILE_INVALID"
    case encodingInvalidUTF8 = "ENCODING_INVALID_UTF8"
    case encodingNUL = "ENCODING_NUL"
    case encodingInvalid = "ENCODING_INVALID"
    case dialectUnknown = "DIALECT_UNKNOWN"
    case formatUnsupported = "FORMAT_UNSUPPORTED"
    case fileNotStatement = "FILE_NOT_STATEMENT"
    case dialectAssumed = "DIALECT_ASSUMED"
    case csvFieldCount = "CSV_FIELD_COUNT"
    case csvUnterminatedQuote = "CSV_UNTERMINATED_QUOTE"
    case csvStrayQuote = "CSV_STRAY_QUOTE"
    case csvRecordTooLong = "CSV_RECORD_TOO_LONG"
    case columnMissing = "COLUMN_MISSING"
    case columnDuplicate = "COLUMN_DUPLICATE"
    case columnUnknown = "COLUMN_UNKNOWN"
    case jsonSyntax = "JSON_SYNTAX"
    case jsonTooDeep = "JSON_TOO_DEEP"
    case jsonType = "JSON_TYPE"
    case jsonDuplicateKey = "JSON_DUPLICATE_KEY"
    case keyMissing = "KEY_MISSING"
    case keyUnknown = "KEY_UNKNOWN"
    case fieldEmpty = "FIELD_EMPTY"
    case dateFormat = "DATE_FORMAT"
    case dateInvalid = "DATE_INVALID"
    case amountFormat = "AMOUNT_FORMAT"
    case amountPrecision = "AMOUNT_PRECISION"
    case amountOverflow = "AMOUNT_OVERFLOW"
    case amountSign = "AMOUNT_SIGN"
    case currencyUnknown = "CURRENCY_UNKNOWN"
    case currencyConflict = "CURRENCY_CONFLICT"
    case accountKind = "ACCOUNT_KIND"
    case accountID = "ACCOUNT_ID"
    case ibanCharacters = "IBAN_CHARACTERS"
    case ibanCountry = "IBAN_COUNTRY"
    case ibanLength = "IBAN_LENGTH"
    case ibanStructure = "IBAN_STRUCTURE"
    case ibanChecksum = "IBAN_CHECKSUM"
    case ibanNationalCheck = "IBAN_NATIONAL_CHECK"
    case balanceRunning = "BALANCE_RUNNING"
    case balanceClosing = "BALANCE_CLOSING"
    case balanceAssertion = "BALANCE_ASSERTION"
    case transactionIDConflict = "TRANSACTION_ID_CONFLICT"
    case mt940Syntax = "MT940_SYNTAX"
    case mt940TypeCode = "MT940_TYPE_CODE"
    case elementMissing = "ELEMENT_MISSING"
    case elementDuplicate = "ELEMENT_DUPLICATE"
    case elementMisplaced = "ELEMENT_MISPLACED"
    case counterpartyIBAN = "COUNTERPARTY_IBAN"
    case textTooLong = "TEXT_TOO_LONG"
    case xmlSyntax = "XML_SYNTAX"
    case ofxSyntax = "OFX_SYNTAX"

    /// The severity the code has unless `--strict` raises warnings to errors.
    package var defaultSeverity: Severity {
        switch self {
        case .columnUnknown, .keyUnknown, .ibanNationalCheck, .fileNoTransactions,
            .dialectAssumed, .counterpartyIBAN:
            .warning
        default: .error
        }
    }

    /// Tells whether the problem lies in the environment (exit 3), not in the data (exit 1).
    package var isEnvironmental: Bool {
        self == .pathNotFound || self == .pathUnreadable
    }
}

/// One problem found in an input file, located at a line and column.
package struct Diagnostic: Hashable, Sendable, Codable {
    /// The path of the file as the user named it.
    package let file: String
    /// The 1-based line; 0 when the problem concerns the whole file.
    package let line: Int
    /// The 1-based column, counted in Unicode scalars; 0 when the problem has no column.
    package let column: Int
    package let severity: Severity
    package let code: DiagnosticCode
    /// The message, with any text from the input already made safe for a terminal.
    package let message: String

    /// Creates a diagnostic.
    package init(
        file: String, line: Int, column: Int, severity: Severity, code: DiagnosticCode,
        message: String
    ) {
        self.file = file
        self.line = line
        self.column = column
        self.severity = severity
        self.code = code
        self.message = message
    }
}

/// Collects the diagnostics of one file: counts them all, keeps the first `limit`.
package struct DiagnosticCollector: Sendable {
    /// The file the diagnostics are about.
    package let file: String
    /// Whether warnings count as errors.
    package let isStrict: Bool
    /// How many diagnostics are kept; the rest are only counted.
    package let limit: Int
    /// The first `limit` diagnostics, in the order reported.
    package private(set) var diagnostics: [Diagnostic] = []
    package private(set) var errorCount = 0
    package private(set) var warningCount = 0
    /// How many diagnostics of each code were reported, kept or not.
    package private(set) var codeCounts: [DiagnosticCode: Int] = [:]
    /// Whether an environment problem (unreadable file) was reported.
    package private(set) var hasEnvironmentError = false
    /// How many bytes the parsers scanned to find the lines and columns of diagnostics: the
    /// measure by which tests show that locating stays linear in the input.
    var locationWork = 0

    /// Creates an empty collector for a file.
    ///
    /// - Parameter limit: how many diagnostics to keep; 0 keeps all.
    package init(file: String, isStrict: Bool = false, limit: Int = 100) {
        self.file = file
        self.isStrict = isStrict
        self.limit = limit == 0 ? .max : limit
    }

    /// The number of diagnostics reported but not kept.
    package var omittedCount: Int { errorCount + warningCount - diagnostics.count }

    /// Records a problem at a line and column.
    package mutating func report(_ message: DiagnosticMessage, line: Int, column: Int) {
        let code = message.code
        let severity: Severity = isStrict ? .error : code.defaultSeverity
        if severity == .error { errorCount += 1 } else { warningCount += 1 }
        codeCounts[code, default: 0] += 1
        hasEnvironmentError = hasEnvironmentError || code.isEnvironmental
        guard diagnostics.count < limit else { return }
        diagnostics.append(
            Diagnostic(
                file: file, line: line, column: column, severity: severity, code: code,
                message: message.text))
    }

    /// Records a finding of the file as a whole, such as a sniffer's assumption.
    package mutating func report(_ finding: Diagnostic.Finding) {
        report(finding.message, line: finding.line, column: finding.column)
    }

    /// Adds what another collector of the same file found later on, as if reported here.
    package mutating func append(contentsOf later: DiagnosticCollector) {
        errorCount += later.errorCount
        warningCount += later.warningCount
        codeCounts.merge(later.codeCounts, uniquingKeysWith: +)
        hasEnvironmentError = hasEnvironmentError || later.hasEnvironmentError
        locationWork += later.locationWork
        diagnostics += later.diagnostics.prefix(limit - diagnostics.count)
    }
}

extension Diagnostic {
    /// The longest input text quoted in a message, in Unicode scalars.
    static let quotedLimit = 64

    /// Quotes input text for a message: control characters, bidi controls and other
    /// invisible format characters become `\u{…}` escapes, so that a file can never send
    /// escape sequences to a terminal, and long text is cut with `…`.
    package static func quote<S: StringProtocol>(_ text: S) -> String {
        var result = "\""
        var count = 0
        for scalar in text.unicodeScalars {
            if count == quotedLimit {
                result += "…"
                break
            }
            count += 1
            result += escaped(scalar)
        }
        return result + "\""
    }

    /// Quotes raw input bytes, replacing invalid UTF-8 with U+FFFD; see `quote(_:)`.
    package static func quote(bytes: Span<UInt8>) -> String {
        let prefix = bytes.extracting(first: quotedLimit * 4 + 4)
        let text = prefix.text
        return prefix.count < bytes.count && text.unicodeScalars.count <= quotedLimit
            ? String(quote(text).dropLast()) + "…\"" : quote(text)
    }

    /// Returns a scalar as itself, or escaped when it is a quote, a backslash, or invisible.
    static func escaped(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\"": "\\\""
        case "\\": "\\\\"
        default: escapedIfInvisible(scalar)
        }
    }

    /// Returns text with control, format and separator characters escaped as `\u{…}` (tab,
    /// line feed and carriage return as `\t`, `\n`, `\r`), so that it is safe on a terminal.
    package static func sanitized(_ text: String) -> String {
        text.unicodeScalars.map(escapedIfInvisible).joined()
    }

    private static func escapedIfInvisible(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\t": return "\\t"
        case "\n": return "\\n"
        case "\r": return "\\r"
        default: break
        }
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .unassigned, .privateUse,
            .surrogate:
            return "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
        default:
            return String(scalar)
        }
    }
}

extension Diagnostic {
    /// A located message that does not yet belong to a file.
    package struct Finding: Hashable, Sendable {
        package let line: Int
        package let column: Int
        package let message: DiagnosticMessage
    }
}
