import Foundation

/// The state folder a command works on: `--state`, else `$STATEMENTS_STATE`, else `./ledger`.
enum StateFolder {
    static func path(_ options: Arguments, console: Console) -> String {
        options.value("state") ?? console.environment["STATEMENTS_STATE"] ?? "ledger"
    }

    /// The state folder of a command that only reads the ledger: a folder that is not there
    /// is an error (a mistyped `--state`), never an empty ledger.
    static func existing(_ options: Arguments, console: Console) throws(CommandError) -> String {
        let path = path(options, console: console)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder),
            isFolder.boolValue
        else {
            throw .environment(
                "no ledger at '\(path)' (give --state DIR, or import statement files first)")
        }
        return path
    }
}
