import Foundation
import StatementKit

/// The settings of a configuration file, as option values below the command line's.
///
/// The file is `--config FILE`, else `$STATEMENTS_CONFIG`, else the first
/// `.statements.json` in the current folder or a parent (as git finds `.git`), else
/// `$XDG_CONFIG_HOME/statements/config.json` (`~/.config/…` when unset); `--no-config`
/// reads none. Paths in it are relative to its folder. Precedence: the command line, then
/// `$STATEMENTS_STATE`, then the file, then the defaults (the locale's from `LC_ALL`,
/// `LC_MONETARY`, `LANG`).
struct Configuration {
    /// The kind of value a key takes, and the option it stands for.
    enum Setting {
        /// A path, relative to the file's folder.
        case path(String)
        case text(String)
        /// One value, or several (a list, or a text of values separated by commas).
        case list(String)
        case number(String)
        case flag(String)

        var option: String {
            switch self {
            case .path(let option), .text(let option), .list(let option), .number(let option),
                .flag(let option):
                option
            }
        }
    }

    /// Every key of the file, by name.
    static let settings: [String: Setting] = [
        "state": .path("state"), "out": .path("out"), "archive": .path("archive"),
        "profile": .path("profile"), "locale": .text("locale"), "color": .text("color"),
        "reportFormats": .list("report-format"), "jobs": .number("jobs"),
        "maxDiagnostics": .number("max-diagnostics"), "strict": .flag("strict"),
    ]

    /// The file's name in a project folder.
    static let projectName = ".statements.json"

    /// Where the settings come from.
    let path: String
    /// The options' values, by long option name.
    private(set) var values: [String: [String]] = [:]
    /// The flags the file turns on.
    private(set) var flags: Set<String> = []

    /// The file that applies, if any: given, named by the environment, or found.
    static func locate(given: String?, environment: [String: String], folder: String?)
        -> String?
    {
        if let given { return given }
        if let named = environment["STATEMENTS_CONFIG"], !named.isEmpty { return named }
        if let folder {
            var current = URL(fileURLWithPath: folder).standardizedFileURL
            while true {
                let candidate = current.appendingPathComponent(projectName).path
                if FileManager.default.fileExists(atPath: candidate) { return candidate }
                let parent = current.deletingLastPathComponent()
                if parent.path == current.path { break }
                current = parent
            }
        }
        let base =
            environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? environment["HOME"].map { $0 + "/.config" }
        guard let base else { return nil }
        let user = base + "/statements/config.json"
        return FileManager.default.fileExists(atPath: user) ? user : nil
    }

    /// Reads and checks the file at `path`.
    ///
    /// - Throws: an environment error when it cannot be read; a usage error, at the line and
    ///   column of the key or value, for invalid JSON, an unknown key (with the nearest
    ///   known one) or a value of the wrong kind.
    init(path: String) throws(CommandError) {
        self.path = path
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .environment("cannot read the configuration file '\(path)'")
        }
        let file: ConfigurationFile
        do throws(ConfigurationFile.Problem) {
            file = try ConfigurationFile(parsing: [UInt8](data))
        } catch {
            throw .configuration(
                "\(Diagnostic.sanitized(path)):\(error.line):\(error.column): \(error.message)")
        }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        for entry in file.entries {
            let place = "\(Diagnostic.sanitized(path)):\(entry.line):\(entry.column)"
            guard let setting = Self.settings[entry.key] else {
                let hint = Suggestion.hint(for: entry.key, among: Self.settings.keys.sorted())
                throw .configuration(
                    "\(place): unknown key \"\(entry.key)\"\(hint) (known: \(Self.settings.keys.sorted().joined(separator: ", ")))"
                )
            }
            try apply(entry, as: setting, folder: folder, place: place)
        }
    }

    private mutating func apply(
        _ entry: ConfigurationFile.Entry, as setting: Setting, folder: URL, place: String
    ) throws(CommandError) {
        func wrong(_ kind: String) -> CommandError {
            .configuration("\(place): \"\(entry.key)\" must be \(kind)")
        }
        switch (setting, entry.value) {
        case (.path(let option), .string(let text)):
            let isAbsolute = text.hasPrefix("/") || text.hasPrefix("~")
            let expanded = (text as NSString).expandingTildeInPath
            values[option] = [isAbsolute ? expanded : folder.appendingPathComponent(text).path]
        case (.text(let option), .string(let text)):
            values[option] = [text]
        case (.list(let option), .string(let text)):
            values[option] = [text]
        case (.list(let option), .strings(let texts)):
            values[option] = texts
        case (.number(let option), .number(let text)):
            values[option] = [text]
        case (.flag(let option), .bool(let isOn)):
            if isOn { flags.insert(option) }
        case (.path, _), (.text, _): throw wrong("a string")
        case (.list, _): throw wrong("a string or a list of strings")
        case (.number, _): throw wrong("a number")
        case (.flag, _): throw wrong("true or false")
        }
    }
}
