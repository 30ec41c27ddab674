#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A statement file moved out of the inbox.
package struct ArchivedFile: Hashable, Sendable {
    /// Where it was.
    package let from: String
    /// Where it is now.
    package let to: String
}

/// Moves statement files whose transactions are committed out of the inbox into an archive
/// folder (`process --archive DIR`), keeping their paths below the folder named on the
/// command line.
///
/// Crash-safe by order: a file moves only after the import that read it committed, and is
/// linked into the archive (synced) before it is unlinked from the inbox. A run killed
/// before the move leaves the file in the inbox, and the next run finds its transactions
/// present and moves it then; killed between link and unlink, the file is in both places,
/// and the next run, finding the same content in the archive, only removes it from the
/// inbox. A file of another content already under the name gets the next free `NAME-2.EXT`.
package enum InboxArchive {
    /// Archives every file of `files` that `report` says was imported or already present
    /// (rejected files and standard input stay where they are); a dry run only says where
    /// each would go.
    package static func archive(
        _ files: StatementFiles, report: ImportReport, into folder: String
    ) -> [Result<ArchivedFile, StorageError>] {
        var results: [Result<ArchivedFile, StorageError>] = []
        for ((entry, _, _), file) in zip(files.entries, report.files)
        where file.outcome != .rejected {
            guard case .file(let found) = entry, let archivePath = found.archivePath else {
                continue
            }
            let target = folder + "/" + archivePath
            results.append(
                Result { () throws(StorageError) in
                    ArchivedFile(
                        from: found.path,
                        to: report.isDryRun ? target : try move(found.path, to: target))
                })
        }
        return results
    }

    /// Moves a file to `target`, or beside it under the first free or same-content name;
    /// returns where it went.
    private static func move(_ path: String, to target: String) throws(StorageError) -> String {
        let slash = target.lastIndex(of: "/")!
        let folder = String(target[..<slash])
        if let error = POSIXIO.makeFolders(folder) {
            throw .io(path: folder, operation: "create folder", reason: error.description)
        }
        let name = target[target.index(after: slash)...]
        let dot = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : $0 }
        let (stem, ext) = (name[..<(dot ?? name.endIndex)], name[(dot ?? name.endIndex)...])
        var number = 1
        while true {
            let candidate = number == 1 ? target : "\(folder)/\(stem)-\(number)\(ext)"
            switch try place(path, at: candidate, folder: folder) {
            case true:
                return candidate
            case false:
                number += 1
            }
        }
    }

    /// Puts the file at `candidate` unless another file is there: `true` when the file is
    /// now there (moved, or found there from an earlier run), `false` when the name is taken.
    private static func place(_ path: String, at candidate: String, folder: String)
        throws(StorageError) -> Bool
    {
        if link(path, candidate) == 0 {
            try sync(folder)
        } else if errno == EEXIST {
            guard try sameContent(path, candidate) else { return false }
        } else if errno == EXDEV || errno == EPERM || errno == ENOTSUP {
            // Another file system (or one without hard links): copy, then unlink.
            guard try copy(path, to: candidate, folder: folder) else { return false }
        } else {
            throw .io(
                path: candidate, operation: "archive to",
                reason: POSIXErrno(code: errno).description)
        }
        guard unlink(path) == 0 else {
            throw .io(path: path, operation: "remove", reason: POSIXErrno(code: errno).description)
        }
        let from = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        try sync(from)
        return true
    }

    /// Copies a file to `candidate` through a synced temporary beside it; `false` when
    /// another content is already at `candidate`.
    private static func copy(_ path: String, to candidate: String, folder: String)
        throws(StorageError) -> Bool
    {
        let bytes = try contents(path)
        let temporary = "\(candidate).\(getpid()).statements-tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw .io(
                path: temporary, operation: "create", reason: POSIXErrno(code: errno).description)
        }
        let failure =
            bytes.withUnsafeBytes { POSIXIO.writeAll(descriptor, $0) }
            ?? (fsync(descriptor) == 0 ? nil : errno)
        close(descriptor)
        defer { unlink(temporary) }
        if let failure {
            throw .io(
                path: temporary, operation: "write", reason: POSIXErrno(code: failure).description)
        }
        if link(temporary, candidate) == 0 {
            try sync(folder)
            return true
        }
        guard errno == EEXIST else {
            throw .io(
                path: candidate, operation: "archive to",
                reason: POSIXErrno(code: errno).description)
        }
        return try contents(candidate) == bytes
    }

    private static func sameContent(_ first: String, _ second: String) throws(StorageError) -> Bool
    {
        try contents(first) == contents(second)
    }

    private static func contents(_ path: String) throws(StorageError) -> [UInt8] {
        do {
            return try FileByteSource(path: path).readAll()
        } catch {
            throw .io(path: path, operation: "read", reason: "\(error)")
        }
    }

    private static func sync(_ folder: String) throws(StorageError) {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw .io(path: folder, operation: "open", reason: POSIXErrno(code: errno).description)
        }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 || errno == EINVAL else {
            throw .io(path: folder, operation: "sync", reason: POSIXErrno(code: errno).description)
        }
    }
}
