import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reading the manifest: retried while a writer replaces it, kept while its file is unchanged.
extension StorageController {
    // MARK: Reading

    /// Reads the committed manifest, with every account's record unless `accounts` is false
    /// (then `loadAccounts(_:in:)` reads the pages of those a run needs) and every account's
    /// months unless `months` is false (then `loadMonths(of:in:)` reads those a run needs); a
    /// missing folder or manifest is an empty ledger.
    ///
    /// Readers take no lock, so a writer's commit may replace the months log between reading
    /// the manifest and reading that log: the manifest is then read again.
    package func loadManifest(months: Bool = true, accounts: Bool = true) throws(StorageError)
        -> LedgerManifest
    {
        var attempt = 0
        while true {
            var manifest = try loadRoot()
            guard accounts || months else { return manifest }
            do throws(StorageError) {
                beforeReadingMonths?()
                let stamp = cachedRoot?.stamp
                // A report asks for every account's months twice (its statements, then the
                // links between them): decoded once per manifest, unless a writer holds the
                // lock (it changes them, and the copy would only hold memory).
                if months, let kept = current(cachedMonths, stamp) { return kept }
                // A command asks for the accounts several times: read once per manifest.
                if let kept = current(cachedAccounts, stamp) {
                    manifest = kept
                } else {
                    try loadAllAccounts(&manifest)
                    if let stamp, manifestStamp() == stamp { cachedAccounts = (stamp, manifest) }
                }
                guard months else { return manifest }
                try loadAllMonths(&manifest)
                if !isLocked, let stamp, manifestStamp() == stamp {
                    cachedMonths = (stamp, manifest)
                }
                return manifest
            } catch {
                attempt += 1
                guard attempt < 5, try loadRoot().monthsLog.name != manifest.monthsLog.name
                else { throw error }
            }
        }
    }

    /// The manifest kept in `cached`, when it was read for the manifest file of `stamp` and
    /// that file is still the one there.
    private func current(_ cached: (stamp: [Int], manifest: LedgerManifest)?, _ stamp: [Int]?)
        -> LedgerManifest?
    {
        guard let cached, stamp == cached.stamp, manifestStamp() == cached.stamp else {
            return nil
        }
        return cached.manifest
    }

    private func manifestStamp() -> [Int]? {
        var info = stat()
        guard lstat(manifestPath, &info) == 0 else { return nil }
        return [
            Int(info.st_dev), Int(info.st_ino), Int(info.st_size), info.st_mtim.tv_sec,
            info.st_mtim.tv_nsec, info.st_ctim.tv_sec, info.st_ctim.tv_nsec,
        ]
    }

    /// Reads the committed manifest without the months of format 4's accounts.
    func loadRoot() throws(StorageError) -> LedgerManifest {
        var info = stat()
        if stat(folder, &info) != 0 {
            guard errno == ENOENT else { throw error("read", folder) }
            return LedgerManifest()
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw .io(
                path: folder, operation: "use state folder",
                reason: String(cString: strerror(ENOTDIR)))
        }
        // A command asks for the manifest several times; it is read again only when a commit
        // replaced it (a new file: another inode, size or time).
        let before = manifestStamp()
        if let cached = cachedRoot, let before, cached.stamp == before { return cached.manifest }
        guard let bytes = try readFile(manifestPath, upTo: nil, missingIsEmpty: true) else {
            // No manifest but ledger data, and no journal of a first run that was stopped
            // before its commit: the manifest was lost, not never written.
            let accounts =
                (try? FileManager.default.contentsOfDirectory(atPath: folder + "/accounts"))
            let hasData =
                !(accounts ?? []).isEmpty
                || (stat(logPath(.data), &info) == 0 && info.st_size > 0)
            if hasData, stat(journalPath, &info) != 0 {
                throw .damaged(
                    folder: folder, path: manifestPath,
                    reason: "is missing while the ledger holds transactions")
            }
            return LedgerManifest()
        }
        do throws(LedgerManifest.DecodingError) {
            let manifest = try LedgerManifest(decoding: bytes)
            if let before, manifestStamp() == before { cachedRoot = (before, manifest) }
            return manifest
        } catch {
            if case .newerVersion = error {
                throw .unreadable(folder: folder, reason: error.description)
            }
            throw .damaged(folder: folder, path: manifestPath, reason: "\(error)")
        }
    }
}
