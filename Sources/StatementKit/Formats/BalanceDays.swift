/// The days of a file's rows by account and line, kept as runs of rows on one day, so that
/// statement balances can be placed at the end of a day.
struct BalanceDays {
    /// A run in 32 bytes (a file of a million rows makes hundreds of thousands): the slot
    /// and the day's ordinal in 4 bytes each, where an `Int` and a `Day` took 32.
    private struct Run {
        /// The account's slot.
        let slot: Int32
        /// The day's `ordinal` (days of years 1 to 9999 fit 32 bits).
        let ordinal: Int32
        /// The lines of its first and last row.
        var lines: ClosedRange<Int>
        /// The sum of the run's amounts, in minor units.
        var sum: Int64

        var day: Day { Day(ordinal: Int(ordinal)) }
    }

    /// The runs of every account, in line order: a row on its account's last run's day
    /// extends that run, so that rows of several accounts interleaved in date order make a
    /// run per account and day, not per row. One flat array, changed in place.
    private var runs: [Run] = []
    /// Per account slot, the index of its last run in `runs`, and that run's day.
    private var lastRuns: [Int] = []
    private var lastDays: [Day] = []
    private var slots: [AccountID: Int] = [:]
    /// The account of the last row and its slot, so that a file of one account's rows costs
    /// a comparison a row.
    private var last: (account: AccountID, slot: Int)?
    /// How many rows were noted.
    private(set) var rowCount = 0
    /// Whether rows are no longer noted: the file states no balances.
    private var isStopped = false

    /// Notes a row.
    @inline(__always)
    mutating func add(account: AccountID, day: Day, line: Int, amount: Int64) {
        guard !isStopped else { return }
        rowCount += 1
        let slot: Int
        if let last, last.account == account {
            slot = last.slot
        } else if let known = slots[account] {
            slot = known
            last = (account, known)
        } else {
            slot = lastRuns.count
            slots[account] = slot
            lastRuns.append(-1)
            lastDays.append(day)
            last = (account, slot)
        }
        let index = lastRuns[slot]
        if index >= 0 && lastDays[slot] == day {
            runs[index].lines =
                runs[index].lines.lowerBound...max(runs[index].lines.upperBound, line)
            runs[index].sum &+= amount
        } else {
            lastRuns[slot] = runs.count
            lastDays[slot] = day
            runs.append(
                Run(
                    slot: Int32(slot), ordinal: Int32(day.ordinal), lines: line...line,
                    sum: amount))
        }
    }

    /// Notes no more rows (and lets go of any noted): the file can state no balances to
    /// place.
    mutating func stop() {
        self = BalanceDays()
        isStopped = true
    }

    /// Each account's runs, in line order.
    private func runsByAccount() -> [AccountID: [Run]] {
        let grouped = Dictionary(grouping: runs, by: \.slot)
        return slots.mapValues { grouped[Int32($0)] ?? [] }
    }

    /// The earliest and latest day of the account's rows on lines `lines`.
    private func days(of runs: [Run]?, on lines: Range<Int>) -> (Day, Day)? {
        guard let runs else { return nil }
        // Rows come in line order: the first run that may reach the range, by binary search.
        var (low, high) = (0, runs.count)
        while low < high {
            let middle = (low + high) / 2
            if runs[middle].lines.lowerBound < lines.lowerBound {
                low = middle + 1
            } else {
                high = middle
            }
        }
        if low > 0 && runs[low - 1].lines.upperBound >= lines.lowerBound { low -= 1 }
        var found: (Day, Day)?
        var index = low
        while index < runs.count && runs[index].lines.lowerBound < lines.upperBound {
            let day = runs[index].day
            found = found.map { (min($0.0, day), max($0.1, day)) } ?? (day, day)
            index += 1
        }
        return found
    }

