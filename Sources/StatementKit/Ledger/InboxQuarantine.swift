#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Moves rejected statement files out of the inbox into a quarantine folder
/// (`process --reject DIR`), keeping their paths below the folder named on the command line,
/// each with its diagnostics beside it in `NAME.diagnostics.txt`.
///
/// A file moves as `InboxArchive` moves one, with the same safeguards: only while it holds
/// the bytes the run read (its `stat` stamp), renamed aside first, linked (or copied through
/// an exclusive temporary, across file systems) into the folder and synced before it leaves
/// the inbox, never onto another file. Its diagnostics are written after it is placed, through
/// a synced temporary renamed over `NAME.diagnostics.txt`: a run killed between the two
/// leaves the file quarantined without them (`statements validate` on it says them again).
/// Files rejected because their folder profile cannot be used, or because they could not be
/// read, stay where they are: the file is not at fault, or cannot be moved.
package enum InboxQuarantine {
    /// The suffix of the diagnostics written beside a quarantined file.
    package static let diagnosticsSuffix = ".diagnostics.txt"

    /// Moves every file of `files` that `report` says was rejected for its content into
    /// `folder`; a dry run only says where each would go.
    package static func quarantine(
        _ files: StatementFiles, report: ImportReport, into folder: String
    ) -> [ArchiveOutcome] {
        var outcomes: [ArchiveOutcome] = []
        let inputs = InboxArchive.inputFolders(files).filter(\.isFolder).compactMap {
            InboxArchive.identity(of: $0.path)
        }
        for ((entry, _, _), file) in zip(files.entries, report.files)
        where file.outcome == .rejected && !file.validation.hasEnvironmentError {
            guard case .file(let found) = entry, let archivePath = found.archivePath else {
                continue
            }
            guard let stamp = file.readStamp else {
                outcomes.append(.left(path: found.path, reason: "it changed while it was read"))
                continue
            }
            let target = folder + "/" + InboxArchive.originalName(archivePath)
            if report.isDryRun {
                outcomes.append(.archived(ArchivedFile(from: found.path, to: target)))
                continue
            }
            do throws(StorageError) {
                guard
                    let placed = try InboxArchive.move(
                        found.path, stamp: stamp, to: target, inputs: inputs)
                else {
                    outcomes.append(
                        .left(path: found.path, reason: "it changed after it was read"))
                    continue
                }
                var text =
                    "statements: \(found.path) was rejected and moved here; its diagnostics:\n"
                ValidationReportRenderer.writeDiagnostics(of: file.validation, to: &text)
                try write(text, beside: placed)
                outcomes.append(.archived(ArchivedFile(from: found.path, to: placed)))
            } catch {
                outcomes.append(.failed(error))
            }
        }
        return outcomes
    }

    /// Writes `text` to `path` + `.diagnostics.txt`, replacing one a killed run left, whole
    /// or not at all.
    private static func write(_ text: String, beside path: String) throws(StorageError) {
        let target = path + diagnosticsSuffix
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        let temporary = "\(folder)/.statements-\(getpid()).diagnostics.tmp"
        if let failure = POSIXIO.replaceSynced(target, with: Array(text.utf8), through: temporary) {
            throw .io(failure)
        }
        try InboxArchive.sync(folder)
    }
}
