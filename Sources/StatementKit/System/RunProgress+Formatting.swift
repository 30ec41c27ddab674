extension RunProgress {
    /// One line for a terminal, such as `reading 3 of 61 files · 412,000 rows · 180,000 rows/s`.
    ///
    /// - Parameter milliseconds: the time the run has taken so far, for the rate.
    package func text(milliseconds: Int) -> String {
        switch phase {
        case .reading:
            var text = "reading \(done.groupedText) of \(total.counted("file"))"
            guard rows > 0 else { return text }
            text += " · \(rows.counted("row"))"
            if milliseconds >= 500 {
                text += " · \((rows * 1000 / milliseconds).groupedText) rows/s"
            }
            return text
        case .saving:
            return "saving the ledger (\(total.counted("account-month")))"
        case .writingReports:
            return "writing reports \(done.groupedText) of \(total.counted("file"))"
        }
    }
}
