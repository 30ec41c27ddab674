import Foundation

/// The shared frame of the HTML reports: one self-contained page, inline CSS, no scripts and
/// no external requests, readable on a phone (nothing scrolls sideways from 320 px: on narrow
/// screens each transaction of a statement is a small block, date and amount on its first
/// line, beneficiary and balance on the second, description and reference below, so no column
/// is cut and words break only where the script allows; a word breaks inside only when it is
/// wider than the screen; the grid of all months scrolls in its own box, its accounts' column
/// in place) and printable on A4 (the account and period repeated on every page).
enum HTMLDocument {
    static let style = """
        :root{color-scheme:light}
        body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif;color:#1b1b1b;
        margin:0 auto;max-width:64rem;padding:1rem;line-height:1.4;overflow-wrap:break-word}
        h1{font-size:1.4rem;margin:.2rem 0}
        nav{font-size:.9rem;display:flex;flex-wrap:wrap;gap:.3rem 1.2rem}
        dl{display:grid;grid-template-columns:max-content 1fr;gap:.15rem 1rem;margin:.5rem 0 1rem}
        dt{color:#555}dd{margin:0}
        table{border-collapse:collapse;width:100%;font-size:.92rem}
        th,td{padding:.3rem .45rem;border-bottom:1px solid #ddd;text-align:left;vertical-align:top}
        th{border-bottom:2px solid #999;overflow-wrap:normal}.files{white-space:nowrap}
        .num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap;overflow-wrap:normal}
        .date,.reference,.nobr{white-space:nowrap;overflow-wrap:normal}
        .neg,.neg a{color:#a3001b}
        .iban{font-family:ui-monospace,Menlo,Consolas,monospace;white-space:nowrap;overflow-wrap:normal}
        .sub{display:block;color:#555;font-size:.85rem}
        figure{margin:0 0 1rem}svg{width:100%;height:auto;max-height:17rem}
        footer{margin-top:1rem;color:#333}
        .grid{overflow-x:auto}.months{width:auto}caption{text-align:left;color:#555;padding:.2rem 0}
        .months td,.months thead th{white-space:nowrap;overflow-wrap:normal}
        .months .account{position:sticky;left:0;background:#fff;min-width:9rem}
        .months tbody th{font-weight:normal;border-bottom:1px solid #ddd}
        .print-only{display:none}.chart-narrow{display:none}
        @media (max-width:40rem){.chart-wide{display:none}dl{grid-template-columns:minmax(0,1fr)}dd{margin-bottom:.25rem}
        .chart-narrow{display:block}body{padding:.5rem}
        th,td{padding:.3rem .25rem}table{font-size:.85rem}.iban{white-space:normal}
        .entries tr{display:grid;grid-template-columns:minmax(0,1fr) auto;column-gap:.6rem;
        border-bottom:1px solid #ddd;padding:.25rem 0}.entries th,.entries td{display:block;border:0;padding:0}
        .entries tr>:nth-child(1){grid-area:1/1}.entries tr>:nth-child(2){grid-area:2/1}
        .entries tr>:nth-child(3){grid-area:3/1/4/3}.entries tr>.reference{grid-area:4/1/5/3;white-space:normal}
        .entries tr>:nth-last-child(2){grid-area:1/2}.entries tr>:nth-last-child(1){grid-area:2/2;color:#555}
        .entries thead tr{border-bottom:2px solid #999}.entries td:empty{display:none}
        .entries .print-only{display:none}
        .accounts tr{display:grid;grid-template-columns:minmax(0,1fr) auto;column-gap:.6rem;
        border-bottom:1px solid #ddd;padding:.25rem 0}.accounts th,.accounts td{display:block;border:0;padding:0}
        .accounts tr>:nth-child(1){grid-area:1/1/3/2}.accounts tr>:nth-child(3){grid-area:2/2;text-align:right}
        .accounts thead tr{border-bottom:2px solid #999}}
        @media print{@page{size:A4;margin:14mm}body{max-width:none;padding:0;font-size:10pt}
        nav{display:none}.print-only{display:table-row}thead{display:table-header-group}
        a{color:inherit;text-decoration:none}tr{break-inside:avoid}}
        """

