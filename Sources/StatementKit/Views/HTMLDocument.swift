import Foundation

/// The shared frame of the HTML reports: one self-contained page, inline CSS, no scripts and
/// no external requests, readable on a phone and printable on A4.
enum HTMLDocument {
    static let style = """
        :root{color-scheme:light}
        body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif;color:#1b1b1b;
        margin:0 auto;max-width:60rem;padding:1rem;line-height:1.4}
        h1{font-size:1.4rem;margin:.2rem 0}
        dl{display:grid;grid-template-columns:max-content 1fr;gap:.15rem 1rem;margin:.5rem 0 1rem}
        dt{color:#555}dd{margin:0}
        table{border-collapse:collapse;width:100%;font-size:.92rem}
        th,td{padding:.3rem .45rem;border-bottom:1px solid #ddd;text-align:left;vertical-align:top}
        th{border-bottom:2px solid #999}
        .num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
        td:first-child{white-space:nowrap}
        .neg{color:#a3001b}
        .iban{font-family:ui-monospace,Menlo,Consolas,monospace;white-space:nowrap}
        figure{margin:0 0 1rem}svg{width:100%;height:auto;max-height:16rem}
        footer{margin-top:1rem;color:#333}
        @media (max-width:40rem){.description,.reference{display:none}body{padding:.5rem}}
        @media print{@page{size:A4;margin:14mm}body{max-width:none;padding:0;font-size:10pt}
        a{color:inherit;text-decoration:none}tr{break-inside:avoid}}
        """

    /// A complete page.
    static func page(title: String, locale: Locale, body: String) -> String {
        let language = escape(locale.language.languageCode?.identifier ?? "en")
        return """
            <!DOCTYPE html>
            <html lang="\(language)">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(escape(title))</title>
            <style>
            \(style)
            </style>
            </head>
            <body>
            \(body)
            </body>
            </html>

            """
    }

    /// Text made safe for HTML content and attribute values, with controls neutralised.
    static func escape(_ text: String) -> String {
        let special: Set<UInt8> = [
            UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\""),
            UInt8(ascii: "'"),
        ]
        if !text.utf8.contains(where: special.contains) && text.isNeutral { return text }
        var out = ""
        for character in text.neutralized {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }

    /// A money cell, marked when negative.
    static func moneyCell(_ money: Money, _ format: MoneyFormat) -> String {
        let negative = money.minorUnits < 0 ? " neg" : ""
        return "<td class=\"num\(negative)\">\(escape(format.format(money)))</td>"
    }
}
