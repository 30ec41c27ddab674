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
/// input folder (by device and inode, so through links and bind mounts too), or that the
/// inbox reaches into, is refused before anything is read; a file is moved only while it
/// holds the bytes the import read (its size, times, inode and device as `stat` gave them
/// while it was read); its inbox entry is first renamed aside (atomically: a file renamed
/// onto its name meanwhile stays) and checked to be the file read; a target in the file's
/// own folder is an error; a symbolic link in the inbox is archived as a copy of what it
/// points to, and the link removed. A run killed while a file is aside leaves it in the
/// inbox as `NAME.statements-archiving-PID.EXT`, which the next run finds, knows and
/// archives under its own name.
package enum InboxArchive {
    /// Why the archive folder cannot take the files found, or `nil` when it can: it must not
    /// be an input folder, lie inside one or resolve to one, nor be the folder of an input
    /// file; and no input file may lie inside it (an inbox that links into its archive
    /// would read the archived files again every night).
    package static func refusal(
        of folder: String, for files: StatementFiles, option: String = "--archive"
    ) -> String? {
        guard !folder.isEmpty else { return "\(option) needs a folder, not an empty text" }
        let (archive, itself) = (identities(along: folder), identity(of: folder))
        for (root, isFolder) in inputFolders(files) {
            guard let input = identity(of: root) else { continue }
            if itself == input || (isFolder && archive.contains(input)) {
                let relation = itself == input ? "" : "inside "
                return
                    "\(option) \(folder) is \(relation)the input folder \(root): the files moved would never leave it; give a folder outside the inbox"
            }
        }
        guard let archived = itself else { return nil }
        for case (.file(let found), _, _) in files.entries
        where identities(along: parent(of: found.path)).contains(archived) {
            return
                "\(option) \(folder) holds the input file \(found.path) (the inbox reaches into it, through a link?): give a folder the inbox does not reach"
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
        let inputs = inputFolders(files).filter(\.isFolder).compactMap { identity(of: $0.path) }
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
            let target = folder + "/" + originalName(archivePath)
            if report.isDryRun {
                outcomes.append(.archived(ArchivedFile(from: found.path, to: target)))
                continue
            }
            do throws(StorageError) {
                if let placed = try move(found.path, stamp: stamp, to: target, inputs: inputs) {
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

    /// The mark of a file renamed aside while it is archived.
    private static let asideMark = ".statements-archiving-"

    /// An archive path with the aside mark of a killed run taken out.
    static func originalName(_ path: String) -> String {
        guard let mark = path.range(of: asideMark, options: .backwards) else { return path }
        let rest = path[mark.upperBound...]
        let ext = rest.firstIndex(of: ".") ?? rest.endIndex
        return String(path[..<mark.lowerBound] + rest[ext...])
    }

    /// Moves a file to `target`, or beside it under the first free or same-file name;
    /// returns where it went, or `nil` when the file no longer holds the bytes read.
    static func move(
        _ path: String, stamp: FileStamp, to target: String, inputs: [FileID]
    ) throws(StorageError) -> String? {
        let slash = target.lastIndex(of: "/")!
        let folder = String(target[..<slash])
        if let error = POSIXIO.makeFolders(folder) {
            throw .io(path: folder, operation: "create folder", reason: error.description)
        }
        // Where the file would go may not lead back into the inbox (through a link inside the
        // archive): there the move would never take it out, or would take it onto itself.
        let along = identities(along: folder)
        if along.first == identity(of: parent(of: path))
            || along.contains(where: inputs.contains)
        {
            throw .io(
                path: target, operation: "archive to",
                reason: "it leads back into the inbox (through a link in the archive)")
        }
        guard POSIXIO.stamp(of: path) == stamp else { return nil }
        // The entry is taken out of the inbox's namespace first: whatever is renamed onto
        // the name from now on stays there.
        let aside = asidePath(path)
        guard rename(path, aside) == 0 else {
            throw .io(path: path, operation: "move", reason: POSIXErrno(code: errno).description)
        }
        var info = stat()
        let isLink = lstat(aside, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
        guard let taken = POSIXIO.stamp(of: aside), taken.sameBytes(as: stamp) else {
            putBack(aside, at: path)
            return nil
        }
        var number = 1
        do throws(StorageError) {
            while true {
                let candidate = number == 1 ? target : inserting("-\(number)", into: target)
                switch try place(aside, stamp: stamp, isLink: isLink, at: candidate, folder: folder)
                {
                case .placed:
                    guard unlink(aside) == 0 else {
                        throw .io(
                            path: aside, operation: "remove",
                            reason: POSIXErrno(code: errno).description)
                    }
                    try sync(parent(of: path))
                    return candidate
                case .taken:
                    number += 1
                case .changed:
                    putBack(aside, at: path)
                    return nil
                }
            }
        } catch {
            putBack(aside, at: path)
            throw error
        }
    }

    /// The name a file is renamed to while it is archived: beside it, with its extension, so
    /// that a run killed meanwhile leaves it where the next run finds it.
    private static func asidePath(_ path: String) -> String {
        inserting("\(asideMark)\(getpid())", into: path)
    }

    /// A path with `text` inserted before the extension of its last component
    /// (`done/a.csv` → `done/a-2.csv`; a leading dot is no extension's).
    private static func inserting(_ text: String, into path: String) -> String {
        let name = lastComponent(path)
        let dot = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : $0 }
        let end = dot ?? path.endIndex
        return path[..<end] + text + path[end...]
    }

    /// Returns a file renamed aside to its inbox name, or, when another file took that name
    /// meanwhile, to the first free `NAME-2.EXT` beside it; never replaces a file.
    private static func putBack(_ aside: String, at path: String) {
        for number in 1...1000 {
            let name = number == 1 ? path : inserting("-\(number)", into: path)
            if link(aside, name) == 0 {
                _ = unlink(aside)
                return
            }
            guard errno == EEXIST else { return }  // it stays aside, where the next run finds it
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

    /// Creates a hidden temporary file of this process, replacing one a killed run left; never
    /// through a symbolic link, never onto a file another opened meanwhile.
    static func createTemporary(_ temporary: String) throws(StorageError) -> Int32 {
        _ = unlink(temporary)
        let descriptor = open(
            temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw .io(
                path: temporary, operation: "create", reason: POSIXErrno(code: errno).description)
        }
        return descriptor
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
        let temporary = "\(folder)/.statements-\(getpid()).tmp"
        let descriptor = try createTemporary(temporary)
        defer { unlink(temporary) }
        let failure = POSIXIO.copyAll(from: source, to: descriptor)
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

    /// Whether two files hold the same bytes, compared a piece at a time.
    private static func sameContent(_ first: String, _ second: String) throws(StorageError) -> Bool
    {
        do {
            return try FileByteSource(path: first).hasSameBytes(as: FileByteSource(path: second))
        } catch {
            throw .io(path: first, operation: "compare", reason: "\(error)")
        }
    }

    static func sync(_ folder: String) throws(StorageError) {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw .io(path: folder, operation: "open", reason: POSIXErrno(code: errno).description)
        }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 || errno == EINVAL else {
            throw .io(path: folder, operation: "sync", reason: POSIXErrno(code: errno).description)
        }
    }

    /// Whether folder `inner` is `outer` or lies inside it, by their canonical forms (either
    /// may not exist yet).
    package static func isFolder(_ inner: String, within outer: String) -> Bool {
        let (inner, outer) = (resolved(inner), resolved(outer))
        return inner == outer || inner.hasPrefix(outer == "/" ? "/" : outer + "/")
    }

    /// A path's folder (`.` for a bare name).
    private static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    private static func lastComponent(_ path: String) -> Substring {
        path.lastIndex(of: "/").map { path[path.index(after: $0)...] } ?? path[...]
    }

    /// A folder's device and inode.
    struct FileID: Hashable {
        let device: UInt64
        let inode: UInt64
    }

    static func identity(of path: String) -> FileID? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileID(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// The identities of a path (when it exists) and of every existing folder above it,
    /// nearest first, along its canonical form.
    private static func identities(along path: String) -> [FileID] {
        var result: [FileID] = []
        var current = resolved(path)
        while true {
            if let id = identity(of: current) { result.append(id) }
            guard current != "/" else { return result }
            current = parent(of: current)
        }
    }

    /// The input folders: each folder named, and the folder of each file named.
    static func inputFolders(_ files: StatementFiles) -> [(path: String, isFolder: Bool)] {
        files.roots.map { root in
            var info = stat()
            let isFolder = stat(root, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
            return (isFolder ? root : parent(of: root), isFolder)
        }
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
