import StatementKit

/// What a command that was asked for JSON (`-f json`) prints on stdout when it stops with a
/// usage or environment error (exit 2 or 3): one JSON object, so that a script that parses
/// stdout always gets a document.
///
/// ```json
/// {"code": "USAGE", "message": "unknown option '--bogus'", "exitStatus": 2}
/// ```
enum ErrorDocument {
    /// Whether the command line asks for JSON output: `--format json`, `--format=json`,
    /// `-f json`, `-fjson`, or `-f` at the end of a word of short options (`-qf json`).
    ///
    /// The words are read before the command parses them, so that a command line it refuses
    /// still gets its answer in JSON.
    static func isRequested(by arguments: [String]) -> Bool {
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            index += 1
            if word == "--" { return false }
            let next = index < arguments.count ? arguments[index] : nil
            if word == "--format=json" || (word == "--format" && next == "json") {
                return true
            }
            guard word.hasPrefix("-"), !word.hasPrefix("--"),
                let position = word.firstIndex(of: "f")
            else { continue }
            let rest = word[word.index(after: position)...]
            if rest == "json" || (rest.isEmpty && next == "json") { return true }
        }
        return false
    }

    /// The object for an error, without a final newline.
    static func json(_ error: CommandError) -> String {
        let code =
            switch error {
            case .usage: "USAGE"
            case .environment: "ENVIRONMENT"
            case .configuration: "CONFIGURATION"
            }
        return
            "{\"code\": \"\(code)\", \"message\": \(jsonString(error.description)), \"exitStatus\": \(error.exitCode)}"
    }
}
