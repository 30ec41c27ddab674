#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What `statements undo` needs of the disk: the manifest before the last run that changed
/// transactions, kept as `manifest.undo`, and the ledger's history, `history`.
///
/// The logs are append-only and a manifest names only committed bytes, so the manifest in
/// force before a run still describes that ledger after it: taking the run back is committing
/// that manifest again (with a new generation, so that reports catch up), through the same
/// atomic rename as any commit. The bytes the run appended are then past the committed
/// lengths, where the next run's appends overwrite them.
extension StorageController {
    private var undoPath: String { folder + "/manifest.undo" }
    private var historyPath: String { folder + "/history" }

    /// Commits a run's manifest, keeping the manifest in force before it (or an empty
    /// ledger's, before the first commit) as the one `undo` returns to: linked aside before
    /// the commit, named `manifest.undo` after it; a failed commit leaves the undo point as
    /// it was, and a crash between the commit and the rename leaves an undo manifest whose
    /// generation no longer precedes the ledger's, which `undoManifest` does not offer.
    func commit(
        _ manifest: inout LedgerManifest, changed: Set<AccountID>,
        keepingForUndo committed: LedgerManifest?
    ) throws(StorageError) {
        guard let committed else { return try commit(&manifest, changed: changed) }
        let temporary = undoPath + ".tmp"
        _ = unlink(temporary)
        if link(folder + "/manifest", temporary) != 0 {
            guard errno == ENOENT else { throw ioError("keep", folder + "/manifest") }
            var empty = LedgerManifest()
            empty.generation = committed.generation
            if let failure = POSIXIO.writeSynced(empty.encodedBytes, to: temporary, exclusive: true)
            {
                throw .io(failure)
            }
        }
        do throws(StorageError) {
            try commit(&manifest, changed: changed)
        } catch {
            _ = unlink(temporary)
            throw error
        }
        _ = rename(temporary, undoPath)
    }

    /// The manifest the last run started from, when the ledger in force is that run's
    /// (`generation` one more); `nil` when there is none to go back to.
    ///
    /// - Throws: `StorageError.damaged` when the kept manifest cannot be read.
    func undoManifest(current: LedgerManifest) throws(StorageError) -> LedgerManifest? {
        guard let bytes = try? FileByteSource(path: undoPath).readAll() else { return nil }
        let kept: LedgerManifest
        do throws(LedgerManifest.DecodingError) {
            kept = try LedgerManifest(decoding: bytes)
        } catch {
            throw .damaged(folder: folder, path: undoPath, reason: "\(error)")
        }
        guard kept.generation + 1 == current.generation else { return nil }
        return kept
    }

    /// Whether the files a kept manifest names are still there: its months log (a commit that
    /// compacted the months log removed the one before).
    func canRestore(_ kept: LedgerManifest) -> Bool {
        guard kept.monthsLog.bytes > 0 else { return true }
        var info = stat()
        return stat(folder + "/" + kept.monthsLog.name, &info) == 0
            && Int(info.st_size) >= kept.monthsLog.bytes
    }

    /// Commits a kept manifest as the ledger's new state, and forgets it as an undo point,
    /// and the files rejected so far (a file may have been rejected for what the ledger held).
    func commitUndo(_ manifest: inout LedgerManifest) throws(StorageError) {
        try commit(&manifest)
        _ = unlink(undoPath)
        _ = unlink(folder + "/" + RejectedFiles.fileName)
    }

    /// Appends a line to the ledger's history (`STATE/history`), durably; the history is for
    /// people, so a run killed after its commit and before this line loses only the line.
    func appendHistory(_ line: String) {
        let descriptor = open(
            historyPath, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        _ = POSIXIO.writeAll(descriptor, Array((line + "\n").utf8))
        _ = fsync(descriptor)
    }

    /// The ledger's history, oldest first (empty when there is none).
    package func history() -> [String] {
        guard let bytes = try? FileByteSource(path: historyPath).readAll() else { return [] }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    private func ioError(_ operation: String, _ path: String) -> StorageError {
        .io(path: path, operation: operation, reason: POSIXErrno(code: errno).description)
    }
}
