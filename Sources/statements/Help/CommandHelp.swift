/// One command's help text, read into what shell completions and the man page need: its
/// name, summary, synopsis, options and their values. The help text is the one source; the
/// completions and the man page are generated from it.
package struct CommandHelp: Hashable, Sendable {
    /// One option of a command, as its help lists it.
    package struct Option: Hashable, Sendable {
        /// The long name without dashes, such as `format`.
        package let long: String
        /// The one-letter form, such as `f`, if there is one.
        package let short: Character?
        /// The name of its value (`DIR`, `FILE`, `N`, `text|json`), or `nil` for a flag.
        package let value: String?
        /// The values it takes when they are a fixed list, such as `text`, `json`.
        package let choices: [String]
        /// The first line of its description.
        package let summary: String

        /// How it is written on a command line: `-f` (if it has one) and `--format`.
        package var spellings: [String] {
            (short.map { ["-\($0)"] } ?? []) + ["--" + long]
        }
    }

    package let name: String
    package let summary: String
    /// The whole help text.
    package let usage: String
    package let options: [Option]
    /// Whether the command takes paths (`PATH...` or `FILE`) as arguments.
    package let takesPaths: Bool

    /// Reads a command's help: the `OPTIONS:` lines (`  -f, --format VALUE   description`,
    /// `--from/--to YYYY-MM`), with the choices of a value from the option line or from the
    /// synopsis (`[-f text|json|github]`).
    package init(name: String, summary: String, usage: String) {
        self.name = name
        self.summary = summary
        self.usage = usage
        let sections = usage.components(separatedBy: "\n\n")
        let synopsis = sections.first ?? ""
        takesPaths = synopsis.contains("PATH") || synopsis.contains(" FILE")
        var synopsisChoices: [String: [String]] = [:]
        let words = synopsis.split(whereSeparator: { " []\n".contains($0) }).map(String.init)
        for (word, next) in zip(words, words.dropFirst())
        where word.hasPrefix("-") && next.contains("|") && !next.hasPrefix("-") {
            synopsisChoices[word] = next.split(separator: "|").map(String.init)
        }
        var options: [Option] = []
        var inOptions = false
        for line in usage.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("OPTIONS:") {
                inOptions = true
                continue
            }
            guard inOptions else { continue }
            guard line.hasPrefix(" ") else {
                if !line.isEmpty { inOptions = false }
                continue
            }
            let trimmed = line.drop { $0 == " " }
            guard trimmed.hasPrefix("-"), let gap = trimmed.firstRange(of: "  ") else { continue }
            let spec = trimmed[..<gap.lowerBound].split(separator: " ").map(String.init)
            let description = trimmed[gap.upperBound...].drop { $0 == " " }
            let names = spec[0].hasSuffix(",") ? [String(spec[0].dropLast()), spec[1]] : [spec[0]]
            let value = spec.count > names.count ? spec.last : nil
            let short = names.first { !$0.hasPrefix("--") }.flatMap { $0.dropFirst().first }
            for long in names.last!.split(separator: "/") {
                // `--wait[=SECONDS]`: an optional value, completed as a flag.
                let longName = String(long.drop { $0 == "-" }.prefix { $0 != "[" })
                let choices =
                    value.map { $0.contains("|") ? $0.split(separator: "|").map(String.init) : [] }
                    ?? []
                options.append(
                    Option(
                        long: longName, short: short, value: value,
                        choices: choices.isEmpty
                            ? synopsisChoices["--" + longName]
                                ?? short.flatMap { synopsisChoices["-\($0)"] } ?? [] : choices,
                        summary: String(description)))
            }
        }
        // The options every command takes (`Arguments.commonValueOptions` and
        // `commonFlagOptions`), which the top-level help describes once: offered by every
        // command's completions too.
        for common in Self.commonOptions where !options.contains(where: { $0.long == common.long })
        {
            options.append(common)
        }
        self.options = options
    }

    /// The options every command takes, as completions offer them.
    static let commonOptions = [
        Option(
            long: "color", short: nil, value: "auto|always|never",
            choices: ["auto", "always", "never"], summary: "colour diagnostics"),
        Option(
            long: "config", short: nil, value: "FILE", choices: [],
            summary: "read settings from this configuration file"),
        Option(
            long: "no-config", short: nil, value: nil, choices: [],
            summary: "read no configuration file"),
    ]
}
