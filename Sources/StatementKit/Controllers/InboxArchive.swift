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

/// What became of one file the archive was to take.
package enum ArchiveOutcome: Sendable {
    /// Moved into the archive (or, in a dry run, would be).
    case archived(ArchivedFile)
    /// Left where it is, for a reason that is no error: its bytes are not (or no longer)
    /// exactly the bytes the import read.
    case left(path: String, reason: String)
    /// The archive could not take it; it is still in the inbox.
    case failed(StorageError)
}

/// Moves statement files whose transactions are committed out of the inbox into an archive
/// folder (`process --archive DIR`), keeping their paths below the folder named on the
/// command line.
///
/// Crash-safe by order: a file moves only after the import that read it committed, and is
/// linked into the archive (synced) before it is unlinked from the inbox. A run killed
/// before the move leaves the file in the inbox, and the next run finds its transactions
/// present and moves it then; killed between link and unlink, the file is in both places,
/// and the next run, finding the same file (or, across file systems, a regular file of the
/// same content) in the archive, only removes it from the inbox. A file of another content,
/// or anything but a regular file, already under the name leaves it to the next free
/// `NAME-2.EXT`.
///
/// Never the last copy's undoing: an archive folder that is, is inside, or resolves to an
/// input folder is refused before anything is read; a file is moved only while it holds the
/// bytes the import read (its size, times, inode and device as `stat` gave them while it
/// was read); a target that is the file's own directory entry is an error, never a copy; a
/// symbolic link in the inbox is archived as a copy of what it points to, and the link
/// removed.
package enum InboxArchive {
    /// Why the archive folder cannot take the files found, or `nil` when it can: it must not
    /// be an input folder, lie inside one or resolve to one, nor be the folder of an input
    /// file.
    package static func refusal(of folder: String, for files: StatementFiles) -> String? {
        let archive = resolved(folder)
        for root in files.roots {
            var info = stat()
            let isFolder = stat(root, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
            let inside = archive == root || (isFolder && archive.hasPrefix(root + "/"))
            if inside || (!isFolder && archive == parent(of: root)) {
                return
                    "--archive \(folder) is \(archive == root || !isFolder ? "" : "inside ")the input folder \(isFolder ? root : parent(of: root)): archived files would never leave it; give a folder outside the inbox"
            }
        }
        return nil
    }

    /// Archives every file of `files` that `report` says was imported or already present
    /// (rejected files and standard input stay where they are); a dry run only says where
    /// each would go.
    package static func archive(
        _ files: StatementFiles, report: ImportReport, into folder: String
    ) -> [ArchiveOutcome] {
        var outcomes: [ArchiveOutcome] = []
        for ((entry, _, _), file) in zip(files.entries, report.files)
        where file.outcome != .rejected {
            guard case .file(let found) = entry, let archivePath = found.archivePath else {
                continue
            }
            guard let stamp = file.readStamp else {
                outcomes.append(
                    .left(path: found.path, reason: "it changed while it was read"))
                continue
            }
            let target = folder + "/" + archivePath
            if report.isDryRun {
                outcomes.append(.archived(ArchivedFile(from: found.path, to: target)))
                continue
            }
            do throws(StorageError) {
                if let placed = try move(found.path, stamp: stamp, to: target) {
                    outcomes.append(.archived(ArchivedFile(from: found.path, to: placed)))
                } else {
                    outcomes.append(
                        .left(path: found.path, reason: "it changed after it was read"))
                }
            } catch {
                outcomes.append(.failed(error))
            }
        }
        return outcomes
    }

    /// Moves a file to `target`, or beside it under the first free or same-file name;
    /// returns where it went, or `nil` when the file no longer holds the bytes read.
    private static func move(_ path: String, stamp: FileStamp, to target: String)
        throws(StorageError) -> String?
    {
        let slash = target.lastIndex(of: "/")!
        let folder = String(target[..<slash])
        if let error = POSIXIO.makeFolders(folder) {
            throw .io(path: folder, operation: "create folder", reason: error.description)
        }
        var info = stat()
        guard lstat(path, &info) == 0 else {
            throw .io(path: path, operation: "read", reason: POSIXErrno(code: errno).description)
        }
        let isLink = info.st_mode & S_IFMT == S_IFLNK
        guard POSIXIO.stamp(of: path) == stamp else { return nil }
        let name = target[target.index(after: slash)...]
        let dot = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : $0 }
        let (stem, ext) = (name[..<(dot ?? name.endIndex)], name[(dot ?? name.endIndex)...])
        var number = 1
        while true {
            let candidate = number == 1 ? target : "\(folder)/\(stem)-\(number)\(ext)"
            try refuseOwnEntry(path, candidate)
            switch try place(path, stamp: stamp, isLink: isLink, at: candidate, folder: folder) {
            case .placed:
                guard unlink(path) == 0 else {
                    throw .io(
                        path: path, operation: "remove",
                        reason: POSIXErrno(code: errno).description)
                }
                try sync(parent(of: path))
                return candidate
            case .taken:
                number += 1
            case .changed:
                return nil
            }
        }
    }

    private enum Placement {
        /// The file's bytes are at the candidate name (and synced): the inbox entry may go.
        case placed
        /// Something else is under the name.
        case taken
        /// The file no longer holds the bytes the import read.
        case changed
    }

    /// Puts the file at `candidate` unless another file is there.
    private static func place(
        _ path: String, stamp: FileStamp, isLink: Bool, at candidate: String, folder: String
    ) throws(StorageError) -> Placement {
        if isLink { return try copy(path, stamp: stamp, to: candidate, folder: folder) }
        if link(path, candidate) == 0 {
            // Linking changes the inode's change time; nothing else of it may have moved.
            guard let now = POSIXIO.stamp(of: path), now.sameBytes(as: stamp) else {
                _ = unlink(candidate)
                return .changed
            }
            try sync(folder)
            return .placed
        }
        switch errno {
        case EEXIST:
            var info = stat()
            guard lstat(candidate, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
                return .taken
            }
            // The same file, linked by a run killed before its unlink; or, across file
            // systems, a copy a killed run left.
            let here = FileStamp(info)
            if here.inode == stamp.inode && here.device == stamp.device { return .placed }
            return try sameContent(path, candidate) ? .placed : .taken
        case EXDEV, EPERM, ENOTSUP:
            // Another file system (or one without hard links): copy, then unlink.
            return try copy(path, stamp: stamp, to: candidate, folder: folder)
        default:
            throw .io(
                path: candidate, operation: "archive to",
                reason: POSIXErrno(code: errno).description)
        }
    }

    /// An error when `candidate` is the very directory entry `path` names (through a
    /// symbolic link inside the archive): archiving it onto itself would unlink the only copy.
    private static func refuseOwnEntry(_ path: String, _ candidate: String) throws(StorageError) {
        let (from, to) = (lastComponent(path), lastComponent(candidate))
        guard from == to, resolved(parent(of: path)) == resolved(parent(of: candidate)) else {
            return
        }
        throw .io(
            path: candidate, operation: "archive to",
            reason: "it is the file itself (the archive leads back into the inbox)")
    }

    /// Copies a file to `candidate` through a synced temporary beside it, a piece at a
    /// time, checking that the source held the bytes read throughout.
    private static func copy(_ path: String, stamp: FileStamp, to candidate: String, folder: String)
        throws(StorageError) -> Placement
    {
        let source = open(path, O_RDONLY | O_CLOEXEC)
        guard source >= 0 else {
            throw .io(path: path, operation: "read", reason: POSIXErrno(code: errno).description)
        }
        defer { close(source) }
        let temporary = "\(candidate).\(getpid()).statements-tmp"
        _ = unlink(temporary)
        let descriptor = open(
            temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw .io(
                path: temporary, operation: "create", reason: POSIXErrno(code: errno).description)
        }
        defer { unlink(temporary) }
        let failure = copyBytes(from: source, to: descriptor)
        close(descriptor)
        if let failure {
            throw .io(path: temporary, operation: "write", reason: failure.description)
        }
        var info = stat()
        guard fstat(source, &info) == 0, FileStamp(info).sameBytes(as: stamp) else {
            return .changed
        }
        if link(temporary, candidate) == 0 {
            try sync(folder)
            return .placed
        }
        guard errno == EEXIST else {
            throw .io(
                path: candidate, operation: "archive to",
                reason: POSIXErrno(code: errno).description)
        }
        guard lstat(candidate, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            return .taken
        }
        return try sameContent(temporary, candidate) ? .placed : .taken
    }

    /// Copies every byte from one descriptor to another and syncs the copy; the error of the
    /// first failure, if any.
    private static func copyBytes(from source: Int32, to target: Int32) -> POSIXErrno? {
        let size = 1 << 20
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = read(source, buffer.baseAddress, size)
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return POSIXErrno(code: errno) }
            if count == 0 { break }
            if let code = POSIXIO.writeAll(
                target, UnsafeRawBufferPointer(rebasing: buffer[..<count]))
            {
                return POSIXErrno(code: code)
            }
        }
        return fsync(target) == 0 ? nil : POSIXErrno(code: errno)
    }

    /// Whether two files hold the same bytes, compared a piece at a time.
    private static func sameContent(_ first: String, _ second: String) throws(StorageError) -> Bool
    {
        let size = 1 << 16
        let buffers = UnsafeMutableRawBufferPointer.allocate(byteCount: 2 * size, alignment: 16)
        defer { buffers.deallocate() }
        let (left, right) = (
            UnsafeMutableRawBufferPointer(rebasing: buffers[..<size]),
            UnsafeMutableRawBufferPointer(rebasing: buffers[size...])
        )
        do {
            let (a, b) = (try FileByteSource(path: first), try FileByteSource(path: second))
            guard try a.size() == b.size() else { return false }
            while true {
                let count = try fill(left, from: a)
                guard try fill(right, from: b) == count,
                    memcmp(left.baseAddress!, right.baseAddress!, count) == 0
                else { return false }
                if count < size { return true }
            }
        } catch {
            throw .io(path: first, operation: "compare", reason: "\(error)")
        }
    }

    /// Reads until the buffer is full or the file ends; how many bytes it holds.
    private static func fill(_ buffer: UnsafeMutableRawBufferPointer, from source: FileByteSource)
        throws -> Int
    {
        var count = 0
        while count < buffer.count {
            let read = try source.read(
                into: UnsafeMutableRawBufferPointer(rebasing: buffer[count...]))
            if read == 0 { break }
            count += read
        }
        return count
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

    /// A path's folder (`.` for a bare name).
    private static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    private static func lastComponent(_ path: String) -> Substring {
        path.lastIndex(of: "/").map { path[path.index(after: $0)...] } ?? path[...]
    }

    /// The canonical form of a path that may not exist yet: its longest existing start
    /// resolved (symbolic links, `.` and `..`), the rest appended.
    private static func resolved(_ path: String) -> String {
        if let canonical = POSIXIO.canonicalPath(path) { return canonical }
        let trimmed = path.hasSuffix("/") && path.count > 1 ? String(path.dropLast()) : path
        guard trimmed.contains("/") else {
            return (POSIXIO.canonicalPath(".") ?? ".") + "/" + trimmed
        }
        let rest = lastComponent(trimmed)
        let start = parent(of: trimmed)
        return (start == "/" ? "" : resolved(start)) + "/" + rest
    }
}
