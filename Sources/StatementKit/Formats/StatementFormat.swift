/// The formats a statement file can be in, told apart by a file's name and first bytes.
enum StatementFormat: Hashable, Sendable {
    /// Statement JSON (SPEC 2.2).
    case json
    /// CSV: canonical (SPEC 2.1) or a bank's dialect (SPEC 2.3).
    case csv
    /// SWIFT MT940 / MT942.
    case mt940
    /// ISO 20022 camt.052 / camt.053 / camt.054 XML.
    case camt
    /// OFX 1 (SGML), OFX 2 (XML) and QFX.
    case ofx
    /// A format that is named but not read (QIF, AEB43, a ZIP archive): refused as such.
    case unsupported(UnsupportedFormat)

    /// The format's name for people; `nil` for CSV, whose dialect a profile describes.
    var name: String? {
        switch self {
        case .json: "statement JSON (SPEC 2.2)"
        case .csv: nil
        case .mt940: "SWIFT MT940/MT942"
        case .camt: "ISO 20022 camt.052/053/054"
        case .ofx: "OFX/QFX"
        case .unsupported(let format): format.rawValue
        }
    }

    /// How many bytes of a file's start `init(path:head:)` looks at.
    static let headLength = 4096

    /// The format of a file: JSON when its name ends in `.json` or its first character after
    /// a byte order mark and white space is `{` or `[` (but `{1:`, the SWIFT envelope), which
    /// no CSV header starts with; MT940 when one of its first ten lines starts with `{1:`,
    /// `:20:` or `:25:` (banks put lines such as `ABNANL2A` and `940` before them), whatever
    /// the file's name (`.sta`, `.940`, `.mt940`, `.swi`, `.txt` all occur); CSV otherwise.
    /// camt and OFX are also found in UTF-16 (`utf16Encoding(of:)`), to be read through
    /// `UTF16ByteSource`; a CSV file in UTF-16 stays CSV, which the sniffer decodes.
    init(path: String, head: [UInt8]) {
        if let unsupported = UnsupportedFormat(head: head) {
            self = .unsupported(unsupported)
            return
        }
        if path.lowercased().hasSuffix(".json") {
            self = .json
            return
        }
        if let encoding = Self.utf16Encoding(of: head) {
            let decoded = StatementFormat(path: path, head: encoding.utf8(from: head))
            if decoded == .camt || decoded == .ofx {
                self = decoded
                return
            }
        }
        var bytes = head[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        let lines = bytes.split(
            omittingEmptySubsequences: true, whereSeparator: { $0 == 0x0A || $0 == 0x0D }
        ).prefix(10)
        if lines.contains(where: { line in
            [":20:", ":25:", "{1:"].contains { line.starts(with: Array($0.utf8)) }
        }) {
            self = .mt940
            return
        }
        let first = bytes.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        let upper = bytes.prefix(1024).map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 32 : $0 }
        // OFX: the OFX 1 header `OFXHEADER:100`, OFX 2's `<?OFX OFXHEADER="200"?>`, `<OFX>`.
        if upper.firstRange(of: Array("OFXHEADER".utf8)) != nil
            || upper.firstRange(of: Array("<OFX>".utf8)) != nil
        {
            self = .ofx
            return
        }
        if first == UInt8(ascii: "<") {
            // XML: a camt message names its schema, `camt.053.001.08`, in its namespace.
            self = bytes.firstRange(of: Array("camt.05".utf8)) != nil ? .camt : .csv
            return
        }
        self = first == UInt8(ascii: "{") || first == UInt8(ascii: "[") ? .json : .csv
    }
}

extension StatementFormat {
    /// The UTF-16 encoding a file's first bytes show: a byte order mark, or `<` as the first
    /// character (as XML, section F.1, detects its encoding); `nil` for any other.
    static func utf16Encoding(of head: [UInt8]) -> TextEncoding? {
        guard head.count >= 2 else { return nil }
        switch (head[0], head[1]) {
        case (0xFF, 0xFE), (UInt8(ascii: "<"), 0): return .utf16LE
        case (0xFE, 0xFF), (0, UInt8(ascii: "<")): return .utf16BE
        default: return nil
        }
    }
}

/// A reader of one statement format, the seam every format plugs into: it consumes bytes,
/// reports every problem into the collector with its line and column, hands each valid row
/// to `onRow` as soon as it is read, and runs in time linear in its input.
protocol StatementReader {
    func parse<Source: ByteSource>(
        _ source: Source, diagnostics: inout DiagnosticCollector, onRow: (ParsedRow) -> Void
    ) -> ParseSummary
}

extension StatementJSONParser: StatementReader {}
extension StatementCSVParser: StatementReader {}
extension MT940Parser: StatementReader {}
extension CamtParser: StatementReader {}
extension OFXParser: StatementReader {}
