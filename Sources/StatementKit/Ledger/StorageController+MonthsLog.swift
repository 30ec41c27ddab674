import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The months log: the accounts' sections of month records, read when needed, appended at commit.
extension StorageController {
    func monthsPath(_ log: LedgerManifest.MonthsLog) -> String {
        "\(folder)/\(log.name)"
    }

    /// Reads the months of the given accounts that are not read yet, from their sections of
    /// the months log, each checked against its checksum.
    func loadMonths(of accountIDs: some Sequence<AccountID>, in manifest: inout LedgerManifest)
        throws(StorageError)
    {
        let path = monthsPath(manifest.monthsLog)
        for accountID in accountIDs {
            guard let entry = manifest.accounts[accountID], !entry.monthsLoaded,
                let section = entry.section
            else { continue }
            let bytes = try read(path, [(section.offset, section.bytes)])
            (manifest.accounts[accountID]!.months, manifest.accounts[accountID]!.assertions) =
                try contents(of: accountID, bytes, manifest)
            manifest.accounts[accountID]!.monthsLoaded = true
        }
    }

    /// Reads every account's months, reading the months log in one go.
    func loadAllMonths(_ manifest: inout LedgerManifest) throws(StorageError) {
        guard manifest.version >= 4, manifest.monthsLog.bytes > 0 else { return }
        let log =
            try readFile(
                monthsPath(manifest.monthsLog), upTo: manifest.monthsLog.bytes,
                missingIsEmpty: false)
            ?? []
        for (accountID, entry) in manifest.accounts where !entry.monthsLoaded {
            guard let section = entry.section else { continue }
            (manifest.accounts[accountID]!.months, manifest.accounts[accountID]!.assertions) =
                try contents(
                    of: accountID, Array(log[section.offset..<section.offset + section.bytes]),
                    manifest)
            manifest.accounts[accountID]!.monthsLoaded = true
        }
    }

    /// Decodes an account's section after checking its checksum.
    private func contents(of accountID: AccountID, _ bytes: [UInt8], _ manifest: LedgerManifest)
        throws(StorageError)
        -> (months: [Month: LedgerManifest.MonthLength], assertions: [BalanceAssertion])
    {
        let path = "\(monthsPath(manifest.monthsLog)) (the months of \(accountID.text))"
        guard Checksum.of(bytes) == manifest.accounts[accountID]!.section!.checksum else {
            throw .damaged(
                folder: folder, path: path,
                reason: "does not match its checksum: it was changed after it was written")
        }
        do throws(LedgerManifest.DecodingError) {
            return try LedgerManifest.contents(
                ofSection: bytes, logs: manifest.logs,
                currency: manifest.accounts[accountID]!.account.currency)
        } catch {
            throw .damaged(folder: folder, path: path, reason: "cannot be read: \(error)")
        }
    }

    /// Appends the sections of the changed accounts and the pages of account records that
    /// changed to the months log, and copies the live sections and pages into a new months log
    /// when superseded ones take more than half of it.
    func writeSections(_ manifest: inout LedgerManifest, changed: Set<AccountID>)
        throws(StorageError)
    {
        var sections: [UInt8] = []
        let start = manifest.monthsLog.bytes
        // Before format 7 every account is read: their sections are the live bytes.
        var live =
            manifest.liveBytes
            ?? manifest.accounts.values.reduce(0) { $0 + ($1.section?.bytes ?? 0) }
        for accountID in changed.sorted() {
            precondition(manifest.accounts[accountID]!.monthsLoaded, "the months are loaded")
            let entry = manifest.accounts[accountID]!
            guard !entry.months.isEmpty || !entry.assertions.isEmpty else { continue }
            let bytes = LedgerManifest.section(of: entry.months, assertions: entry.assertions)
            live += bytes.count - (entry.section?.bytes ?? 0)
            manifest.accounts[accountID]!.section = LedgerManifest.Section(
                offset: start + sections.count, bytes: bytes.count, checksum: .of(bytes))
            sections += bytes
        }
        live += appendPages(&manifest, to: &sections, at: start)
        manifest.liveBytes = live
        guard !sections.isEmpty else { return }
        let path = monthsPath(manifest.monthsLog)
        try openMonthsLog(path, committed: start, truncating: false)
        try faultInjection?(.append)
        try write(sections, to: monthsWriter!.descriptor, at: start, path)
        manifest.monthsLog.bytes += sections.count
        guard manifest.monthsLog.bytes > 2 * live + monthsLogSlack else { return }
        try compact(&manifest)
    }

    /// Appends to `out` (which goes to the months log at `start`) each page whose accounts
    /// are all read and whose records changed, and forgets pages left without accounts;
    /// returns how much the live bytes grew.
    private func appendPages(
        _ manifest: inout LedgerManifest, to out: inout [UInt8], at start: Int
    ) -> Int {
        var grown = 0
        let byPage = manifest.loadedAccountsByPage()
        for page in 0..<LedgerManifest.pageCount where !manifest.unloadedPages.contains(page) {
            let old = manifest.pages[page]
            guard let accountIDs = byPage[page] else {
                grown -= old?.bytes ?? 0
                manifest.pages[page] = nil
                continue
            }
            let bytes = LedgerManifest.page(of: accountIDs, in: manifest.accounts)
            let checksum = Checksum.of(bytes)
            if let old, old.bytes == bytes.count, old.checksum == checksum { continue }
            grown += bytes.count - (old?.bytes ?? 0)
            manifest.pages[page] = LedgerManifest.Section(
                offset: start + out.count, bytes: bytes.count, checksum: checksum)
            out += bytes
        }
        return grown
    }

    /// Copies the live sections, and every page anew (their sections moved), into a new
    /// months log; the old one is removed after the commit.
    private func compact(_ manifest: inout LedgerManifest) throws(StorageError) {
        let path = monthsPath(manifest.monthsLog)
        // Copied as they are: their checksums go with them.
        let log = try readFile(path, upTo: manifest.monthsLog.bytes, missingIsEmpty: false) ?? []
        for page in manifest.unloadedPages.sorted() {
            try loadPage(page, in: &manifest, log: log)
        }
        var compacted: [UInt8] = []
        compacted.reserveCapacity(manifest.liveBytes ?? 0)
        for accountID in manifest.accounts.keys.sorted() {
            guard let section = manifest.accounts[accountID]!.section else { continue }
            manifest.accounts[accountID]!.section!.offset = compacted.count
            compacted += log[section.offset..<section.offset + section.bytes]
        }
        manifest.pages = Array(repeating: nil, count: LedgerManifest.pageCount)
        _ = appendPages(&manifest, to: &compacted, at: 0)
        manifest.liveBytes = compacted.count
        var name = "months.\(manifest.generation)"
        while name == manifest.monthsLog.name { name += "c" }
        manifest.monthsLog = LedgerManifest.MonthsLog(name: name, bytes: compacted.count)
        let newPath = monthsPath(manifest.monthsLog)
        close(monthsWriter!.descriptor)
        monthsWriter = nil
        try openMonthsLog(newPath, committed: 0, truncating: true)
        try write(compacted, to: monthsWriter!.descriptor, at: 0, newPath)
    }

    /// Opens the months log for appending at its committed length, after journaling the run
    /// (if no append did).
    private func openMonthsLog(_ path: String, committed: Int, truncating: Bool)
        throws(StorageError)
    {
        if journalDescriptor < 0 {
            try appendToJournal("statements-journal \(LedgerManifest.formatVersion)\n")
        }
        monthsWriter = (
            path, try openForAppending(path, committed: committed, truncating: truncating)
        )
    }
}