    /// The balances placed at the end of a day: an opening balance the day before the
    /// statement's first booking of the account; a closing one on the day the statement gives
    /// it when that is not before its last booking's day (camt `CLBD`, MT940 `:62F:`, OFX
    /// `DTASOF`), else on its last booking's day; a running balance at the end of its day,
    /// but on an account's latest day in the file as the balance before that day's rows (the
    /// file may hold only the day's first bookings). Balances that cannot be placed are left
    /// out.
    ///
    /// - Parameter statementLines: the lines on which the file's statements start.
    func placed(_ balances: [StatedBalance], statementLines: [Int] = []) -> [StatedBalance] {
        let runs = runsByAccount()
        let starts = Set(balances.map(\.statementLine)).union(statementLines).sorted()
        // Each account's first and latest day of rows in the file: the days that may be
        // partial.
        let rowDays = runs.compactMapValues { runs in
            runs.isEmpty ? nil : (runs.map(\.day).min()!, runs.map(\.day).max()!)
        }
        let latestRunning = rowDays.mapValues(\.1)
        let beforeLatest = Self.latestBefore(latestRunning, balances)
        var placed: [StatedBalance] = []
        // An opening balance equal to the account's closing balance of the statement before
        // it in the file says nothing new, and may fall within a day that both statements
        // hold bookings of (the readers check that it follows).
        var lastClosing: [AccountID: Money] = [:]
        var order: [AccountID: DayOrder] = [:]
        for balance in balances {
            if balance.point == .closing { lastClosing[balance.account.id] = balance.balance }
            if balance.point == .opening, lastClosing[balance.account.id] == balance.balance {
                continue
            }
            let day: Day?
            var amount = balance.balance
            switch balance.point {
            case .endOfDay(let given) where given == rowDays[balance.account.id]?.0:
                // One day of rows only: the file may start and end within it, so neither the
                // day's end nor the balance before it is known.
                if given == rowDays[balance.account.id]?.1 { continue }
                day = given
            case .endOfDay(let given) where given == latestRunning[balance.account.id]:
                let sum = (runs[balance.account.id] ?? []).lazy.filter { $0.day == given }
                    .reduce(Int64(0)) { $0 &+ $1.sum }
                let (before, overflow) = amount.minorUnits.subtractingReportingOverflow(sum)
                guard !overflow, beforeLatest[balance.account.id]?.balance.minorUnits != before
                else { continue }
                amount = Money(minorUnits: before, currency: amount.currency)
                day = Day(ordinal: given.ordinal - 1)
            case .endOfDay(let given):
                day = given
            case .opening, .closing:
                let start = balance.statementLine
                let next = starts.first { $0 > start } ?? Int.max
                if let (first, last) = days(of: runs[balance.account.id], on: start..<next) {
                    day =
                        balance.point == .opening
                        ? Day(ordinal: first.ordinal - 1)
                        : balance.statedDay.map { max($0, last) } ?? last
                } else if balance.point == .closing {
                    day = balance.statedDay
                } else {
                    day = nil
                }
            }
            guard let day, day.year >= 1 else { continue }
            // A running balance is placed from its own rows.
            if balance.point == .opening || balance.point == .closing,
                let account = runs[balance.account.id]
            {
                if order[balance.account.id] == nil {
                    order[balance.account.id] = DayOrder(account)
                }
                guard order[balance.account.id]!.divides(balance, on: day, starts: starts) else {
                    continue
                }
            }
            placed.append(
                StatedBalance(
                    account: balance.account, point: .endOfDay(day), balance: amount,
                    line: balance.line, statementLine: balance.statementLine))
        }
        return placed
    }

    /// The running balance of each account's day before its latest: a balance before the
    /// latest day's rows equal to it says nothing new (no bookings between them).
    private static func latestBefore(
        _ latestRunning: [AccountID: Day], _ balances: [StatedBalance]
    ) -> [AccountID: (day: Day, balance: Money)] {
        var beforeLatest: [AccountID: (day: Day, balance: Money)] = [:]
        for balance in balances {
            guard let day = balance.day, let latest = latestRunning[balance.account.id],
                day < latest
            else { continue }
            if beforeLatest[balance.account.id].map({ $0.day < day }) ?? true {
                beforeLatest[balance.account.id] = (day, balance.balance)
            }
        }
        return beforeLatest
    }

    /// An account's runs with the latest day up to each run and the earliest from it on, so
    /// that where a day ends among its rows is found by binary search.
    private struct DayOrder {
        let runs: [Run]
        /// `latest[i]`: the latest day of `runs[..<i]`; `earliest[i]`: of `runs[i...]`.
        let latest: [Int]
        let earliest: [Int]
        /// `reach[i]`: the last line `runs[..<i]` reach.
        let reach: [Int]

