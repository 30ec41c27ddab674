import Foundation

/// Finds the statement files named by command-line paths.
enum FileFinder {
    /// One path to read, or a problem with a path.
    enum Entry: Hashable {
        case file(String)
        case problem(path: String, code: DiagnosticCode, reason: String)
    }

    /// The file extensions searched for in folders, compared case-insensitively.
    static let extensions: Set<String> = ["csv", "json"]

    /// Expands each path: a file stands for itself, a folder for the `*.csv` and `*.json`
    /// files below it, in byte order of their paths, skipping hidden entries. Symbolic links
    /// are followed, but a folder is never entered twice, so link loops end.
    static func entries(for paths: [String]) -> [Entry] {
        var entries: [Entry] = []
        var visited: Set<FileID> = []
        for path in paths {
            var info = stat()
            guard stat(path, &info) == 0 else {
                let code: DiagnosticCode = errno == ENOENT ? .pathNotFound : .pathUnreadable
                entries.append(
                    .problem(path: path, code: code, reason: FileReadError(errno: errno).reason))
                continue
            }
            if info.st_mode & S_IFMT == S_IFDIR {
                walk(path, info, &visited, into: &entries)
            } else if info.st_mode & S_IFMT == S_IFREG {
                entries.append(.file(path))
            } else {
                entries.append(
                    .problem(
                        path: path, code: .pathUnreadable, reason: "not a regular file or folder"))
            }
        }
        return entries
    }

    private struct FileID: Hashable {
        let device: UInt64
        let inode: UInt64
    }

    private static func walk(
        _ folder: String, _ info: stat, _ visited: inout Set<FileID>, into entries: inout [Entry]
    ) {
        guard
            visited.insert(FileID(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))).inserted
        else { return }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder)
        } catch {
            entries.append(
                .problem(path: folder, code: .pathUnreadable, reason: "cannot list the folder"))
            return
        }
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        for name in names.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        where !name.hasPrefix(".") {
            let path = prefix + name
            var child = stat()
            guard stat(path, &child) == 0 else {
                // A dangling symbolic link points at nothing to read.
                if lstat(path, &child) == 0 && child.st_mode & S_IFMT == S_IFLNK { continue }
                entries.append(
                    .problem(
                        path: path, code: .pathUnreadable,
                        reason: FileReadError(errno: errno).reason))
                continue
            }
            if child.st_mode & S_IFMT == S_IFDIR {
                walk(path, child, &visited, into: &entries)
            } else if child.st_mode & S_IFMT == S_IFREG,
                let dot = name.lastIndex(of: "."),
                extensions.contains(name[name.index(after: dot)...].lowercased())
            {
                entries.append(.file(path))
            }
        }
    }
}
