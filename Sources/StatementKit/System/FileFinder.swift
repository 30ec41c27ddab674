import Foundation

/// Finds the statement files named by command-line paths.
enum FileFinder {
    /// One path to read, or a problem with a path.
    enum Entry: Hashable {
        /// A statement file and the folder profile that applies to it, if any.
        case file(FoundFile)
        case problem(path: String, code: DiagnosticCode, reason: String)
        /// A statement file whose folder profile cannot be used: it is rejected unread.
        case badProfile(FoundFile, ProfileError)
    }

    /// A statement file found below the command line's paths.
    struct FoundFile: Hashable {
        /// Where it is read from.
        let path: String
        /// The folder profile that applies to it, if any.
        let profile: String?
        /// Its name in diagnostics and reports: the path, or `<stdin>` for standard input.
        let name: String
        /// Its path below the folder named on the command line (a file named there: its
        /// file name), where `process --archive` puts it; `nil` for standard input.
        let archivePath: String?

        init(_ path: String, profile: String?, archivePath: String?, name: String? = nil) {
            self.path = path
            self.profile = profile
            self.name = name ?? path
            self.archivePath = archivePath
        }
    }

    /// The name of standard input in diagnostics, when no other is given.
    static let standardInputName = "<stdin>"

    /// The file extensions searched for in folders, compared case-insensitively.
    static let extensions: Set<String> = [
        "csv", "json", "sta", "940", "942", "mt940", "mt942", "swi", "ofx", "qfx",
    ]

    /// Extensions that statement files share with other files: such a file is searched for
    /// only when its content is a statement format other than CSV (`.txt`: MT940; `.xml`:
    /// camt).
    static let sharedExtensions: Set<String> = ["txt", "xml"]

    /// The name of a folder's profile, which applies to the files in the folder and below.
    static let profileName = "statements-profile.json"

