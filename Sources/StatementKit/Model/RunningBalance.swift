/// Follows an account's balance through a statement and checks each declared running balance.
///
/// The first declared balance anchors the chain when no opening balance is known; from then on
/// every row's declared balance must equal the previous balance plus the row's amount. Only
/// the first break is reported: after it, later rows would all disagree for the same reason.
///
/// Statements listed newest first are followed backwards: each row's declared balance must
/// equal the next newer row's balance minus that row's amount.
package struct RunningBalance: Hashable, Sendable {
    private var current: Money?
    private var hasRows = false
    /// Whether rows come newest first; `current` is then the balance before the last row.
    private var isNewestFirst = false
    private var anchored = false
    /// Whether a mismatch has been found.
    package private(set) var isBroken = false
    /// The balance at the end of each day on which a row declares its balance: the balance
    /// after the day's latest row (`add(_:declared:day:line:)`).
    package var dayEnds: [Day: DayEnd] {
        guard let lastDay, let lastDayEnd else { return earlierDayEnds }
        var ends = earlierDayEnds
        ends[lastDay] = lastDayEnd
        return ends
    }
    /// The ends of the days before the last row's, and the end of the last row's day so far:
    /// a day's rows change only its end, so they write to no dictionary until the day is over.
    private var earlierDayEnds: [Day: DayEnd] = [:]
    private var lastDayEnd: DayEnd?
    /// Whether the last row's day had rows before that are not next to its rows: no row tells
    /// where such a day ends.
    private var lastDayIsScattered = false
    /// The day of the last row added, and, newest first, the balance after its day's latest
    /// row when the chain knew it.
    private var lastDay: Day?
    private var latestOfDay: Money?
    /// Newest first, the sum of the amounts of the day's rows listed so far (the newer ones),
    /// which a balance declared on a later-listed row of the day needs to reach the day's end.
    private var newerOfDay: Int64 = 0
    /// The days of the rows added, and the furthest in the rows' order: the latest, or the
    /// earliest newest first.
    private var days: Set<Day> = []
    private var furthestDay: Day?

    /// A balance at the end of a day, and the line of the row that declares it (or the last
    /// row of the day declaring one).
    package struct DayEnd: Hashable, Sendable {
        package let balance: Money
        package let line: Int
    }
    /// The balance before the first row, when the first row declares its balance and no
    /// opening balance was given: that balance minus the row's amount.
    package private(set) var impliedOpening: Money?

    /// Starts a chain, from an opening balance when the statement declares one.
    package init(opening: Money? = nil) {
        current = opening
    }

    /// Starts a chain over rows listed newest first.
    package init(newestFirst: Bool) {
        isNewestFirst = newestFirst
    }

    /// Adds a row and checks its declared balance, if any.
    ///
    /// - Returns: the mismatch, the first time the chain breaks; `nil` otherwise.
    package mutating func add(_ amount: Money, declared: Money?) -> ReconciliationError? {
        defer { hasRows = true }
        guard !isBroken else { return nil }
        if isNewestFirst { return addGoingBack(amount, declared: declared) }
        if let current {
            let computed: Money
            do {
                computed = try current.adding(amount)
            } catch {
                isBroken = true
                return .arithmetic(row: nil, error)
            }
            self.current = computed
            if let declared, declared != computed {
                isBroken = true
                return .runningBalanceMismatch(declared: declared, computed: computed)
            }
        } else if let declared {
            current = declared
            if !hasRows { impliedOpening = try? declared.subtracting(amount) }
        }
        return nil
    }

    /// Adds a row of `day` on `line` as `add(_:declared:)` does, and notes the balance at the
    /// end of its day when a row of the day declares one: a running balance holds after its
    /// row, so the day ends with it plus the amounts of the day's later rows (oldest first),
    /// or with the balance after the day's first-listed row (newest first).
    package mutating func add(_ amount: Money, declared: Money?, day: Day, line: Int)
        -> ReconciliationError?
    {
        let afterIfNewestFirst = declared ?? current
        let continuesDay = lastDay == day
        if !continuesDay {
            if let lastDay, let lastDayEnd { earlierDayEnds[lastDay] = lastDayEnd }
            lastDayEnd = nil
            lastDayIsScattered = !days.insert(day).inserted
            // The day's rows are apart: its end is not where any one row stands.
            if lastDayIsScattered { earlierDayEnds[day] = nil }
            if let furthestDay, isNewestFirst ? day > furthestDay : day < furthestDay {
                // A row out of date order (a booking dated back): the bank's balances at the
                // ends of the later days did not count it, where in date order they do; its
                // own day ends where no row tells.
                earlierDayEnds = Self.counting(
                    amount, in: earlierDayEnds, after: day, isNewestFirst)
                lastDayIsScattered = true
            } else {
                furthestDay = day
            }
        }
        lastDay = day
        if isNewestFirst && !continuesDay { (latestOfDay, newerOfDay) = (afterIfNewestFirst, 0) }
        defer { if isNewestFirst { newerOfDay &+= amount.minorUnits } }
        let mismatch = add(amount, declared: declared)
        guard mismatch == nil, !isBroken, !lastDayIsScattered else { return mismatch }
        if isNewestFirst {
            if let declared, lastDayEnd == nil {
                // The balance after the day's newest row: known when the chain reached the
                // day anchored, else this row's balance plus the newer rows' amounts.
                let (end, overflow) = declared.minorUnits.addingReportingOverflow(newerOfDay)
                if let latest = latestOfDay
                    ?? (overflow ? nil : Money(minorUnits: end, currency: declared.currency))
                {
                    lastDayEnd = DayEnd(balance: latest, line: line)
                }
            }
        } else if let current {
            if declared != nil {
                lastDayEnd = DayEnd(balance: current, line: line)
            } else if let end = lastDayEnd {
                lastDayEnd = DayEnd(balance: current, line: end.line)
            }
        }
        return nil
    }

    /// Day ends with a row of `day` out of order counted in: oldest first, the ends of the
    /// later days gain its amount; newest first, those of the earlier days (listed before it,
    /// booked after it in the bank's order) lose it. Its own day's end is dropped, and one
    /// that the amount overflows.
    private static func counting(
        _ amount: Money, in ends: [Day: DayEnd], after day: Day, _ isNewestFirst: Bool
    ) -> [Day: DayEnd] {
        var counted: [Day: DayEnd] = [:]
        for (key, end) in ends where key != day {
            guard isNewestFirst ? key < day : key > day else {
                counted[key] = end
                continue
            }
            let balance =
                try? isNewestFirst
                ? end.balance.subtracting(amount) : end.balance.adding(amount)
            if let balance { counted[key] = DayEnd(balance: balance, line: end.line) }
        }
        return counted
    }

    private mutating func addGoingBack(_ amount: Money, declared: Money?) -> ReconciliationError? {
        if let current, let declared, declared != current {
            isBroken = true
            return .runningBalanceMismatch(declared: declared, computed: current)
        }
        guard let balance = declared ?? current else { return nil }
        do {
            current = try balance.subtracting(amount)
        } catch {
            isBroken = true
            return .arithmetic(row: nil, error)
        }
        if declared != nil && !hasRows { anchored = true }
        if anchored { impliedOpening = current }
        return nil
    }

    /// How a chain begun afresh on part of the rows started, for joining it to the chain of
    /// the rows before them (see `followed(by:start:)`).
    package enum Start: Hashable, Sendable {
        /// With a row of the account that could not be read.
        case unreadableRow
        /// With a row of this amount and declared balance.
        case row(amount: Money, declared: Money?)
    }

    /// This chain continued by `later`, a chain begun afresh at `start` on the rows that
    /// follow; `nil` when continuing this chain would have checked those rows differently:
    /// when the first row's declared balance does not follow from this chain's, or the later
    /// chain found a break that this broken chain would not report again.
    package func followed(by later: RunningBalance, start: Start) -> RunningBalance? {
        guard !isNewestFirst else { return nil }
        if isBroken { return later.isBroken ? nil : self }
        if case .row(let amount, let declared) = start, let current {
            // Unanchored, the later chain agrees only where this one's next balance is declared.
            guard let declared, (try? current.adding(amount)) == declared else { return nil }
        }
        var joined = later
        joined.hasRows = true
        joined.impliedOpening = impliedOpening
        return joined
    }

    /// Forgets the balance after a row that could not be read; the next declared balance
    /// anchors the chain again.
    package mutating func skipUnreadableRow() {
        hasRows = true
        current = nil
        if isNewestFirst {
            anchored = false
            impliedOpening = nil
        }
    }
}

/// Why a statement's numbers do not add up.
package enum ReconciliationError: Error, Hashable, Sendable {
    /// A running sum overflowed or mixed currencies; `row` is the 0-based transaction.
    case arithmetic(row: Int?, MoneyError)
    /// Opening balance plus the transactions differs from the declared closing balance.
    case closingBalanceMismatch(declared: Money, computed: Money)
    /// A row's running balance differs from the previous balance plus its amount.
    case runningBalanceMismatch(declared: Money, computed: Money)
}
