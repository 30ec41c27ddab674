/// Opens a statement file and runs the reader of its format and dialect over it: the one
/// place where a file's format is decided (`StatementFormat`).
///
/// A file in a bank's format (`StatementFormat.readers`) is read by its reader. A CSV file is read in the dialect of its profile. Without
/// one (or with one that fixes only the account, which then stands for a file that does not
/// name its own), a file whose first line is a canonical header is streamed as canonical CSV; any
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
    ///   - hashing: work out the hash of the file's bytes as they are read
    ///     (`ParseSummary.contentHash`).
    ///   - lending: when given, every valid row is lent to it instead of handed to `onRow`
    ///     (`LentRow`): CSV rows without making strings of their texts, other rows from
    ///     their built transactions.
    static func read(
        path: String, dialect: Dialect? = nil, buildsRows: Bool = true, sniffing: Bool = false,
        hashing: Bool = false, diagnostics: inout DiagnosticCollector,
        onRow: (ParsedRow) -> Void, lending: ((LentRow) -> Void)? = nil
    ) -> ParseSummary {
        do {
            let source = try FileByteSource(path: path, hashing: hashing)
            // The days of the rows, to place the statements' balances at, unless the file
            // can state none (at a bank's scale, a run for nearly every row).
            var days = BalanceDays()
            func stop() { days.stop() }
            var summary: ParseSummary
            if let lending {
                // Formats that build their rows lend them from the built transactions.
                func lent(_ row: LentRow) {
                    days.add(
                        account: row.account.id, day: row.fields.date, line: row.line,
                        amount: row.fields.amount.minorUnits)
                    lending(row)
                }
                summary = try read(
                    source, path: path, dialect: dialect, buildsRows: buildsRows,
                    sniffing: sniffing, diagnostics: &diagnostics,
                    onRow: { $0.withLent(lent) }, lending: lent, statesNoBalances: stop)
            } else {
                summary = try read(
                    source, path: path, dialect: dialect, buildsRows: buildsRows,
                    sniffing: sniffing, diagnostics: &diagnostics,
                    onRow: { row in
                        days.add(
                            account: row.account.id, day: row.transaction.date, line: row.line,
                            amount: row.transaction.amount.minorUnits)
                        onRow(row)
                    }, lending: nil, statesNoBalances: stop)
            }
            if !summary.statedBalances.isEmpty {
                summary.statedBalances = days.placed(
                    summary.statedBalances, statementLines: summary.statementLines)
                // The file's statements against its own rows, where it has no other error
                // and its rows were built (`validate` builds JSON rows only).
                if diagnostics.errorCount == 0,
                    days.rowCount == summary.rowCount - summary.notBookedCount
                {
                    days.check(summary.statedBalances, file: path, into: &diagnostics)
                }
            }
            if hashing { summary.contentHash = try? source.contentHashOfWhole() }
            return summary
        } catch {
            diagnostics.report(
                .unreadable(path, .pathUnreadable, reason: "\(error)"), line: 0, column: 0)
            return ParseSummary()
        }
    }

    /// Reads an open file (see above).
    private static func read(
        _ source: FileByteSource, path: String, dialect: Dialect?, buildsRows: Bool,
        sniffing: Bool, diagnostics: inout DiagnosticCollector, onRow: (ParsedRow) -> Void,
        lending: ((LentRow) -> Void)?, statesNoBalances: () -> Void
    ) throws -> ParseSummary {
        let head = try source.readHead(StatementFormat.headLength)
        if let reader = StatementFormat(path: path, head: head).reader {
            let parser = reader.init(buildsRows: buildsRows)
            // camt and OFX saved as UTF-16 are read as the UTF-8 they decode to.
            if reader.readsUTF16, let encoding = StatementFormat.utf16Encoding(of: head) {
                return parser.parse(
                    utf16: UTF16ByteSource(source, bigEndian: encoding == .utf16BE),
                    diagnostics: &diagnostics, onRow: onRow)
            }
            return parser.parse(file: source, diagnostics: &diagnostics, onRow: onRow)
        }
        if !sniffing, let streamed = try streamedDialect(source, profile: dialect) {
            var order = BookingOrder(streamed)
            var summary = StatementCSVParser(dialect: streamed, buildsRows: buildsRows).parse(
                source, footer: [], diagnostics: &diagnostics,
                onRow: { order.add($0, onRow) }, lending: order.isHeld ? nil : lending,
                statesNoBalances: statesNoBalances)
            order.finish(onRow)
            summary.needsSniffing = try isWindows1252(
                source, profile: dialect, diagnostics: diagnostics.diagnostics)
            return summary
        }
        let bytes = try source.readAll()
        var chosen = dialect ?? Dialect()
        var text: (body: [UInt8], footer: [UInt8])?
        if dialect?.sniffsLayout ?? true {
            let (sniffed, decoded) = DialectSniffer.sniffDecoding(bytes, account: dialect)
            let found = sniffed.report(into: &diagnostics)
            if case .unknown = sniffed { return ParseSummary() }
            if case .lacksAccount = sniffed { return ParseSummary() }
            if case .open = sniffed { return ParseSummary() }
            if case .notStatement = sniffed { return ParseSummary() }
            if let found { (chosen, text) = (found, found.splittingFooter(decoded)) }
        }
        let (body, footer) = text ?? chosen.text(of: bytes)
        var order = BookingOrder(chosen)
        let summary = StatementCSVParser(dialect: chosen, buildsRows: buildsRows).parse(
            MemoryByteSource(body), footer: footer, diagnostics: &diagnostics,
            onRow: { order.add($0, onRow) }, lending: order.isHeld ? nil : lending,
            statesNoBalances: statesNoBalances)
        order.finish(onRow)
        return summary
    }

    /// The rows of a file listed newest first, handed on in the order they were booked
    /// within each day: the ledger puts a file's days in order, not the rows of a day, and a
    /// day's running balances are then the bank's. Such a file's rows are built, not lent, as
    /// a day's rows are held until the day ends.
    private struct BookingOrder {
        let isHeld: Bool
        private var day: [ParsedRow] = []

        init(_ dialect: Dialect) { isHeld = dialect.isNewestFirst }

        mutating func add(_ row: ParsedRow, _ onRow: (ParsedRow) -> Void) {
            guard isHeld else { return onRow(row) }
            if let last = day.last, last.transaction.date != row.transaction.date {
                finish(onRow)
            }
            day.append(row)
        }

        mutating func finish(_ onRow: (ParsedRow) -> Void) {
            day.reversed().forEach(onRow)
            day.removeAll(keepingCapacity: true)
        }
    }

    /// Whether a file streamed as canonical CSV is Windows-1252 text, to be sniffed instead:
    /// it has no profile, gave invalid UTF-8, and holds no valid multi-byte UTF-8 either (as
    /// in any other export; UTF-8 with damage stays an error).
    static func isWindows1252(
        _ source: FileByteSource, profile: Dialect?, diagnostics: [Diagnostic]
    ) throws -> Bool {
        guard profile == nil, diagnostics.contains(where: { $0.code == .encodingInvalidUTF8 })
        else { return false }
        return TextEncoding.isWindows1252(try source.readAll(from: 0))
    }

    /// The dialect in which a CSV file is streamed: its profile's when that is UTF-8 without
    /// footer lines, canonical CSV when there is no profile and the file starts with a
    /// canonical header; `nil` when the file must be read whole, to be decoded, cut or sniffed.
    static func streamedDialect(_ source: FileByteSource, profile: Dialect?) throws -> Dialect? {
        if let profile {
            return profile.encoding == .utf8 && profile.footerLines == 0 && !profile.sniffsLayout
                ? profile : nil
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
                        Dialect.Field(canonicalHeader: String(decoding: $0, as: UTF8.self))
                    }
                })
        }
        return columns.isSuperset(of: Dialect.Field.canonicalRequired)
    }
}
