/// The pages of account records in the months log (format 7), read when needed.
extension StorageController {
    /// Decodes the records of the given accounts, reading their pages unless read already;
    /// the other records of those pages are kept undecoded (`LedgerManifest.undecoded`).
    /// Returns the accounts decoded.
    @discardableResult
    func loadAccounts(
        _ accountIDs: some Sequence<AccountID>, in manifest: inout LedgerManifest
    ) throws(StorageError) -> [AccountID] {
        guard !manifest.unloadedPages.isEmpty || !manifest.undecoded.isEmpty else { return [] }
        var wanted: [Int: Set<AccountID>] = [:]
        for accountID in accountIDs
        where manifest.accounts[accountID] == nil && manifest.isUnread(accountID) {
            wanted[LedgerManifest.page(of: accountID), default: []].insert(accountID)
        }
        let count = wanted.values.reduce(0) { $0 + $1.count }
        manifest.accounts.reserveCapacity(manifest.accounts.count + count)
        var read: [AccountID] = []
        read.reserveCapacity(count)
        for (page, accountIDs) in wanted.sorted(by: { $0.key < $1.key }) {
            if manifest.unloadedPages.contains(page) {
                read += try loadPage(page, in: &manifest, wanted: accountIDs)
            } else {
                read += try decode(accountIDs, of: page, in: &manifest)
            }
        }
        return read
    }

    /// Decodes every record: reads every page not read yet, and decodes the records kept
    /// undecoded.
    func loadAllAccounts(_ manifest: inout LedgerManifest, log: [UInt8]? = nil)
        throws(StorageError)
    {
        // About 100 bytes a record.
        let bytes =
            manifest.unloadedPages.reduce(0) { $0 + manifest.pages[$1]!.bytes }
            + manifest.undecoded.values.reduce(0) { $0 + $1.bytes.count }
        manifest.accounts.reserveCapacity(manifest.accounts.count + bytes / 100)
        for page in manifest.unloadedPages.sorted() {
            try loadPage(page, in: &manifest, log: log)
        }
        for page in manifest.undecoded.keys.sorted() {
            try decode(nil, of: page, in: &manifest)
        }
    }

    /// Reads one page from the months log (or from `log`, the months log read whole), after
    /// checking its checksum, and decodes its records (those `wanted`, or all); returns the
    /// accounts decoded.
    @discardableResult
    private func loadPage(
        _ page: Int, in manifest: inout LedgerManifest, log: [UInt8]? = nil,
        wanted: Set<AccountID>? = nil
    ) throws(StorageError) -> [AccountID] {
        let section = manifest.pages[page]!
        let bytes: [UInt8]
        if let log {
            bytes = Array(log[section.offset..<section.offset + section.bytes])
        } else {
            bytes = try read(monthsPath(manifest.monthsLog), [(section.offset, section.bytes)])
        }
        guard Checksum.of(bytes) == section.checksum else {
            throw pageDamaged(
                page, manifest,
                "does not match its checksum: it was changed after it was written")
        }
        var pageManifest = LedgerManifest()
        pageManifest.monthsLog = manifest.monthsLog
        let undecoded: [LedgerManifest.UndecodedRecord]
        do throws(LedgerManifest.DecodingError) {
            undecoded = try pageManifest.readPage(bytes, wanted: wanted)
        } catch {
            throw pageDamaged(page, manifest, "cannot be read: \(error)")
        }
        manifest.unloadedPages.remove(page)
        if !undecoded.isEmpty {
            manifest.undecoded[page] = LedgerManifest.UndecodedPage(
                bytes: bytes, records: undecoded)
        }
        return try take(pageManifest, of: page, into: &manifest)
    }

    /// Decodes the records of a read page kept undecoded: those of `accountIDs`, or all.
    @discardableResult
    private func decode(
        _ accountIDs: Set<AccountID>?, of page: Int, in manifest: inout LedgerManifest
    ) throws(StorageError) -> [AccountID] {
        guard var kept = manifest.undecoded.removeValue(forKey: page) else { return [] }
        let records = kept.records.filter { accountIDs?.contains($0.id) ?? true }
        kept.records.removeAll { accountIDs?.contains($0.id) ?? true }
        if !kept.records.isEmpty { manifest.undecoded[page] = kept }
        var pageManifest = LedgerManifest()
        pageManifest.monthsLog = manifest.monthsLog
        do throws(LedgerManifest.DecodingError) {
            try pageManifest.readRecords(records, of: kept)
        } catch {
            throw pageDamaged(page, manifest, "cannot be read: \(error)")
        }
        return try take(pageManifest, of: page, into: &manifest)
    }

    /// Moves the accounts decoded from a page into `manifest`, after checking that they
    /// belong on it.
    private func take(
        _ pageManifest: LedgerManifest, of page: Int, into manifest: inout LedgerManifest
    ) throws(StorageError) -> [AccountID] {
        for accountID in pageManifest.accounts.keys
        where LedgerManifest.page(of: accountID) != page {
            throw pageDamaged(page, manifest, "holds \(accountID.text) of another page")
        }
        manifest.accounts.merge(pageManifest.accounts) { old, _ in old }
        return Array(pageManifest.accounts.keys)
    }

    private func pageDamaged(_ page: Int, _ manifest: LedgerManifest, _ reason: String)
        -> StorageError
    {
        .damaged(
            folder: folder,
            path: "\(monthsPath(manifest.monthsLog)) (the accounts of page \(page))",
            reason: reason)
    }
}
