import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Checking a ledger against its checksums, and removing files of earlier formats.
extension StorageController {
    /// Removes the month files of formats 1 to 3 (`accounts/ID/YYYY-MM.tsv|.idx|.ids`) once
    /// an upgrade committed, or, found by a later writer, after a run killed between the
    /// upgrade's commit and this removal; a ledger of the current format never reads them.
    /// Costs one `stat` when there are none.
    func removeEarlierFormatFiles() {
        let accounts = folder + "/accounts"
        var info = stat()
        guard stat(accounts, &info) == 0 else { return }
        let files = FileManager.default
        for name in (try? files.contentsOfDirectory(atPath: accounts)) ?? [] {
            let account = "\(accounts)/\(name)"
            for file in (try? files.contentsOfDirectory(atPath: account)) ?? []
            where [".tsv", ".idx", ".ids"].contains(where: file.hasSuffix) {
                _ = unlink("\(account)/\(file)")
            }
            _ = rmdir(account)
        }
        _ = rmdir(accounts)
    }

    /// Every problem of the ledger's committed bytes: missing, short, or not matching their
    /// checksums (empty for a sound ledger), and how many account-months were checked.
    /// Reads everything; writes nothing.
    ///
    /// - Throws: `StorageError` when the manifest itself is missing, damaged or unreadable.
    package func check() throws(StorageError) -> (problems: [StorageError], months: Int) {
        let manifest = try loadManifest()
        var problems: [StorageError] = []
        var months = 0
        for accountID in manifest.accounts.keys.sorted() {
            let entry = manifest.accounts[accountID]!
            for month in entry.months.keys.sorted() {
                let length = entry.months[month]!
                months += 1
                do throws(StorageError) {
                    // Every row decoded, and the month's summary worked out from the same
                    // bytes as an upgrade records it.
                    let summary = try decodeMonth(of: entry.account, in: month, length: length) {
                        (bytes, currency) throws(LedgerRecord.DecodingError) in
                        _ = try LedgerRecord.decode(bytes, currency: currency)
                        return try LedgerRecord.summary(bytes, currency: currency)
                    }
                    if let problem = summaryMismatch(
                        of: accountID, in: month, length, summary, log: manifest.monthsLog)
                    {
                        problems.append(problem)
                    }
                } catch {
                    problems.append(error)
                }
                do throws(StorageError) {
                    _ = try committedBytes(
                        .ids, accountID, month, length, version: manifest.version)
                } catch {
                    problems.append(error)
                }
            }
        }
        return (problems, months)
    }

    /// The error of an account-month whose record's summary is not that of its rows: its sum
    /// (which reports carry from month to month instead of reading the rows) or its first and
    /// last day; `nil` when they agree or the record has none (format 4).
    private func summaryMismatch(
        of accountID: AccountID, in month: Month, _ length: LedgerManifest.MonthLength,
        _ rows: (total: Money, days: ClosedRange<Int>?), log: LedgerManifest.MonthsLog
    ) -> StorageError? {
        let (sum, days) = (rows.total.minorUnits, rows.days)
        var reasons: [String] = []
        if let total = length.total, total != sum {
            reasons.append("records a sum of \(total) minor units, but its rows sum to \(sum)")
        }
        if let recorded = length.days, recorded != days {
            let found = days.map { "\($0.lowerBound) to \($0.upperBound)" } ?? "none"
            reasons.append(
                "records its rows on days \(recorded.lowerBound) to \(recorded.upperBound), "
                    + "but they are on days \(found)")
        }
        guard !reasons.isEmpty else { return nil }
        return .damaged(
            folder: folder,
            path: "\(monthsPath(log)) (the months of \(accountID.text))",
            reason: "in \(month.isoText) " + reasons.joined(separator: "; "))
    }

    /// Checks the committed bytes (transaction lines and identity index) of the
    /// account-months that `includes` selects against their checksums, without decoding
    /// them: what a writer verifies before it commits, so that it never builds on damage.
    ///
    /// - Throws: `StorageError.damaged` for the first account-month that does not match.
    /// - Complexity: reads the selected months' bytes once.
    func verifyChecksums(
        of manifest: LedgerManifest, where includes: (AccountID, Month) -> Bool
    ) throws(StorageError) {
        for accountID in manifest.accounts.keys.sorted() {
            let entry = manifest.accounts[accountID]!
            for month in entry.months.keys.sorted() where includes(accountID, month) {
                let length = entry.months[month]!
                for part in LogPart.allCases {
                    _ = try committedBytes(
                        part, accountID, month, length, version: manifest.version)
                }
            }
        }
    }
}
