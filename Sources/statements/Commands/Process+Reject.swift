import StatementKit

extension Process {
    /// Refuses a `--reject` folder that is or lies in an input folder, is the archive, or
    /// comes with `--shard`.
    static func checkRejectFolder(_ options: Arguments, _ files: StatementFiles)
        throws(CommandError)
    {
        guard let folder = options.value("reject") else { return }
        if options.value("shard") != nil {
            throw .usage(
                "--reject cannot be given with --shard: the other parts still need the whole files"
            )
        }
        if let refusal = InboxArchive.refusal(of: folder, for: files, option: "--reject") {
            throw .usage(refusal)
        }
        if let archive = options.value("archive"),
            InboxArchive.isFolder(folder, within: archive)
                || InboxArchive.isFolder(archive, within: folder)
        {
            throw .usage(
                "--reject \(folder) and --archive \(archive) overlap: keep rejected files apart from imported ones"
            )
        }
    }

    /// Moves the rejected files into the `--reject` folder, saying what stays and why;
    /// `nil` without `--reject`.
    static func quarantine(
        _ folder: String?, _ files: StatementFiles, _ report: ImportReport,
        errors: inout some TextOutputStream
    ) -> (moved: [ArchivedFile], failed: Bool)? {
        guard let folder else { return nil }
        var moved: [ArchivedFile] = []
        var failed = false
        for outcome in InboxQuarantine.quarantine(files, report: report, into: folder) {
            switch outcome {
            case .archived(let file): moved.append(file)
            case .left(let path, let reason):
                print(
                    "statements process: note: rejected \(Diagnostic.sanitized(path)) stays in the inbox: \(reason)",
                    to: &errors)
            case .failed(let error):
                print("statements process: error: \(error)", to: &errors)
                failed = true
            }
        }
        return (moved, failed)
    }
}
