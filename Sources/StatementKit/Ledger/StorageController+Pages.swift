/// The pages of account records in the months log (format 7), read when needed.
extension StorageController {
    /// Reads the pages that hold the given accounts, unless read already; returns the
    /// accounts read (every account of those pages).
    @discardableResult
    func loadAccounts(
        _ accountIDs: some Sequence<AccountID>, in manifest: inout LedgerManifest
    ) throws(StorageError) -> [AccountID] {
        guard !manifest.unloadedPages.isEmpty else { return [] }
        var pages: Set<Int> = []
        for accountID in accountIDs {
            let page = LedgerManifest.page(of: accountID)
            if manifest.unloadedPages.contains(page) { pages.insert(page) }
        }
        // About 100 bytes a record: the dictionary grows once, not at every page.
        let bytes = pages.reduce(0) { $0 + manifest.pages[$1]!.bytes }
        manifest.accounts.reserveCapacity(manifest.accounts.count + bytes / 100)
        var read: [AccountID] = []
        read.reserveCapacity(bytes / 100)
        for page in pages.sorted() {
            read += try loadPage(page, in: &manifest)
        }
        return read
    }

    /// Reads every page not read yet.
    func loadAllAccounts(_ manifest: inout LedgerManifest) throws(StorageError) {
        // About 100 bytes a record.
        let bytes = manifest.unloadedPages.reduce(0) { $0 + manifest.pages[$1]!.bytes }
        manifest.accounts.reserveCapacity(manifest.accounts.count + bytes / 100)
        for page in manifest.unloadedPages.sorted() {
            try loadPage(page, in: &manifest)
        }
    }

    /// Reads one page from the months log (or from `log`, the months log read whole), after
    /// checking its checksum.
    @discardableResult
    func loadPage(_ page: Int, in manifest: inout LedgerManifest, log: [UInt8]? = nil)
        throws(StorageError) -> [AccountID]
    {
        let section = manifest.pages[page]!
        let bytes: [UInt8]
        if let log {
            bytes = Array(log[section.offset..<section.offset + section.bytes])
        } else {
            bytes = try read(monthsPath(manifest.monthsLog), [(section.offset, section.bytes)])
        }
        let path = "\(monthsPath(manifest.monthsLog)) (the accounts of page \(page))"
        guard Checksum.of(bytes) == section.checksum else {
            throw .damaged(
                folder: folder, path: path,
                reason: "does not match its checksum: it was changed after it was written")
        }
        var pageManifest = LedgerManifest()
        pageManifest.monthsLog = manifest.monthsLog
        do throws(LedgerManifest.DecodingError) {
            try pageManifest.readPage(bytes)
        } catch {
            throw .damaged(folder: folder, path: path, reason: "cannot be read: \(error)")
        }
        for accountID in pageManifest.accounts.keys
        where LedgerManifest.page(of: accountID) != page {
            throw .damaged(
                folder: folder, path: path, reason: "holds \(accountID.text) of another page")
        }
        manifest.accounts.merge(pageManifest.accounts) { old, _ in old }
        manifest.unloadedPages.remove(page)
        return Array(pageManifest.accounts.keys)
    }
}