    /// Expands each path: a file stands for itself, a folder for the `*.csv` and `*.json`
    /// files below it, in byte order of their paths, skipping hidden entries and profiles.
    /// Symbolic links are followed, but a folder is never entered twice, so link loops end.
    ///
    /// Each file gets the nearest `statements-profile.json` in its folder or the folders
    /// above it, up to the folder named on the command line (a file named on the command
    /// line: its own folder).
    ///
    /// `-` is standard input, copied to `input` (see `StandardInput`) and shown as `name`.
    static func entries(for paths: [String], input: StandardInput? = nil) -> [Entry] {
        var entries: [Entry] = []
        var visited: Set<FileID> = []
        // A file named twice (given twice, or given and found in a folder given) is read once.
        var named: Set<NamedFile> = []
        for path in paths {
            if path == "-", let input {
                switch input.copy {
                case .success(let copy):
                    entries.append(
                        .file(FoundFile(copy, profile: nil, archivePath: nil, name: input.name)))
                case .failure(let error):
                    entries.append(
                        .problem(path: input.name, code: .pathUnreadable, reason: error.reason))
                }
                continue
            }
            var info = stat()
            guard stat(path, &info) == 0 else {
                let code: DiagnosticCode = errno == ENOENT ? .pathNotFound : .pathUnreadable
                entries.append(
                    .problem(path: path, code: code, reason: FileReadError(errno: errno).reason))
                continue
            }
            if info.st_mode & S_IFMT == S_IFDIR {
                walk(path, info, below: "", profile: nil, &visited, &named, into: &entries)
            } else if info.st_mode & S_IFMT == S_IFREG {
                let folder = path.contains("/") ? String(path[...path.lastIndex(of: "/")!]) : ""
                let name = String(path.dropFirst(folder.count))
                var parent = stat()
                if stat(folder.isEmpty ? "." : folder, &parent) == 0,
                    !named.insert(NamedFile(parent, name)).inserted
                {
                    continue
                }
                entries.append(
                    .file(FoundFile(path, profile: profile(in: folder), archivePath: name)))
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

    /// A directory entry: its folder's identity and its name.
    private struct NamedFile: Hashable {
        let folder: FileID
        let name: String

        init(_ folder: stat, _ name: String) {
            self.folder = FileID(device: UInt64(folder.st_dev), inode: UInt64(folder.st_ino))
            self.name = name
        }
    }

    /// Whether a file's content is a statement format that CSV files never look like.
    private static func isStatement(_ path: String) -> Bool {
        guard let source = try? FileByteSource(path: path),
            let format = try? StatementFormat(of: source, path: path)
        else { return true }  // unreadable: reading it will say so
        return format != .csv && !format.refuses
    }

    /// The profile in a folder (given with its trailing `/`), if there is one.
    private static func profile(in folder: String) -> String? {
        var info = stat()
        let path = folder + profileName
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG ? path : nil
    }

    /// Adds the statement files below `folder`, which is `below` (ending in `/`, or empty)
    /// below the folder named on the command line.
    private static func walk(
        _ folder: String, _ info: stat, below: String, profile inherited: String?,
        _ visited: inout Set<FileID>, _ named: inout Set<NamedFile>,
        into entries: inout [Entry]
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
        let profile = profile(in: prefix) ?? inherited
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
                walk(
                    path, child, below: below + name + "/", profile: profile, &visited, &named,
                    into: &entries)
            } else if child.st_mode & S_IFMT == S_IFREG, name.lowercased() != profileName,
                let dot = name.lastIndex(of: ".")
            {
                let ext = name[name.index(after: dot)...].lowercased()
                if extensions.contains(ext)
                    || (sharedExtensions.contains(ext) && isStatement(path)),
                    named.insert(NamedFile(info, name)).inserted
                {
                    entries.append(
                        .file(FoundFile(path, profile: profile, archivePath: below + name)))
                }
            }
        }
    }
}

/// The statement files named on a command line, each with the dialect of its profile.
package struct StatementFiles {
    /// A file (or a path problem), the dialect its profile gives (`nil` without one), and
    /// the checksum of how it is read: its profile's bytes and the `--account` given.
    let entries: [(entry: FileFinder.Entry, dialect: Dialect?, reading: Checksum)]
    /// The copy of standard input the entries may read, kept as long as they are.
    let input: StandardInput?
    /// The absolute paths named, below which every statement file was found.
    let roots: [String]

    /// Whether the paths named hold no statement file and no path problem.
    package var isEmpty: Bool { entries.isEmpty }

    /// The largest file read as a profile.
    static let maximumProfileSize = 1 << 20

    /// The files of one part of a check split by file (`validate --shard K/N`): those whose
    /// name hashes to it, so that every file is in exactly one part.
    package func part(_ shard: Shard) -> StatementFiles {
        StatementFiles(
            entries: entries.filter {
                switch $0.entry {
                case .file(let found): shard.contains(file: found.name)
                case .problem(let path, _, _): shard.contains(file: path)
                case .badProfile(let found, _): shard.contains(file: found.name)
                }
            }, input: input, roots: roots)
    }

    /// Finds the files at or below `paths` and loads their profiles.
    ///
    /// - Parameters:
    ///   - profile: a profile for every CSV file, over any folder profile.
    ///   - account: the account of every CSV file that does not name its own (`--account`):
    ///     it stands in a profile that fixes only the account, or that does not say where
    ///     the account comes from; without a profile, each file's layout is sniffed.
    /// - Throws: `ProfileError` when the profile given cannot be read or is invalid, or a
    ///   profile already says where the account comes from when `account` is given. A
    ///   folder's own profile that cannot be used rejects the files it applies to
    ///   (`Entry.badProfile`), not the run.
    ///   - currency: the currency of that account (`--currency`), where the file names none.
    ///   - standardInputName: the name standard input (`-`) is shown by.
    package static func find(
        _ paths: [String], profile: String? = nil, account: AccountID? = nil,
        currency: Currency? = nil, standardInputName: String? = nil
    ) throws(ProfileError) -> StatementFiles {
        var loaded: [String: (dialect: Dialect, checksum: Checksum)] = [:]
        var failed: [String: ProfileError] = [:]
        func dialect(_ path: String?) throws(ProfileError) -> Dialect? {
            guard let path else { return nil }
            if let known = loaded[path] { return known.dialect }
            let bytes: [UInt8]
            do {
                let source = try FileByteSource(path: path)
                // A profile is a few hundred bytes; a larger file is not one.
                guard try source.size() <= Self.maximumProfileSize else {
                    throw FileReadError(
                        reason: "it is larger than \(Self.maximumProfileSize.counted("byte"))")
                }
                bytes = try source.readAll()
            } catch {
                var failure = ProfileError(path: path, message: "cannot read it: \(error)")
                failure.isUnreadable = true
                throw failure
            }
            let dialect = try Dialect(profile: bytes, path: path)
            loaded[path] = (dialect, .of(bytes))
            return dialect
        }
        var entries: [(FileFinder.Entry, Dialect?, Checksum)] = []
        let input =
            paths.contains("-")
            ? StandardInput(name: standardInputName ?? FileFinder.standardInputName) : nil
        for entry in FileFinder.entries(for: paths, input: input) {
            guard case .file(let found) = entry else {
                entries.append((entry, nil, .empty))
                continue
            }
            let path = profile ?? found.profile
            var chosen: Dialect?
            if profile == nil, let path, let failure = failed[path] {
                entries.append((.badProfile(found, failure), nil, .empty))
                continue
            }
            do throws(ProfileError) {
                chosen = try dialect(path)
            } catch {
                guard profile == nil else { throw error }
                failed[path!] = error
                entries.append((.badProfile(found, error), nil, .empty))
                continue
            }
            if let account {
                if var given = chosen, given.sniffsLayout || !given.namesAccount {
                    given.accountID = account
                    given.accountCurrency = currency ?? given.accountCurrency
                    chosen = given
                } else if chosen != nil {
                    throw ProfileError(
                        path: path!,
                        message:
                            "it says where the account comes from; --account \(account.text) cannot replace it"
                    )
                } else {
                    chosen = .sniffing(account: account)
                    chosen?.accountCurrency = currency
                }
            }
            var reading = path.flatMap { loaded[$0]?.checksum } ?? .empty
            if let account { reading.feed([0] + Array(account.text.utf8)) }
            if let currency { reading.feed([0] + Array(currency.code.utf8)) }
            entries.append((entry, chosen, reading))
        }
        return StatementFiles(
            entries: entries, input: input,
            roots: paths.filter { $0 != "-" }.compactMap(POSIXIO.canonicalPath))
    }
}
