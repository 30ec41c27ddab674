/// A reader of one statement format, the seam every format plugs into: it says which files are
/// its own, consumes bytes, reports every problem into the collector with its line and column,
/// hands each valid row to `onRow` as soon as it is read, and runs in time linear in its input.
///
/// A new format is a folder under `Formats/` with one type conforming to this protocol and one
/// line in `StatementFormat.readers`. CSV is not among them: it is what a file is when no
/// reader recognises it, and its dialect comes from a profile or from sniffing.
protocol StatementReader: Sendable {
    /// The format's name for people (`statements profile`, messages).
    static var formatName: String { get }

    /// Name endings (lower case, with the dot) that make a file this format whatever it holds.
    static var fileSuffixes: [String] { get }

    /// Whether a file's first bytes (after a byte order mark) are in this format.
    static func recognizes(_ head: ArraySlice<UInt8>) -> Bool

    /// Whether files of this format are also saved as UTF-16, to be read through
    /// `UTF16ByteSource` as the UTF-8 they decode to.
    static var readsUTF16: Bool { get }

    /// Creates a reader; `buildsRows` is `false` when only the diagnostics matter.
    init(buildsRows: Bool)

    /// Reads a whole file, reporting problems into `diagnostics` and each valid row to `onRow`.
    func parse<Source: ByteSource>(
        _ source: Source, diagnostics: inout DiagnosticCollector, onRow: (ParsedRow) -> Void
    ) -> ParseSummary

    /// `parse(_:diagnostics:onRow:)` of an open file, and of one saved as UTF-16 (below).
    func parse(
        file source: FileByteSource, diagnostics: inout DiagnosticCollector,
        onRow: (ParsedRow) -> Void
    ) -> ParseSummary
    func parse(
        utf16 source: UTF16ByteSource<FileByteSource>, diagnostics: inout DiagnosticCollector,
        onRow: (ParsedRow) -> Void
    ) -> ParseSummary
}

extension StatementReader {
    static var fileSuffixes: [String] { [] }
    static var readsUTF16: Bool { false }

    /// Reads a whole file, as `parse(_:diagnostics:onRow:)` does. The reader is found at run
    /// time (`StatementFormat`), so a generic call through it would run the reader's code
    /// unspecialized, with its types looked up at every byte (ten times slower for XML); a
    /// requirement of the concrete source type is specialized in each conformance.
    func parse(
        file source: FileByteSource, diagnostics: inout DiagnosticCollector,
        onRow: (ParsedRow) -> Void
    ) -> ParseSummary {
        parse(source, diagnostics: &diagnostics, onRow: onRow)
    }

    /// Reads a whole file saved as UTF-16, as the UTF-8 it decodes to (see `parse(file:)`).
    func parse(
        utf16 source: UTF16ByteSource<FileByteSource>, diagnostics: inout DiagnosticCollector,
        onRow: (ParsedRow) -> Void
    ) -> ParseSummary {
        parse(source, diagnostics: &diagnostics, onRow: onRow)
    }
}

/// A reader that runs one `State` over the whole file, as camt, OFX and MT940 do: the reader
/// holds its options, and the state reads the bytes into diagnostics, rows and a summary.
protocol StatementParser: StatementReader {
    associatedtype State: StatementParseState

    /// Whether valid rows are built and handed to `onRow`; `validate` checks them only.
    var buildsRows: Bool { get }
}

/// The state of one parse of a `StatementParser`.
protocol StatementParseState {
    /// A state before the first byte, its diagnostics empty.
    init(buildsRows: Bool)

    var diagnostics: DiagnosticCollector { get set }
    var summary: ParseSummary { get }

    /// Reads the whole of `source`, reporting into `diagnostics` and each valid row to `onRow`.
    mutating func read<Source: ByteSource>(_ source: Source, _ onRow: (ParsedRow) -> Void)
}

extension StatementParser {
    func parse<Source: ByteSource>(
        _ source: Source, diagnostics: inout DiagnosticCollector, onRow: (ParsedRow) -> Void
    ) -> ParseSummary {
        var state = State(buildsRows: buildsRows)
        // The caller's collector is moved in and out, so that reporting never copies it.
        swap(&state.diagnostics, &diagnostics)
        defer { swap(&state.diagnostics, &diagnostics) }
        state.read(source, onRow)
        return state.summary
    }
}

extension ArraySlice<UInt8> {
    /// The first byte that is not a space, tab or line break.
    var firstNonBlank: UInt8? { first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) } }
}