    /// A complete page whose labels are in `language` (an ISO 639 code, for `lang`).
    static func page(title: String, language: String, body: String) -> String {
        var bytes: [UInt8] = []
        appendPageHead(title: title, language: language, to: &bytes)
        bytes.append(utf8: body)
        bytes.append(utf8: pageTail)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends a page up to its body's content: that, the body, then `pageTail` make `page`.
    static func appendPageHead(title: String, language: String, to out: inout [UInt8]) {
        out.append("<!DOCTYPE html>\n<html lang=\"")
        appendEscaped(language, to: &out)
        out.append("\">\n<head>\n<meta charset=\"utf-8\">\n")
        out.append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
        out.append("<title>")
        appendEscaped(title, to: &out)
        out += headEnd
    }

    /// The end of every page's head, with its style, made once.
    private static let headEnd = Array(
        "</title>\n<style>\n\(style)\n</style>\n</head>\n<body>\n".utf8)

    /// What follows a page's body content.
    static let pageTail = "\n</body>\n</html>\n"

    /// Text made safe for HTML content and attribute values, with controls neutralised.
    static func escape(_ text: String) -> String {
        if isPlain(text) { return text }
        return text.neutralized.replacingScalars { scalar in
            switch scalar {
            case "&": "&amp;"
            case "<": "&lt;"
            case ">": "&gt;"
            case "\"": "&quot;"
            case "'": "&#39;"
            default: nil
            }
        }
    }

    /// Appends `escape(text)`: most texts as they are, without making another string.
    static func appendEscaped(_ text: String, to out: inout [UInt8]) {
        out.append(utf8: isPlain(text) ? text : escape(text))
    }

    /// Whether `escape` leaves the text as it is: no special character, nothing
    /// `String.neutralized` would change. Printable ASCII is decided in one plain pass.
    private static func isPlain(_ text: String) -> Bool {
        text.isPrintableASCII(avoiding: isSpecial) || text.withUTF8Bytes(isPlain(utf8:))
    }

    /// Whether `escape` leaves UTF-8 text as it is.
    private static func isPlain(utf8: Span<UInt8>) -> Bool {
        String.isNeutral(utf8: utf8, avoiding: isSpecial)
    }

    /// Whether a byte must be written as an entity.
    private static func isSpecial(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\""),
            UInt8(ascii: "'"):
            true
        default: false
        }
    }

    /// A money cell, marked when negative.
    static func moneyCell(_ money: Money, _ format: MoneyFormat) -> String {
        var out: [UInt8] = []
        appendMoneyCell(money, format, isPlain: false, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether the amounts of a format never need escaping: its fixed texts hold no special
    /// character and nothing `String.neutralized` would change. Worked out once per
    /// statement, not per amount.
    static func writesPlainText(_ format: MoneyFormat) -> Bool {
        format.fixedTexts?.allSatisfy(isPlain) ?? false
    }

    /// Appends `moneyCell(money, format)`; `isPlain` is `writesPlainText(format)`.
    static func appendMoneyCell(
        _ money: Money, _ format: MoneyFormat, isPlain: Bool, to out: inout [UInt8]
    ) {
        out.append(money.minorUnits < 0 ? "<td class=\"num neg\">" : "<td class=\"num\">")
        let start = out.count
        format.append(money, to: &out)
        // Amounts hold nothing to escape, unless a locale's signs do. (Looked at through a
        // span: a slice of `out` kept alive would make the next append copy all of it.)
        if !isPlain && !Self.isPlain(utf8: out.span.extracting(start...)) {
            let text = String(decoding: out[start...], as: UTF8.self)
            out.removeSubrange(start...)
            out.append(utf8: escape(text))
        }
        out.append("</td>")
    }

    /// An account id for a page: escaped, grouped by four when an IBAN (breakable between
    /// groups, a short last group kept with the one before it: never a lone `00` on a line),
    /// breakable after the `:` and `/` of another scheme (`aba:<wbr>121000248/<wbr>…`) rather
    /// than inside its digits on a narrow screen, and never at a hyphen inside one of its
    /// parts (`sort-code:`, `000312345-98765-43`).
    static func accountID(_ id: AccountID) -> String {
        if let iban = id.iban {
            var groups = iban.grouped.split(separator: " ").map(String.init)
            if groups.count > 1, groups[groups.count - 1].count < 4 {
                let last = groups.removeLast()
                groups[groups.count - 1] =
                    "<span class=\"nobr\">\(groups[groups.count - 1]) \(last)</span>"
            }
            return groups.joined(separator: " ")
        }
        var out = ""
        var piece = ""
        func appendPiece() {
            guard !piece.isEmpty else { return }
            out +=
                piece.contains("-")
                ? "<span class=\"nobr\">\(escape(piece))</span>" : escape(piece)
            piece = ""
        }
        for character in id.grouped {
            piece.append(character)
            if character == ":" || character == "/" {
                appendPiece()
                out += "<wbr>"
            }
        }
        appendPiece()
        return out
    }

    /// What a page calls an account, in the same style whether named or not: the name, or
    /// the id as `accountID` writes it, marked `id` (`DE89 3704 0044 0532 0130 00`).
    static func accountLabel(name: String?, id: AccountID) -> String {
        name.map(heading) ?? "<span class=\"id\">\(accountID(id))</span>"
    }

    /// A column heading: escaped, and breakable after a `/` only (`Empfänger/Auftraggeber`),
    /// never inside a word.
    static func heading(_ text: String) -> String {
        escape(text).replacingOccurrences(of: "/", with: "/<wbr>")
    }

    /// An amount in running text, never broken across lines (the minus stays with its
    /// number), marked when negative.
    static func amount(_ money: Money, _ format: MoneyFormat) -> String {
        let negative = money.minorUnits < 0 ? " neg" : ""
        return "<span class=\"num\(negative)\">\(escape(format.format(money)))</span>"
    }
}
