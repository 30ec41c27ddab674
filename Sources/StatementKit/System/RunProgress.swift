/// How far a long run has got: what a progress display shows.
package struct RunProgress: Hashable, Sendable {
    /// What the run is doing.
    package enum Phase: String, Hashable, Sendable {
        /// Reading (and for `import`, staging) statement files.
        case reading
        /// Committing the ledger.
        case saving
        /// Rendering and writing report files.
        case writingReports = "writing reports"
    }

    package var phase: Phase
    /// The files done: statement files read, or report files written.
    package var done: Int
    /// The files of the phase in all.
    package var total: Int
    /// The transaction rows read so far (reading only).
    package var rows: Int

    /// Creates a progress value.
    package init(phase: Phase, done: Int, total: Int, rows: Int = 0) {
        self.phase = phase
        self.done = done
        self.total = total
        self.rows = rows
    }
}

/// Told of a run's progress, from any thread; it must return quickly.
package typealias ProgressHandler = @Sendable (RunProgress) -> Void
