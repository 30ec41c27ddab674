/// The manifest's accounts in pages (format 7): each account's record is in one of
/// `pageCount` pages by a stable hash of its id, and each page is written to the months log
/// like a section, so that a run reads and writes the pages of the accounts it touches and
/// the manifest itself stays small (a line per page), however many accounts the ledger has.
extension LedgerManifest {
    /// How many pages the accounts are spread over: at 100,000 accounts, about 100 a page
    /// (10 KB) and a manifest of about 40 KB.
    package static let pageCount = 1024

    /// The page an account's record is kept in: 64-bit FNV-1a of a prefix and the id's
    /// bytes (the prefix keeps pages independent of the parts of a split ledger, `Shard`).
    package static func page(of accountID: AccountID) -> Int {
        accountID.withBytes { bytes in
            var hasher = StableHasher()
            hasher.combine(UInt64(0x7061_6765))
            hasher.combine(bytes)
            return Int(hasher.value % UInt64(pageCount))
        }
    }

    /// Account records of a page kept undecoded (`undecoded`): the page's bytes and, in the
    /// page's order, each record's id and line.
    package struct UndecodedPage: Hashable, Sendable {
        let bytes: [UInt8]
        var records: [UndecodedRecord]
    }

    /// An account record of a page as it stands: its id (the record's id field, checked to
    /// be an id spelt canonically), its line (without the line feed) and the line's number.
    package struct UndecodedRecord: Hashable, Sendable {
        let id: AccountID
        let line: Range<Int>
        let number: Int
    }

    /// Whether an account's record is not decoded yet: its page is not read, or holds it
    /// undecoded.
    func isUnread(_ accountID: AccountID) -> Bool {
        let page = LedgerManifest.page(of: accountID)
        return unloadedPages.contains(page)
            || undecoded[page]?.records.contains { $0.id == accountID } == true
    }

    /// The accounts decoded, by page, for the pages that are read.
    func loadedAccountsByPage() -> [Int: [AccountID]] {
        var pages: [Int: [AccountID]] = [:]
        for accountID in accounts.keys {
            let page = LedgerManifest.page(of: accountID)
            guard !unloadedPages.contains(page) else { continue }
            pages[page, default: []].append(accountID)
        }
        return pages
    }
}

/// An account's figures from its months' summaries, kept in its record (format 7), so that
/// `accounts` reads no month record of an account without stated balances.
package struct AccountTotals: Hashable, Sendable {
    /// How many transactions the account has.
    package var count = 0
    /// The sum of their amounts, in minor units.
    package var sum: Int64 = 0
    /// The first and last day with a transaction; `nil` when there is none.
    package var days: ClosedRange<Day>?
    /// How many balances the bank stated (they are in the account's section).
    package var assertions = 0
}

extension LedgerManifest.AccountEntry {
    /// The account's totals: worked out from its months when they are read (`nil` when a
    /// month has no summary), else as its record holds them.
    var currentTotals: AccountTotals? {
        guard monthsLoaded else { return totals }
        var totals = AccountTotals(assertions: assertions.count)
        for (month, length) in months {
            guard length.hasSummary, let total = length.total else { return nil }
            totals.count += length.count
            totals.sum &+= total
            guard let days = length.days,
                let first = try? Day(year: month.year, month: month.month, day: days.lowerBound),
                let last = try? Day(year: month.year, month: month.month, day: days.upperBound)
            else { continue }
            totals.days =
                totals.days.map { min($0.lowerBound, first)...max($0.upperBound, last) }
                ?? first...last
        }
        return totals
    }
}
