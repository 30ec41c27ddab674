import Foundation
import StatementKit

/// The state folder a command works on: `--state`, else `$STATEMENTS_STATE`, else the
/// configuration file's `state`, else `./ledger`.
enum StateFolder {
    static func path(_ options: Arguments, console: Console) -> String {
        options.commandLineValues("state").last
            ?? console.environment["STATEMENTS_STATE"].flatMap { $0.isEmpty ? nil : $0 }
            ?? options.configuredValue("state") ?? "ledger"
    }

    /// The help line of `--wait`, for the commands that take the writer lock.
    static let waitHelp = """
          --wait[=SECONDS]           when another run holds the ledger, wait for it (at
                                     most SECONDS; without a value, as long as it takes)
                                     instead of exiting 3 at once
        """

    /// The storage of the state folder, waiting for the writer lock as `--wait` says.
    static func storage(_ options: Arguments, console: Console) throws(CommandError)
        -> StorageController
    {
        let storage = StorageController(folder: path(options, console: console))
        if options.has("wait") {
            guard let text = options.value("wait") else {
                storage.lockWait = .infinity
                return storage
            }
            guard let seconds = Double(text), seconds.isFinite, seconds >= 0,
                text.allSatisfy({ $0.isNumber || $0 == "." })
            else {
                throw .usage("--wait must be a number of seconds, such as --wait=60, not '\(text)'")
            }
            storage.lockWait = seconds
        }
        return storage
    }

    /// The state folders of a command that only reads ledgers: each `--state` given, else the
    /// default one; a folder that is not there is an error (a mistyped `--state`), never an
    /// empty ledger.
    static func existingAll(_ options: Arguments, console: Console) throws(CommandError)
        -> [String]
    {
        let given = options.commandLineValues("state")
        guard !given.isEmpty else { return [try existing(path(options, console: console))] }
        var folders: [String] = []
        for folder in given { folders.append(try existing(folder)) }
        return folders
    }

    /// A state folder that must be there: empty (a ledger nothing was imported into yet) or
    /// holding a ledger's files, not some other folder given by mistake.
    static func existing(_ path: String) throws(CommandError) -> String {
        var isFolder: ObjCBool = false
        let ledgerNames: Set = ["manifest", "lock", "transactions", "identities", "pending"]
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder),
            isFolder.boolValue,
            let names = try? FileManager.default.contentsOfDirectory(atPath: path),
            names.isEmpty || names.contains(where: ledgerNames.contains)
        else {
            throw .environment(
                "no ledger at '\(path)' (give --state DIR, or import statement files first)")
        }
        return path
    }
}
