import Foundation

/// The state folder a command works on: `--state`, else `$STATEMENTS_STATE`, else `./ledger`.
enum StateFolder {
    static func path(_ options: Arguments) -> String {
        options.value("state") ?? ProcessInfo.processInfo.environment["STATEMENTS_STATE"]
            ?? "ledger"
    }
}
