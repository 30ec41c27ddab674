import Testing

@testable import StatementKit

struct DiagnosticTests {
    @Test func `quotes input with control, bidi and escape characters made visible`() {
        #expect(
            Diagnostic.quote("a\u{1B}[31mred\u{202E}\"\\\n") == #""a\u{1B}[31mred\u{202E}\"\\\n""#)
    }

    @Test func `cuts long input`() {
        let quoted = Diagnostic.quote(String(repeating: "x", count: 1000))
        #expect(quoted == "\"" + String(repeating: "x", count: 64) + "…\"")
    }

    @Test func `cuts long raw bytes without decoding them all`() {
        let bytes = [UInt8](repeating: UInt8(ascii: "y"), count: 30_000_000)
        let quoted = Diagnostic.quote(bytes: bytes.span)
        #expect(quoted == "\"" + String(repeating: "y", count: 64) + "…\"")
    }

    @Test func `counts every diagnostic but keeps only the limit`() {
        var collector = DiagnosticCollector(file: "f", limit: 2)
        for _ in 0..<5 { collector.report(.noDateInKnownLayout, line: 1, column: 1) }
        collector.report(.ignoringKey("k", in: "statement"), line: 1, column: 1)
        #expect(collector.diagnostics.count == 2)
        #expect(collector.errorCount == 5)
        #expect(collector.warningCount == 1)
        #expect(collector.omittedCount == 4)
    }

    @Test func `raises warnings to errors under strict`() {
        var collector = DiagnosticCollector(file: "f", isStrict: true)
        collector.report(.nationalCheck("iban", "\"x\""), line: 1, column: 1)
        #expect(collector.errorCount == 1)
        #expect(collector.diagnostics.first?.severity == .error)
    }
}
