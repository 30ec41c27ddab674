import Foundation

/// Validating one large CSV file on several cores: the file is cut at line starts into
/// parts, each part is read at the same time as the others, and the parser joins them into
/// exactly the diagnostics of reading the file in one go (see `StatementCSVParser.join`).
extension ValidationController {
    /// The fewest bytes per part: a smaller file is read in one go.
    static let minimumPartSize = 8 << 20

    /// Validates a CSV file in up to `parts` parts at once; `nil` when the file is not worth
    /// splitting or cannot be split: JSON, a dialect that needs the whole text (another
    /// encoding, a footer, rows newest first), one to sniff, or fewer than two parts' bytes.
    static func validateInParts(
        path: String, dialect: Dialect?, parts: Int, isStrict: Bool, limit: Int,
        minimumPartSize: Int = minimumPartSize
    ) -> FileValidation? {
        guard parts > 1 else { return nil }
        do {
            let source = try FileByteSource(path: path)
            guard try StatementFormat(of: source, path: path) == .csv else { return nil }
            let size = try source.size()
            let count = min(parts, size / max(1, minimumPartSize))
            guard count > 1 else { return nil }
            guard let streamed = try StatementFileReader.streamedDialect(source, profile: dialect),
                !streamed.isNewestFirst, !streamed.hasNoHeader
            else { return nil }
            let parser = StatementCSVParser(dialect: streamed, buildsRows: false)
            var diagnostics = DiagnosticCollector(file: path, isStrict: isStrict, limit: limit)
            guard let head = parser.readHead(source, diagnostics: &diagnostics) else {
                return FileValidation(path: path, rowCount: 0, collector: diagnostics)
            }
            let starts = try partStarts(
                path: path, from: head.rowsStart.offset, size: size, count: count)
            let firstLines = try partFirstLines(path: path, starts: starts, after: head.rowsStart)
            let reader = PartReader(
                path: path, parser: parser, columns: head.columns,
                diagnostics: DiagnosticCollector(file: path, isStrict: isStrict, limit: limit))
            let results = ConcurrentResults<StatementCSVParser.RowsPart>(count: starts.count)
            DispatchQueue.concurrentPerform(iterations: starts.count) { index in
                let limit = index + 1 < starts.count ? starts[index + 1] : .max
                results[index] = reader.read(
                    from: (starts[index], firstLines[index]), to: limit, state: head.state,
                    isBounded: true)
            }
            let summary = parser.join(
                results.values.map { $0! }, after: head, diagnostics: &diagnostics
            ) { start, limit, state in
                reader.read(from: start, to: limit, state: state, isBounded: false)
            }
            return FileValidation(
                path: path, rowCount: summary.rowCount, notBookedCount: summary.notBookedCount,
                collector: diagnostics)
        } catch {
            return nil  // Read in one go, the file reports what is wrong with it.
        }
    }

    /// Reads the rows of one file from a point up to a limit.
    private struct PartReader: Sendable {
        let path: String
        let parser: StatementCSVParser
        let columns: StatementCSVParser.Columns
        /// An empty collector for the file.
        let diagnostics: DiagnosticCollector

        /// Reads from `start` on, from `state`; a part read on its own (`isBounded`) reads no
        /// byte past the limit, so that a part cut wrongly stops there too.
        func read(
            from start: StatementCSVParser.Point, to limit: Int, state: StatementCSVParser.RowState,
            isBounded: Bool
        ) -> StatementCSVParser.RowsPart {
            do {
                let source = try FileByteSource(
                    path: path, from: start.offset, to: isBounded ? limit : .max)
                return parser.readRows(
                    source, from: start, to: limit, columns: columns, state: state,
                    diagnostics: diagnostics)
            } catch {
                var part = StatementCSVParser.RowsPart(
                    start: start, state: state, diagnostics: diagnostics)
                part.error = .readFailed(error.description)
                return part
            }
        }
    }

    /// The offsets at which the parts start: the first where the rows do, each other at the
    /// first line start at or past its share of the bytes.
    private static func partStarts(path: String, from rowsStart: Int, size: Int, count: Int)
        throws -> [Int]
    {
        var starts = [rowsStart]
        for index in 1..<count {
            let share = rowsStart + (size - rowsStart) * index / count
            guard share > starts.last!,
                let lineStart = try LineBreakCounter.lineStart(inFile: path, atOrAfter: share),
                lineStart < size
            else { continue }
            if lineStart > starts.last! { starts.append(lineStart) }
        }
        return starts
    }

    /// The line on which each part starts, counting the line breaks before it at once.
    private static func partFirstLines(
        path: String, starts: [Int], after rowsStart: StatementCSVParser.Point
    ) throws -> [Int] {
        let counts = ConcurrentResults<Result<Int, any Error>>(count: starts.count - 1)
        DispatchQueue.concurrentPerform(iterations: starts.count - 1) { index in
            counts[index] = Result {
                try LineBreakCounter.count(inFile: path, from: starts[index], to: starts[index + 1])
            }
        }
        var lines = [rowsStart.line]
        for count in counts.values { lines.append(lines.last! + (try count!.get())) }
        return lines
    }
}
