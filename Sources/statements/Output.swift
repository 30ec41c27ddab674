import Foundation
import StatementKit

/// How a command talks to the person running it: how much it says (`-q`, `-v`), whether in
/// colour (`--color`, `NO_COLOR`, a terminal), and whether it shows progress (a terminal).
struct Output {
    /// The options every command that reads files takes.
    static let flagOptions: Set = ["quiet", "verbose"]
    static let valueOptions: Set = ["color"]

    /// When to colour: `auto` on a terminal unless `NO_COLOR` is set.
    enum ColorChoice: String, CaseIterable {
        case auto, always, never
    }

    let verbosity: Verbosity
    let style: TextStyle
    /// Whether progress is drawn on stderr: a terminal, and not quiet.
    let showsProgress: Bool

    init(_ options: Arguments, console: Console) throws(CommandError) {
        if options.has("quiet") && options.has("verbose") {
            throw .usage("give --quiet or --verbose, not both")
        }
        verbosity = options.has("quiet") ? .quiet : options.has("verbose") ? .verbose : .normal
        let choice = try options.choice("color", default: ColorChoice.auto)
        let noColor = !(console.environment["NO_COLOR"] ?? "").isEmpty
        let dumb = console.environment["TERM"] == "dumb"
        let colored =
            switch choice {
            case .always: true
            case .never: false
            case .auto: console.errorIsTerminal && !noColor && !dumb
            }
        style = TextStyle(isColored: colored)
        showsProgress = console.errorIsTerminal && verbosity > .quiet && !dumb
    }

    /// A progress display on stderr, or `nil` when progress is not shown.
    func progress(_ console: Console) -> ProgressDisplay? {
        showsProgress ? ProgressDisplay(console.error) : nil
    }
}

/// Draws a run's progress on one line of a terminal, redrawn at most ten times a second
/// (and at each new phase), and erased when the run is done.
final class ProgressDisplay: @unchecked Sendable {
    // @unchecked: every mutable property is touched under `lock` only.
    private let lock = NSLock()
    private var stream: StandardStream
    private let start = ContinuousClock.now
    private var lastDraw: ContinuousClock.Instant?
    private var lastPhase: RunProgress.Phase?
    private var isDrawn = false

    init(_ stream: StandardStream) {
        self.stream = stream
    }

    /// The handler controllers call.
    var handler: ProgressHandler { { [self] in update($0) } }

    func update(_ progress: RunProgress) {
        lock.withLock {
            let now = ContinuousClock.now
            if progress.phase == lastPhase, let lastDraw, now - lastDraw < .milliseconds(100) {
                return
            }
            (lastDraw, lastPhase) = (now, progress.phase)
            let elapsed = (now - start).components
            let milliseconds =
                Int(elapsed.seconds) * 1000 + Int(elapsed.attoseconds / 1_000_000_000_000_000)
            let text = String(progress.text(milliseconds: milliseconds).prefix(stream.columns - 1))
            stream.write("\r\u{1B}[K" + text)
            isDrawn = true
        }
    }

    /// Erases the line, so that what the command prints next starts on a clean one.
    func finish() {
        lock.withLock {
            if isDrawn { stream.write("\r\u{1B}[K") }
            isDrawn = false
        }
    }
}
