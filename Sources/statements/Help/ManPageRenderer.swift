/// Writes the manual page (roff, `man 1`) from the same help texts as `--help`.
package struct ManPageRenderer: Sendable {
    package let program: String
    package let version: String
    /// One line: what the program does.
    package let summary: String
    package let commands: [CommandHelp]

    /// Creates a renderer.
    package init(program: String, version: String, summary: String, commands: [CommandHelp]) {
        self.program = program
        self.version = version
        self.summary = summary
        self.commands = commands
    }

    /// The page: name, synopsis, the commands, then each command's help as it prints it.
    package func render() -> String {
        var out = ".TH \(program.uppercased()) 1 \"\" \"\(program) \(version)\" \"User Commands\"\n"
        out += ".SH NAME\n\(program) \\- \(Self.escaped(summary))\n"
        out += ".SH SYNOPSIS\n.B \(program)\n.I command\n[options] [PATH...]\n"
        out += ".SH COMMANDS\n"
        for command in commands {
            out += ".TP\n.B \(command.name)\n\(Self.escaped(command.summary))\n"
        }
        for command in commands {
            out += ".SH \"\(program.uppercased()) \(command.name.uppercased())\"\n.nf\n"
            for line in command.usage.split(separator: "\n", omittingEmptySubsequences: false) {
                out += Self.escaped(String(line)) + "\n"
            }
            out += ".fi\n"
        }
        out += """
            .SH ENVIRONMENT
            .TP
            .B STATEMENTS_STATE
            the ledger folder when no \\-\\-state is given (else ./ledger)
            .TP
            .B NO_COLOR
            when set and not empty, diagnostics are not coloured (unless \\-\\-color always)
            .SH EXIT STATUS
            0 success; 1 the data had errors (a file was rejected); 2 usage error; 3 a path, the
            ledger or an output folder could not be used.

            """
        return out
    }

    /// Text safe in roff: backslashes written as `\e`, dashes as `\-`, other than ASCII as
    /// `\[uXXXX]`, and a line that would start with a request character (`.` or `'`)
    /// guarded with `\&`.
    static func escaped(_ text: String) -> String {
        let body = text.replacingScalars { scalar in
            switch scalar {
            case "\\": "\\e"
            case "-": "\\-"
            case _ where scalar.value > 0x7E:
                "\\[u" + String(hex: scalar.value, digits: 4, uppercase: true) + "]"
            default: nil
            }
        }
        return body.hasPrefix(".") || body.hasPrefix("'") ? "\\&" + body : body
    }
}
