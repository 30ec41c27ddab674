import Foundation

/// Reading one file's rows in parts, each part on its own and all at once, and joining the
/// parts into exactly what reading the file in one go reports.
///
/// A part starts at a line start and is read from the head's state, as if its rows were the
/// file's first. `join` takes the parts in order and trusts a part only when reading on from
/// the parts before it could not have read it differently: it starts where they ended (not
/// inside a quoted field of theirs), it ended without an error unless it is the last, and
/// its state joins theirs (`RowState.absorb`). Any other part is read again, in order, from
/// where the one before it ended and from the state it ended in: a part in doubt costs
/// time, never exactness.
extension StatementCSVParser {
    /// A place in a file: a byte offset and the line there.
    typealias Point = (offset: Int, line: Int)

    /// What a file's head (preamble and header) establishes for reading its rows.
    struct Head: Sendable {
        let columns: Columns
        let state: RowState
        /// Where the rows start.
        let rowsStart: Point
    }

    /// The records that start from one point up to a limit, read from a given state.
    struct RowsPart: Sendable {
        let start: Point
        /// Where reading ended: the first line start at or past the limit, or the file's end.
        var end: Point
        var rowCount = 0
        var state: RowState
        var diagnostics: DiagnosticCollector
        /// The error that ended reading, if any.
        var error: CSVReadError?

        init(start: Point, state: RowState, diagnostics: DiagnosticCollector) {
            self.start = start
            end = start
            self.state = state
            self.diagnostics = diagnostics
        }
    }

    /// Reads a file's head from a source of the whole file; `nil` when its rows cannot be
    /// read, after saying why.
    func readHead<Source: ByteSource>(
        _ source: Source, diagnostics: inout DiagnosticCollector
    ) -> Head? {
        var reader = makeReader(source)
        do throws(CSVReadError) {
            guard let (columns, state) = try readHead(&reader, &diagnostics) else { return nil }
            return Head(columns: columns, state: state, rowsStart: reader.resumePoint)
        } catch {
            Self.report(error, into: &diagnostics)
            return nil
        }
    }

    /// Reads the records that start from `start` up to `limit`, from `state`, reporting into
    /// a copy of `diagnostics`; valid rows are checked, not built.
    ///
    /// - Parameter source: the file's bytes from `start.offset` on.
    func readRows<Source: ByteSource>(
        _ source: Source, from start: Point, to limit: Int, columns: Columns, state: RowState,
        diagnostics: DiagnosticCollector
    ) -> RowsPart {
        var reader = makeReader(
            source, firstLine: start.line, limit: limit == .max ? .max : limit - start.offset)
        var part = RowsPart(start: start, state: state, diagnostics: diagnostics)
        do throws(CSVReadError) {
            try readRows(&reader, columns, &part.state, &part.rowCount, &part.diagnostics) { _ in }
        } catch {
            part.error = error
        }
        let end = reader.resumePoint
        part.end = (start.offset + end.offset, end.line)
        return part
    }

    /// Joins parts read on their own into the findings of the whole file, reporting into
    /// `diagnostics` in file order.
    ///
    /// - Parameters:
    ///   - parts: the parts in file order, each read from the head's state up to the next
    ///     one's start; the first starts where the head's rows do.
    ///   - reread: reads the records from a point up to a limit again, from a state.
    func join(
        _ parts: [RowsPart], after head: Head, diagnostics: inout DiagnosticCollector,
        reread: (Point, Int, RowState) -> RowsPart
    ) -> ParseSummary {
        var summary = ParseSummary()
        var state = head.state
        var point = head.rowsStart
        for (index, part) in parts.enumerated() {
            let isLast = index == parts.count - 1
            var read = part
            if !(part.start == point && (part.error == nil || isLast) && state.absorb(part.state)) {
                read = reread(point, isLast ? .max : parts[index + 1].start.offset, state)
                state = read.state
            }
            diagnostics.append(contentsOf: read.diagnostics)
            summary.rowCount += read.rowCount
            if let error = read.error {
                Self.report(error, into: &diagnostics)
                return summary
            }
            point = read.end
        }
        finish(&summary, state, &diagnostics)
        return summary
    }
}

extension StatementCSVParser.RowState {
    /// Takes in the state in which a later part of the file ended, read from the head's state
    /// rather than from this one; returns `false`, changing nothing, when reading the part on
    /// from this state would have reported differently: an account of both with another
    /// currency or with currency conflicts in the part (their messages name the line of the
    /// account's first row), a balance chain that does not join (`RunningBalance.followed`),
    /// a national check warning that this state's IBANs would not give again, or a
    /// transaction id seen in both (its conflict would name the earlier line).
    mutating func absorb(_ part: Self) -> Bool {
        var joined: [(slot: Int, balance: RunningBalance, total: Int64?)] = []
        for later in part.accounts {
            guard let slot = accountSlots[later.account.id] else { continue }
            let earlier = accounts[slot]
            guard earlier.account.currency == later.account.currency,
                !later.hasCurrencyConflicts,
                let balance = earlier.balance.followed(by: later.balance, start: later.start)
            else { return false }
            joined.append((slot, balance, later.total))
        }
        if part.nationalCheckWarnings.accountIDs.contains(where: validAccounts.contains) {
            return false
        }
        if transactionIDs.sharesAnID(with: part.transactionIDs) { return false }

        for (slot, balance, total) in joined {
            accounts[slot].balance = balance
            accounts[slot].total = accounts[slot].total.flatMap { sum in
                total.flatMap { sum.addingReportingOverflow($0) }.flatMap {
                    $0.overflow ? nil : $0.partialValue
                }
            }
        }
        for later in part.accounts where accountSlots[later.account.id] == nil {
            accountSlots.insert(later.account.id, accounts.count)
            accounts.append(later)
        }
        for accountID in part.skippedBeforeFirstRow.accountIDs
        where part.accountSlots[accountID] == nil {
            skipUnreadableRow(of: accountID)
        }
        for accountID in part.validAccounts.accountIDs { validAccounts.insert(accountID) }
        for accountID in part.nationalCheckWarnings.accountIDs {
            nationalCheckWarnings.insert(accountID)
        }
        transactionIDs.absorb(part.transactionIDs)
        notBookedCount += part.notBookedCount
        lastSlot = nil
        return true
    }
}