        init(_ runs: [Run]) {
            self.runs = runs
            var latest = [Int.min]
            for run in runs { latest.append(max(latest.last!, Int(run.ordinal))) }
            var earliest = [Int.max]
            for run in runs.reversed() { earliest.append(min(earliest.last!, Int(run.ordinal))) }
            self.latest = latest
            self.earliest = earliest.reversed()
            var reach = [Int.min]
            for run in runs { reach.append(max(reach.last!, run.lines.upperBound)) }
            self.reach = reach
        }

        /// The index of the first run that starts after `line`.
        private func runIndex(after line: Int) -> Int {
            var (low, high) = (0, runs.count)
            while low < high {
                let middle = (low + high) / 2
                if runs[middle].lines.lowerBound <= line { low = middle + 1 } else { high = middle }
            }
            return low
        }

        /// Whether rows are on `line` (or one day's rows on both sides of it).
        func holdsRows(on line: Int) -> Bool {
            line != Int.max && reach[runIndex(after: line)] >= line
        }

        /// Whether a statement's opening or closing balance, placed at the end of `day`, can
        /// be asserted against the ledger: its statement's first or last line falls between
        /// the account's rows where `day` ends.
        func divides(_ balance: StatedBalance, on day: Day, starts: [Int]) -> Bool {
            let next = starts.first { $0 > balance.statementLine } ?? Int.max
            // A statement that starts on a line holding the account's rows (a camt document
            // on one line) cannot tell its rows from the previous statement's by line: its
            // balances are left to the statements' own reconciliation.
            if (balance.statementLine != starts.first && holdsRows(on: balance.statementLine))
                || holdsRows(on: next)
            {
                return false
            }
            // Bookings out of day order around the balance (a later page or statement with
            // earlier days): no end of a day holds it, so it is left to the statement's own
            // reconciliation rather than asserted against the ledger.
            return divides(at: balance.point == .opening ? balance.statementLine : next, day: day)
        }

        /// Whether the end of `day` falls at `line`: every row before the line is on that
        /// day or earlier, every row from it on later.
        func divides(at line: Int, day: Day) -> Bool {
            var (low, high) = (0, runs.count)
            while low < high {
                let middle = (low + high) / 2
                if runs[middle].lines.lowerBound < line { low = middle + 1 } else { high = middle }
            }
            // A day's rows on both sides of the line.
            if low > 0 && runs[low - 1].lines.upperBound >= line { return false }
            return latest[low] <= day.ordinal && earliest[low] > day.ordinal
        }
    }

    /// Checks the placed balances of each account against the file's own rows, as an import
    /// checks them against the ledger: statements of one file that do not follow from each
    /// other (a gap between them, or a booking in two) are `BALANCE_ASSERTION` errors.
    func check(_ placed: [StatedBalance], file: String, into diagnostics: inout DiagnosticCollector)
    {
        let byAccount = Dictionary(grouping: placed) { $0.account.id }
        let runs = runsByAccount()
        for accountID in byAccount.keys.sorted() {
            var assertions: [BalanceAssertion] = []
            BalanceAssertion.merge(
                byAccount[accountID]!.map {
                    BalanceAssertion(day: $0.day!, balance: $0.balance, source: file, line: $0.line)
                }, into: &assertions)
            guard assertions.count > 1 else { continue }
            var sums: [Day: Int64] = [:]
            for run in runs[accountID] ?? [] { sums[run.day, default: 0] &+= run.sum }
            let days = sums.sorted { $0.key < $1.key }
            var (index, cumulative) = (0, Int64(0))
            let totals = assertions.map { assertion in
                while index < days.count && days[index].key <= assertion.day {
                    cumulative &+= days[index].value
                    index += 1
                }
                return cumulative
            }
            for failure in BalanceCheck(assertions: assertions, sums: totals).failures {
                diagnostics.report(
                    .balanceAssertion(failure, account: accountID, inLedger: false),
                    line: failure.assertion.line, column: 1)
            }
        }
    }
}
