@testable import StatementKit

extension LedgerManifest {
    /// The manifest's body as format 6 wrote it, without its end line: every account's
    /// record in it (no pages), so that tests can make the manifests of earlier formats.
    var format6Lines: [String] {
        var head: [String] = []
        var files: [String] = []
        for line in encoded.split(separator: "\n").dropLast() {
            if line.hasPrefix("statements-ledger ") {
                head.append("statements-ledger 6")
            } else if line.hasPrefix("months\t") {
                head.append(line.split(separator: "\t").dropLast().joined(separator: "\t"))
            } else if line.hasPrefix("file\t") {
                files.append(String(line))
            } else if !line.hasPrefix("page\t") && !line.hasPrefix("unbalanced\t") {
                head.append(String(line))
            }
        }
        let page = LedgerManifest.page(of: Array(accounts.keys), in: accounts)
        let records = String(decoding: page, as: UTF8.self).split(separator: "\n").map {
            // Without format 7's totals.
            $0.split(separator: "\t", omittingEmptySubsequences: false).dropLast()
                .joined(separator: "\t")
        }
        return head + records + files
    }
}
