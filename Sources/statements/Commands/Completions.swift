import StatementKit

/// `statements completions SHELL`: the shell completion script, generated from the help.
enum Completions: Command {
    static let name = "completions"
    static let summary = "print shell completions (bash, zsh, fish)"

    static let usage = """
        USAGE: statements completions bash|zsh|fish

        Prints the completion script of a shell, generated from the commands' help, on stdout.
        Scripts/install installs them; by hand:
          statements completions bash > ~/.local/share/bash-completion/completions/statements
          statements completions zsh > ~/.zfunc/_statements      # a folder on $fpath
          statements completions fish > ~/.config/fish/completions/statements.fish

        \(helpOnly)
        """

    static func run(_ arguments: [String], console: Console) throws(CommandError) -> Int32 {
        try printText(arguments, console: console, what: "a shell script") {
            options throws(CommandError) in
            guard options.positionals.count == 1,
                let shell = CompletionRenderer.Shell(rawValue: options.positionals[0])
            else {
                throw .usage("give one shell: bash, zsh or fish")
            }
            return CompletionRenderer(program: "statements", commands: Statements.commandHelp)
                .render(shell)
        }
    }

}

/// The options and exit status of a command that prints what it generates and takes no
/// option but `--help`.
private let helpOnly = """
    OPTIONS:
      -h, --help  show this help

    EXIT STATUS: 0 success, 2 usage error.
    """

/// `statements man`: the manual page, generated from the help.
enum Manual: Command {
    static let name = "man"
    static let summary = "print the manual page (roff)"

    static let usage = """
        USAGE: statements man

        Prints the manual page, generated from the commands' help, as roff on stdout:
        statements man > statements.1 && man -l statements.1. Scripts/install installs it.

        \(helpOnly)
        """

    static func run(_ arguments: [String], console: Console) throws(CommandError) -> Int32 {
        try printText(arguments, console: console, what: "a manual page (roff)") {
            options throws(CommandError) in
            try options.expectNoPaths(name)
            return ManPageRenderer(
                program: "statements", version: Statements.version,
                summary: Statements.tagline, commands: Statements.commandHelp
            ).render()
        }
    }
}

extension Command {
    /// Prints the text `render` makes of the command's arguments (which take no options);
    /// refuses `-f json`, as the text is `what`, not JSON.
    static func printText(
        _ arguments: [String], console: Console, what: String,
        _ render: (Arguments) throws(CommandError) -> String
    ) throws(CommandError) -> Int32 {
        if ErrorDocument.isRequested(by: arguments) {
            throw .usage("\(name) prints \(what), not JSON: it takes no -f json")
        }
        let options = try Arguments(arguments, valueOptions: [], flagOptions: [], console: console)
        var standardOutput = console.output
        standardOutput.write(try render(options))
        return ExitCode.success
    }
}
