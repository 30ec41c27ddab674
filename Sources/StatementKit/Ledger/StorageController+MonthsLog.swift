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
    /// the months log, each checked against its checksum; many are decoded on every core.
    func loadMonths(of accountIDs: some Sequence<AccountID>, in manifest: inout LedgerManifest)
        throws(StorageError)
    {
        // In the order they lie in the log.
        let pending: [PendingSection] = Set(accountIDs).compactMap { accountID in
            manifest.accounts[accountID].flatMap { entry in
                entry.monthsLoaded
                    ? nil : entry.section.map { (accountID, $0, entry.account.currency) }
            }
        }.sorted { $0.1.offset < $1.1.offset }
        guard !pending.isEmpty else { return }
        let path = monthsPath(manifest.monthsLog)
        var sections: [[UInt8]] = []
        sections.reserveCapacity(pending.count)
        for (_, section, _) in pending {
            sections.append(try read(path, [(section.offset, section.bytes)]))
        }
        try take(
            decoded(pending, logs: manifest.logs) { [sections] index in sections[index] },
            of: pending, into: &manifest)
    }

    /// Reads every account's months, reading the months log in one go; the sections are
    /// checked and decoded on every core, a run of accounts each (at a bank's scale, 3.3
    /// million month records).
    func loadAllMonths(_ manifest: inout LedgerManifest) throws(StorageError) {
        guard manifest.version >= 4, manifest.monthsLog.bytes > 0 else { return }
        let log =
            try readFile(
                monthsPath(manifest.monthsLog), upTo: manifest.monthsLog.bytes,
                missingIsEmpty: false)
            ?? []
        let pending: [PendingSection] = manifest.accounts.compactMap { accountID, entry in
            entry.monthsLoaded
                ? nil : entry.section.map { (accountID, $0, entry.account.currency) }
        }
        try take(
            decoded(pending, logs: manifest.logs) { index in
                let section = pending[index].1
                return Array(log[section.offset..<section.offset + section.bytes])
            }, of: pending, into: &manifest)
    }

    private typealias PendingSection = (AccountID, LedgerManifest.Section, Currency)

    /// The sections checked and decoded, on every core when there are many, a run of 256
    /// each; `bytes` gives the bytes of each.
    private func decoded(
        _ pending: [PendingSection], logs: LedgerManifest.LogLengths,
        bytes: @Sendable (Int) -> [UInt8]
    ) -> [Result<SectionContents, SectionFailure>] {
        concurrentMap(count: pending.count, run: 256) {
            Self.contents(ofSection: bytes($0), pending[$0].1, logs: logs, currency: pending[$0].2)
        }
    }

    /// Puts decoded sections into their accounts' entries, or throws the first failure.
    private func take(
        _ decoded: [Result<SectionContents, SectionFailure>], of pending: [PendingSection],
        into manifest: inout LedgerManifest
    ) throws(StorageError) {
        for (index, result) in decoded.enumerated() {
            let accountID = pending[index].0
            let contents = try result.mapError { failure(of: accountID, $0, manifest) }.get()
            manifest.accounts[accountID]!.months = contents.months
            manifest.accounts[accountID]!.assertions = contents.assertions
            manifest.accounts[accountID]!.monthsLoaded = true
        }
    }

    private typealias SectionContents = (
        months: [Month: LedgerManifest.MonthLength], assertions: [BalanceAssertion]
    )

    /// Why an account's section cannot be read.
    private enum SectionFailure: Error {
        case checksum
        case decoding(LedgerManifest.DecodingError)
    }

    private static func contents(
        ofSection bytes: [UInt8], _ section: LedgerManifest.Section,
        logs: LedgerManifest.LogLengths, currency: Currency
    ) -> Result<SectionContents, SectionFailure> {
        guard Checksum.of(bytes) == section.checksum else { return .failure(.checksum) }
        do throws(LedgerManifest.DecodingError) {
            return .success(
                try LedgerManifest.contents(ofSection: bytes, logs: logs, currency: currency))
        } catch {
            return .failure(.decoding(error))
        }
    }

    private func failure(
        of accountID: AccountID, _ failure: SectionFailure, _ manifest: LedgerManifest
    ) -> StorageError {
        let path = "\(monthsPath(manifest.monthsLog)) (the months of \(accountID.text))"
        switch failure {
        case .checksum:
            return .damaged(
                folder: folder, path: path,
                reason: "does not match its checksum: it was changed after it was written")
        case .decoding(let error):
            return .damaged(folder: folder, path: path, reason: "cannot be read: \(error)")
        }
    }

    /// Appends the sections of the changed accounts and the pages of account records that
    /// changed to the months log, and copies the live sections and pages into a new months log
    /// when superseded ones take more than half of it.
    func writeSections(_ manifest: inout LedgerManifest, changed: Set<AccountID>)
        throws(StorageError)
    {
        var out = MonthsLogWrite(
            path: monthsPath(manifest.monthsLog), start: manifest.monthsLog.bytes)
        // Before format 7 every account is read: their sections are the live bytes.
        var live =
            manifest.liveBytes
            ?? manifest.accounts.values.reduce(0) { $0 + ($1.section?.bytes ?? 0) }
        let accountIDs = changed.sorted().filter { accountID in
            let entry = manifest.accounts[accountID]!
            precondition(entry.monthsLoaded, "the months are loaded")
            return !entry.months.isEmpty || !entry.assertions.isEmpty
        }
        // Encoded on every core, a few thousand at a time, and written in order.
        for start in stride(from: 0, to: accountIDs.count, by: 4096) {
            let batch = accountIDs[start..<min(accountIDs.count, start + 4096)]
            let sections = Self.sections(of: batch, in: manifest.accounts)
            for (accountID, bytes) in zip(batch, sections) {
                live += bytes.count - (manifest.accounts[accountID]!.section?.bytes ?? 0)
                manifest.accounts[accountID]!.section = LedgerManifest.Section(
                    offset: out.offset, bytes: bytes.count, checksum: .of(bytes))
                out.pending += bytes
                try writeOut(&out, whenOver: monthsLogChunk)
            }
        }
        live += try appendPages(&manifest, to: &out)
        try writeOut(&out)
        manifest.liveBytes = live
        guard out.written > 0 else { return }
        manifest.monthsLog.bytes += out.written
        guard manifest.monthsLog.bytes > 2 * live + monthsLogSlack else { return }
        try compact(&manifest)
    }

    /// The sections of the given accounts, encoded on every core; the accounts are let go of
    /// on return, so that changing them does not copy them.
    private static func sections(
        of accountIDs: ArraySlice<AccountID>,
        in accounts: [AccountID: LedgerManifest.AccountEntry]
    ) -> [[UInt8]] {
        concurrentMap(count: accountIDs.count, run: 256) { index in
            let entry = accounts[accountIDs[accountIDs.startIndex + index]]!
            return LedgerManifest.section(of: entry.months, assertions: entry.assertions)
        }
    }

    /// Bytes bound for a months log from `start`, written out `monthsLogChunk` bytes at a
    /// time: a commit that writes the sections of 100,000 accounts holds a few megabytes of
    /// them, not all.
    private struct MonthsLogWrite {
        let path: String
        let start: Int
        /// Whether the log is made anew from `start` (a compaction) rather than appended to.
        var isNew = false
        /// How many bytes are written out.
        var written = 0
        var pending: [UInt8] = []

        /// Where the next byte appended goes in the log.
        var offset: Int { start + written + pending.count }
    }

    /// Writes the pending bytes out when there are more than `threshold`, opening the log
    /// (and journaling the run) before the first.
    private func writeOut(_ out: inout MonthsLogWrite, whenOver threshold: Int = 0)
        throws(StorageError)
    {
        guard !out.pending.isEmpty, out.pending.count > threshold else { return }
        if out.written == 0 {
            try openMonthsLog(out.path, committed: out.start, truncating: out.isNew)
            if !out.isNew { try faultInjection?(.append) }
        }
        try write(out.pending, to: monthsWriter!.descriptor, at: out.start + out.written, out.path)
        out.written += out.pending.count
        out.pending.removeAll(keepingCapacity: true)
    }

    /// Appends to `out` each page that is read and whose records changed (the records kept
    /// undecoded as they stand), and forgets pages left without accounts; returns how much
    /// the live bytes grew.
    private func appendPages(_ manifest: inout LedgerManifest, to out: inout MonthsLogWrite)
        throws(StorageError) -> Int
    {
        var grown = 0
        let byPage = manifest.loadedAccountsByPage()
        for page in 0..<LedgerManifest.pageCount where !manifest.unloadedPages.contains(page) {
            let old = manifest.pages[page]
            let undecoded = manifest.undecoded[page]
            guard byPage[page] != nil || undecoded != nil else {
                grown -= old?.bytes ?? 0
                manifest.pages[page] = nil
                continue
            }
            let bytes = LedgerManifest.page(
                of: byPage[page] ?? [], in: manifest.accounts, undecoded: undecoded)
            let checksum = Checksum.of(bytes)
            if let old, old.bytes == bytes.count, old.checksum == checksum { continue }
            grown += bytes.count - (old?.bytes ?? 0)
            manifest.pages[page] = LedgerManifest.Section(
                offset: out.offset, bytes: bytes.count, checksum: checksum)
            out.pending += bytes
            try writeOut(&out, whenOver: monthsLogChunk)
        }
        return grown
    }

    /// Copies the live sections, and every page anew (their sections moved), into a new
    /// months log; the old one is removed after the commit.
    private func compact(_ manifest: inout LedgerManifest) throws(StorageError) {
        let path = monthsPath(manifest.monthsLog)
        // Copied as they are: their checksums go with them.
        let log = try readFile(path, upTo: manifest.monthsLog.bytes, missingIsEmpty: false) ?? []
        try loadAllAccounts(&manifest, log: log)
        var name = "months.\(manifest.generation)"
        while name == manifest.monthsLog.name { name += "c" }
        close(monthsWriter!.descriptor)
        monthsWriter = nil
        var out = MonthsLogWrite(
            path: monthsPath(LedgerManifest.MonthsLog(name: name, bytes: 0)), start: 0, isNew: true)
        for accountID in manifest.accounts.keys.sorted() {
            guard let section = manifest.accounts[accountID]!.section else { continue }
            manifest.accounts[accountID]!.section!.offset = out.offset
            out.pending += log[section.offset..<section.offset + section.bytes]
            try writeOut(&out, whenOver: monthsLogChunk)
        }
        manifest.pages = Array(repeating: nil, count: LedgerManifest.pageCount)
        _ = try appendPages(&manifest, to: &out)
        try writeOut(&out)
        if out.written == 0 { try openMonthsLog(out.path, committed: 0, truncating: true) }
        manifest.liveBytes = out.written
        manifest.monthsLog = LedgerManifest.MonthsLog(name: name, bytes: out.written)
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
