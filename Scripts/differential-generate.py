"""Generators of camt.053, MT940 and OFX statement files for Scripts/differential.

Written from the formats' published descriptions (ISO 20022 camt.053.001.02/.08 message
definitions, the SWIFT MT940 field specifications, OFX 1.6 (SGML) and 2.2 (XML) section 3.2.9
and 11.4), not from any project's test files. Each generated case knows what it holds: its
statements (account, currency, opening balance, booked entries, closing balance), the legal
variations it was written with, and, when it is deliberately bad, which money field is wrong.

Only the Python standard library is used here; the oracles live in differential.py.
"""

import random
from dataclasses import dataclass, field

DIGITS = {"EUR": 2, "USD": 2, "GBP": 2, "CHF": 2, "CAD": 2, "JPY": 0, "BHD": 3}


def iban_de(account_number: int) -> str:
    """A German IBAN with valid ISO 7064 check digits for bank code 37040044."""
    bban = "37040044" + "%010d" % account_number
    check = 98 - int(bban + "131400") % 97
    return "DE%02d%s" % (check, bban)


def money_text(minor: int, digits: int, style: str = "full", radix: str = ".") -> str:
    """The magnitude of an amount in minor units as text: `full` (all decimals), `int`,
    `onedec`, or `lexical` (leading zero, or a trailing radix), with the given radix."""
    value = abs(minor)
    whole, frac = divmod(value, 10**digits) if digits else (value, 0)
    frac_text = ("%0*d" % (digits, frac)) if digits else ""
    if style == "int" and frac == 0:
        return str(whole)
    if style == "onedec" and digits >= 2 and frac % 10 ** (digits - 1) == 0:
        return "%d%s%s" % (whole, radix, frac_text[0])
    if style == "lexical":
        return "0%d%s%s" % (whole, radix, frac_text) if digits else "0%d" % whole
    return "%d%s%s" % (whole, radix, frac_text) if digits else str(whole)


@dataclass
class Entry:
    day: int  # of October 2026
    minor: int  # signed: money in is positive
    txid: str
    name: str
    text: str
    booked: bool = True
    currency: str | None = None  # another currency than the account's (OFX CURRENCY)
    rate: str = "1.0"  # its CURRATE: CURDEF units per CURSYM unit


@dataclass
class Statement:
    account: str  # IBAN, or the OFX account number
    currency: str
    opening: int
    entries: list = field(default_factory=list)

    @property
    def booked(self):
        return [e for e in self.entries if e.booked]

    @property
    def closing(self):
        return self.opening + sum(e.minor for e in self.booked if e.currency is None)


@dataclass
class Case:
    name: str
    data: bytes
    statements: list  # Statement values, as the file states them
    variations: list  # names of the legal variations used
    bad: str | None = None  # the deliberate defect of a money field, if any
    # An oracle key of each account (:25: text, IBAN, ACCTID) -> our account id's mark.
    accounts: dict = field(default_factory=dict)
    compare_closing: bool = True


NAMES = ["Cafe Mueller", "ACME SARL", "Stadtwerke Koeln", "J Jansen", "Muller & Sohn",
         "Cafe Le Zinc", "Alpenhof AG", "Telco SA", "Erika Mustermann", "O'Brien Ltd"]
TEXTS = ["Rechnung 2026-117", "Miete Oktober", "Lohn Oktober", "Kartenzahlung", "Strom",
         "Invoice 4711", "Refund", "Fees", "Gift <3", "Zinsen"]


def random_statement(rng: random.Random, account: str, currency: str, count: int,
                     tag: str, styles: list, pending: bool = False,
                     probe: bool = False) -> Statement:
    digits = DIGITS[currency]
    unit = 10**digits
    opening = rng.choice([0, rng.randint(-50_000, 5_000_000)]) * (unit // 100 if unit >= 100 else 1)
    if digits == 0:
        opening = rng.randint(-5000, 500_000)
    statement = Statement(account, currency, opening)
    for number in range(count):
        style = rng.choice(styles)
        if style == "int":
            magnitude = rng.randint(1, 5000) * unit
        elif style == "onedec" and digits >= 2:
            magnitude = rng.randint(1, 50000) * (unit // 10)
        else:
            magnitude = rng.choice([1, rng.randint(1, 99), rng.randint(100, 999_999),
                                    rng.randint(10**6, 10**10)])
        sign = rng.choice([1, -1])
        statement.entries.append(
            Entry(day=rng.randint(1, 31), minor=sign * magnitude, txid="%s-%d" % (tag, number),
                  name=rng.choice(NAMES), text=rng.choice(TEXTS)))
        if probe and number == 0:
            # A probe's text holds the characters markup must escape.
            statement.entries[-1].name, statement.entries[-1].text = "Muller & Sohn", "Gift <3"
    if pending:
        statement.entries.insert(
            rng.randint(0, len(statement.entries)),
            Entry(day=31, minor=-rng.randint(1, 9999), txid="%s-P" % tag, name="Pending",
                  text="not booked", booked=False))
    return statement


def entry_count(rng: random.Random, forced: set | None, probe: int = 2) -> int:
    """How many entries a statement has: 1 to 6, a probe's two (a reader's state carried from
    one entry to the next shows in the second)."""
    return probe if forced is not None else rng.randint(1, 6)


def maybe(rng: random.Random, v: set, name: str, probability: float) -> bool:
    """Whether variation `name` applies to this item: always in a probe, else by chance."""
    return name in v and ("probe" in v or rng.random() < probability)


def pick_style(rng: random.Random, v: set) -> str:
    """The layout of one amount: a probe's own variation, else any of those drawn."""
    styles = styles_of(v)[-1:] if "probe" in v else styles_of(v)
    return styles[-1] if "probe" in v else rng.choice(styles)


def choose(rng: random.Random, names: list, probability: float) -> set:
    return {name for name in names if rng.random() < probability}


# MARK: - camt.053

CAMT_LEGAL = [
    "bom", "crlf", "no-decl", "decl-single-quotes", "latin1", "utf16", "comment-top",
    "comment-in-ntry", "comment-markup", "cdata-amount", "cdata-name", "pi", "ns-prefix",
    "attr-order", "attr-single-quotes", "compact", "tabs", "amount-space", "v08",
    "no-acctsvcrref", "no-ntrydtls", "valdt", "addtl-info", "bktxcd", "acct-ccy", "pending",
    "dttm", "amount-int", "amount-onedec", "amount-lexical", "amount-charref", "char-refs",
    "two-stmts", "stmt-no-entries", "rvslind", "ccy-other", "txdtls-amt", "batch-txdtls",
    "tag-whitespace",
]
CAMT_BAD = [
    "bad-amount-decimals", "bad-amount-letter", "bad-amount-comma", "bad-amount-negative",
    "bad-dup-amt", "bad-dup-cdtdbtind", "bad-missing-amt", "bad-amount-empty",
    "bad-amount-two-points", "bad-balance-amount", "bad-ntry-in-ntry", "bad-amount-grouping",
    "bad-missing-amt-pending",
]


def camt_case(rng: random.Random, index: int, forced: set | None, bad: str | None) -> Case:
    variations = set(forced) if forced is not None else choose(rng, CAMT_LEGAL, 0.12)
    if bad == "bad-missing-amt-pending":
        variations.add("pending")
    if "latin1" in variations and "utf16" in variations:
        variations.discard("utf16")
    if "decl-single-quotes" in variations and "no-decl" in variations:
        variations.discard("no-decl")
    if ("latin1" in variations or "utf16" in variations) and "no-decl" in variations:
        variations.discard("no-decl")
    currency = rng.choice(["JPY", "BHD", "CHF"]) if "ccy-other" in variations else "EUR"
    styles = styles_of(variations)[-1:] if "probe" in variations else styles_of(variations)
    count_stmts = 2 if "two-stmts" in variations or "stmt-no-entries" in variations else 1
    statements = []
    for number in range(count_stmts):
        entries = 0 if ("stmt-no-entries" in variations and number == 1) else \
            entry_count(rng, forced)
        statements.append(random_statement(
            rng, iban_de(1_000_000 + index * 10 + number), currency, entries, "C%d-%d" % (index, number),
            styles, pending="pending" in variations and number == 0,
            probe="probe" in variations))
    text = camt_render(rng, statements, variations, bad)
    if "utf16" in variations:
        data = text.encode("utf-16")  # with its byte order mark
    elif "latin1" in variations:
        data = text.encode("latin-1", errors="xmlcharrefreplace")
    else:
        data = text.encode("utf-8")
        if "bom" in variations:
            data = b"\xef\xbb\xbf" + data
    if "crlf" in variations:
        data = data.replace(b"\n", b"\r\n") if "utf16" not in variations else \
            text.replace("\n", "\r\n").encode("utf-16")
    return Case("camt-%05d" % index, data, statements, sorted(variations), bad,
                {s.account: s.account for s in statements})


def camt_render(rng, statements, v, bad) -> str:
    version = "08" if "v08" in v else "02"
    ns = "urn:iso:std:iso:20022:tech:xsd:camt.053.001.%s" % version
    p = "c:" if "ns-prefix" in v else ""
    q = "'" if "attr-single-quotes" in v else '"'
    nl = "" if "compact" in v else "\n"
    ind = (lambda n: "") if "compact" in v else ((lambda n: "\t" * n) if "tabs" in v else (lambda n: "  " * n))

    space = " " if "tag-whitespace" in v else ""

    def el(name, content, level, attrs=""):
        return "%s<%s%s%s%s>%s</%s%s%s>%s" % (ind(level), p, name, attrs, space, content, p,
                                             name, space, nl)

    def open_(name, level):
        return "%s<%s%s>%s" % (ind(level), p, name, nl)

    def close(name, level):
        return "%s</%s%s>%s" % (ind(level), p, name, nl)

    def amount(minor, currency, level, style=None, name="Amt"):
        digits = DIGITS[currency]
        text = money_text(minor, digits, style or pick_style(rng, v))
        if maybe(rng, v, "amount-charref", 0.5):
            form = "&#%d;" if rng.random() < 0.5 else "&#x%X;"
            text = form % ord(text[0]) + text[1:]
        elif maybe(rng, v, "cdata-amount", 0.5):
            text = "<![CDATA[%s]]>" % text
        if maybe(rng, v, "amount-space", 0.5):
            text = " %s\n%s" % (text, ind(level))
        if "attr-order" in v:
            attrs = " xmlns:x=%shttp://example.com/x%s Ccy=%s%s%s" % (q, q, q, currency, q)
        else:
            attrs = " Ccy=%s%s%s" % (q, currency, q)
        return el(name, text, level, attrs)

    def name_text(text):
        if "char-refs" in v:
            text = text.replace("e", "&#233;", 1)
        text = text.replace("&", "&amp;") if "&#" not in text else text.replace("& ", "&amp; ")
        text = text.replace("<", "&lt;")
        if "cdata-name" in v:
            return "<![CDATA[%s]]>" % text.replace("&amp;", "&").replace("&lt;", "<")
        return text

    out = []
    if "no-decl" not in v:
        enc = "ISO-8859-1" if "latin1" in v else ("UTF-16" if "utf16" in v else "UTF-8")
        if "decl-single-quotes" in v:
            out.append("<?xml version='1.0' encoding='%s'?>\n" % enc)
        else:
            out.append('<?xml version="1.0" encoding="%s"?>\n' % enc)
    if "pi" in v:
        out.append('<?xml-stylesheet type="text/xsl" href="camt.xsl"?>\n')
    if "comment-top" in v:
        out.append("<!--Generated by the bank's export, version 1.0-->\n")
    xmlns = "xmlns%s=%s%s%s" % (":c" if p else "", q, ns, q)
    xsi = "xmlns:xsi=%shttp://www.w3.org/2001/XMLSchema-instance%s" % (q, q)
    loc = "xsi:schemaLocation=%s%s camt.053.001.%s.xsd%s" % (q, ns, version, q)
    attrs = " ".join([loc, xsi, xmlns] if "attr-order" in v else [xmlns, xsi, loc])
    out.append("<%sDocument %s>%s" % (p, attrs, nl))
    out.append(open_("BkToCstmrStmt", 1))
    out.append(open_("GrpHdr", 2) + el("MsgId", "MSG1", 3)
               + el("CreDtTm", "2026-11-01T06:00:00", 3) + close("GrpHdr", 2))
    bad_done = False
    for number, statement in enumerate(statements):
        ccy = statement.currency
        out.append(open_("Stmt", 2))
        out.append(el("Id", "STMT-%d" % number, 3))
        if "pi" in v:
            out.append("%s<?bank-export page=\"1\"?>%s" % (ind(3), nl))
        out.append(el("CreDtTm", "2026-11-01T06:00:00", 3))
        acct = open_("Acct", 3) + open_("Id", 4) + el("IBAN", statement.account, 5) + close("Id", 4)
        if "acct-ccy" in v:
            acct += el("Ccy", ccy, 4)
        out.append(acct + close("Acct", 3))
        for code, minor, day in (("OPBD", statement.opening, "2026-10-01"),
                                 ("CLBD", statement.closing, "2026-10-31")):
            bal = open_("Bal", 3) + open_("Tp", 4) + open_("CdOrPrtry", 5) + el("Cd", code, 6) \
                + close("CdOrPrtry", 5) + close("Tp", 4)
            if bad == "bad-balance-amount" and code == "CLBD":
                bal += el("Amt", money_text(minor, DIGITS[ccy]) + "O", 4, ' Ccy="%s"' % ccy)
                bad_done = True
            else:
                bal += amount(minor, ccy, 4, style="full")
            bal += el("CdtDbtInd", "DBIT" if minor < 0 else "CRDT", 4)
            bal += open_("Dt", 4) + el("Dt", day, 5) + close("Dt", 4) + close("Bal", 3)
            out.append(bal)
        for entry in statement.entries:
            # A defect goes in the first booked entry; a pending entry's, in the pending one.
            applies = bad and not bad_done and bad != "bad-balance-amount" and \
                entry.booked == (bad != "bad-missing-amt-pending")
            out.append(camt_entry(rng, entry, ccy, v, el, open_, close, amount, name_text,
                                  ind, nl, bad if applies else None))
            bad_done = bad_done or applies
        out.append(close("Stmt", 2))
    out.append(close("BkToCstmrStmt", 1))
    out.append("</%sDocument>%s" % (p, nl or "\n"))
    return "".join(out)


def styles_of(v):
    styles = ["full"]
    for style in ("int", "onedec", "lexical"):
        if "amount-" + style in v:
            styles.append(style)
    return styles


def camt_entry(rng, entry, ccy, v, el, open_, close, amount, name_text, ind, nl, bad) -> str:
    digits = DIGITS[ccy]
    mark = "DBIT" if entry.minor < 0 else "CRDT"
    parts = [open_("Ntry", 3)]
    if "comment-in-ntry" in v:
        parts.append("%s<!--Generated-->%s" % (ind(4), nl))
    if "comment-markup" in v:
        parts.append('%s<!--<Ntry><Amt Ccy="%s">1000.00</Amt><CdtDbtInd>CRDT</CdtDbtInd>'
                     "</Ntry>-->%s" % (ind(4), ccy, nl))
    text = money_text(entry.minor, digits)
    if bad == "bad-amount-decimals":
        # One decimal too many, the value unchanged: only the precision check can refuse it.
        parts.append(el("Amt", text + ("0" if digits else ".0"), 4, ' Ccy="%s"' % ccy))
    elif bad == "bad-amount-letter":
        parts.append(el("Amt", text[:-1] + "O" + text[-1:] if len(text) > 1 else "O" + text,
                        4, ' Ccy="%s"' % ccy))
    elif bad == "bad-amount-comma":
        parts.append(el("Amt", money_text(entry.minor, digits, radix=",") if digits else text + ",00",
                        4, ' Ccy="%s"' % ccy))
    elif bad == "bad-amount-negative":
        parts.append(el("Amt", "-" + text, 4, ' Ccy="%s"' % ccy))
    elif bad == "bad-amount-empty":
        parts.append(el("Amt", "", 4, ' Ccy="%s"' % ccy))
    elif bad == "bad-amount-two-points":
        parts.append(el("Amt", text + ".0" if "." in text else text + ".0.0", 4, ' Ccy="%s"' % ccy))
    elif bad == "bad-amount-grouping":
        parts.append(el("Amt", "1,%03d%s" % (abs(entry.minor) % 1000, ".00" if digits else ""),
                        4, ' Ccy="%s"' % ccy))
    elif bad in ("bad-missing-amt", "bad-missing-amt-pending"):
        pass
    else:
        parts.append(amount(entry.minor, ccy, 4))
        if bad == "bad-dup-amt":
            parts.append(amount(entry.minor, ccy, 4))
    parts.append(el("CdtDbtInd", mark, 4))
    if bad == "bad-dup-cdtdbtind":
        parts.append(el("CdtDbtInd", mark, 4))
    if maybe(rng, v, "rvslind", 0.3):
        parts.append(el("RvslInd", "false", 4))
    status = "BOOK" if entry.booked else "PDNG"
    if "v08" in v:
        parts.append(open_("Sts", 4) + el("Cd", status, 5) + close("Sts", 4))
    else:
        parts.append(el("Sts", status, 4))
    date = "2026-10-%02d" % entry.day
    if "dttm" in v:
        parts.append(open_("BookgDt", 4) + el("DtTm", date + "T10:15:00", 5) + close("BookgDt", 4))
    else:
        parts.append(open_("BookgDt", 4) + el("Dt", date, 5) + close("BookgDt", 4))
    if "valdt" in v:
        parts.append(open_("ValDt", 4) + el("Dt", date, 5) + close("ValDt", 4))
    if "no-acctsvcrref" not in v:
        parts.append(el("AcctSvcrRef", entry.txid, 4))
    if "bktxcd" in v:
        parts.append(open_("BkTxCd", 4) + open_("Prtry", 5) + el("Cd", "NTRF+166", 6)
                     + el("Issr", "DK", 6) + close("Prtry", 5) + close("BkTxCd", 4))
    if bad == "bad-ntry-in-ntry":
        parts.append(open_("Ntry", 4) + amount(-99999, ccy, 5, style="full")
                     + el("CdtDbtInd", "DBIT", 5) + el("Sts", "BOOK", 5) + close("Ntry", 4))
    if "no-ntrydtls" not in v:
        party = "Dbtr" if entry.minor > 0 else "Cdtr"
        # The transactions' own amounts (optional; a batch booking's parts add up to it).
        magnitude = abs(entry.minor)
        split = [magnitude]
        if "batch-txdtls" in v and magnitude >= 2:
            first = rng.randint(1, magnitude - 1)
            split = [first, magnitude - first]
        parts.append(open_("NtryDtls", 4))
        if len(split) > 1:
            parts.append(open_("Btch", 5) + el("NbOfTxs", str(len(split)), 6) + close("Btch", 5))
        for number, part in enumerate(split):
            parts.append(open_("TxDtls", 5))
            if "txdtls-amt" in v or len(split) > 1:
                parts.append(amount(part, ccy, 6, style="full") + el("CdtDbtInd", mark, 6))
            parts.append(open_("RltdPties", 6) + open_(party, 7)
                         + el("Nm", name_text(entry.name if number == 0 else "Second Party"), 8)
                         + close(party, 7) + close("RltdPties", 6) + open_("RmtInf", 6)
                         + el("Ustrd", name_text(entry.text), 7) + close("RmtInf", 6)
                         + close("TxDtls", 5))
        parts.append(close("NtryDtls", 4))
    if "addtl-info" in v or "no-ntrydtls" in v:
        parts.append(el("AddtlNtryInf", name_text(entry.name + " " + entry.text), 4))
    parts.append(close("Ntry", 3))
    return "".join(parts)


# MARK: - MT940

MT940_LEGAL = [
    "envelope", "crlf", "bom", "entry-date", "funds-code", "reversal", "amount-int",
    "amount-onedec", "no-bankref", "suppl-details", "info-german", "info-dutch",
    "info-multiline", "no-info", "cp1252", "account-currency", "account-blz", "multi-page",
    "two-accounts", "type-codes", "available-balances", "lowercase-nonref", "ccy-other",
    "no-28c", "no-trailing-dash", "amount-lexical", "stmt-no-entries",
]
MT940_BAD = [
    "bad-amount-point", "bad-amount-letter", "bad-amount-decimals", "bad-amount-missing",
    "bad-amount-no-comma", "bad-amount-two-commas", "bad-amount-sign", "bad-type-code",
    "bad-type-lowercase", "bad-dup-closing", "bad-dup-opening", "bad-balance-point",
    "bad-amount-too-long",
]


def mt940_case(rng: random.Random, index: int, forced: set | None, bad: str | None) -> Case:
    v = set(forced) if forced is not None else choose(rng, MT940_LEGAL, 0.15)
    if "envelope" in v:
        v.discard("no-trailing-dash")
    currency = rng.choice(["JPY", "BHD", "CHF", "USD"]) if "ccy-other" in v else "EUR"
    styles = styles_of(v)[-1:] if "probe" in v else styles_of(v)
    statements = []
    accounts = {}
    for number in range(2 if "two-accounts" in v or "stmt-no-entries" in v else 1):
        account_number = 1_000_000 + index * 10 + number
        if "account-blz" in v and number == 0:
            raw = "37040044/%010d" % account_number
            mark = "name:37040044-%010d" % account_number
        else:
            raw = iban_de(account_number)
            mark = raw
            if "account-currency" in v:
                raw += rng.choice([" ", ""]) + currency
        entries = 0 if "stmt-no-entries" in v and number == 1 else entry_count(rng, forced)
        statement = random_statement(rng, raw, currency, entries,
                                     "M%d-%d" % (index, number), styles, probe="probe" in v)
        statements.append(statement)
        accounts[raw.split(" ")[0] if raw.endswith(currency) and " " in raw else raw] = mark
        accounts[raw] = mark
    text = mt940_render(rng, statements, v, bad, index)
    if "cp1252" in v:
        data = text.encode("cp1252")
    else:
        data = text.encode("utf-8")
    if "bom" in v:
        data = b"\xef\xbb\xbf" + data
    if "crlf" in v:
        data = data.replace(b"\n", b"\r\n")
    return Case("mt940-%05d" % index, data, statements, sorted(v), bad, accounts)


def mt940_amount(minor, digits, style):
    text = money_text(minor, digits, style, radix=",")
    if "," not in text:
        text += ","
    return text


def mt940_render(rng, statements, v, bad, index) -> str:
    out = []
    bad_left = [bad] if bad else []

    def take(name):
        if bad_left and bad_left[0] == name:
            bad_left.pop()
            return True
        return False

    for number, statement in enumerate(statements):
        ccy = statement.currency
        digits = DIGITS[ccy]
        pages = [statement.entries]
        if "multi-page" in v and len(statement.entries) >= 2:
            cut = rng.randint(1, len(statement.entries) - 1)
            pages = [statement.entries[:cut], statement.entries[cut:]]
        balance = statement.opening
        for page_number, page in enumerate(pages):
            if "envelope" in v:
                out.append("{1:F01COBADEFFAXXX0000000000}{2:O9401200261101COBADEFFAXXX00000000002611011200N}{4:\n")
            out.append(":20:STMT%d%d%d\n" % (index % 1000, number, page_number))
            out.append(":25:%s\n" % statement.account)
            if "no-28c" not in v:
                out.append(":28C:%05d/%03d\n" % (number + 1, page_number + 1))
            first, last = page_number == 0, page_number == len(pages) - 1
            mark = "C" if balance >= 0 else "D"
            opening_text = mt940_amount(balance, digits, "full")
            if take("bad-balance-point") and page_number == 0:
                opening_text = opening_text.replace(",", ".") if "," in opening_text[:-1] \
                    else opening_text[:-1] + ".00"
            out.append(":60%s:%s261001%s%s\n" % ("F" if first else "M", mark, ccy, opening_text))
            if take("bad-dup-opening"):
                out.append(":60F:%s261001%s%s\n" % (
                    mark, ccy, mt940_amount(balance + 10**digits, digits, "full")))
            for entry in page:
                out.append(mt940_entry(rng, entry, digits, v, take))
                balance += entry.minor
            mark = "C" if balance >= 0 else "D"
            out.append(":62%s:%s261031%s%s\n" % ("F" if last else "M", mark, ccy,
                                                mt940_amount(balance, digits, "full")))
            if take("bad-dup-closing"):
                out.append(":62F:%s261031%s%s\n" % (
                    mark, ccy, mt940_amount(balance + 10**digits, digits, "full")))
            if "available-balances" in v and last:
                out.append(":64:%s261031%s%s\n" % (mark, ccy, mt940_amount(balance, digits, "full")))
                out.append(":65:%s261101%s%s\n" % (mark, ccy, mt940_amount(balance, digits, "full")))
            if "envelope" in v:
                out.append("-}{5:{CHK:0123456789AB}}\n")
            elif not ("no-trailing-dash" in v and last and number == len(statements) - 1):
                out.append("-\n")
    return "".join(out)


def mt940_entry(rng, entry, digits, v, take) -> str:
    date = "2610%02d" % entry.day
    if maybe(rng, v, "entry-date", 0.7):
        date += "10%02d" % entry.day
    reversal = maybe(rng, v, "reversal", 0.3)
    # Money out: a debit, or the reversal of a credit.
    if entry.minor < 0:
        mark = "RC" if reversal else "D"
    else:
        mark = "RD" if reversal else "C"
    funds = rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") if maybe(rng, v, "funds-code", 0.5) else ""
    amount = mt940_amount(entry.minor, digits, pick_style(rng, v))
    type_code = rng.choice(["NTRF", "NMSC", "FCHK", "S103", "NDDT", "N051"]) \
        if "type-codes" in v else rng.choice(["NTRF", "NMSC"])
    # The defects keep the value where they can (`12.00` for 12,00; `12,500`), so that only
    # reading the field by its grammar refuses them, not the closing balance.
    if take("bad-amount-point"):
        if "probe" in v or rng.random() < 0.5:
            # A whole amount, `12.00`: read up to the point it keeps its value.
            magnitude = max(abs(entry.minor) // 10**digits, 1) * 10**digits
            entry.minor = magnitude if entry.minor > 0 else -magnitude
        amount = mt940_amount(entry.minor, digits, "full").replace(",", ".")
    elif take("bad-amount-letter"):
        amount = amount[:1] + "O" + amount[1:]
    elif take("bad-amount-decimals"):
        amount = amount + "0" * (digits + 1 - len(amount.split(",")[1]))
    elif take("bad-amount-missing"):
        amount = ""
    elif take("bad-amount-no-comma"):
        amount = amount.replace(",", "") or "1"
    elif take("bad-amount-two-commas"):
        amount = amount.replace(",", ",,", 1)
    elif take("bad-amount-sign"):
        amount = "-" + amount
    elif take("bad-amount-too-long"):
        amount = "0" * (16 - len(amount)) + amount
    if take("bad-type-code"):
        type_code = rng.choice(["XMSC", "1TRF", ".50N", "ANTR"])
    elif take("bad-type-lowercase"):
        type_code = type_code.lower()
    reference = "nonref" if "lowercase-nonref" in v else "NONREF"
    if rng.random() < 0.3:
        reference = "REF%d" % entry.day
    line = ":61:%s%s%s%s%s%s" % (date, mark, funds, amount, type_code, reference)
    if "no-bankref" not in v:
        line += "//" + entry.txid
    line += "\n"
    if "suppl-details" in v:
        line += "/OCMT/EUR%s/\n" % mt940_amount(entry.minor, 2, "full")
    if "no-info" in v:
        return line
    name = entry.name.replace("Cafe", "Caf\u00e9") if "cp1252" in v else entry.name
    if "info-german" in v:
        info = ":86:166?00GUTSCHRIFT?20SVWZ+%s?21EREF+E%d?32%s\n" % (entry.text, entry.day, name[:27])
    elif "info-dutch" in v:
        info = ":86:/TRTP/SEPA OVERBOEKING/NAME/%s/REMI/USTD//%s/EREF/NOTPROVIDED\n" % (name, entry.text)
    elif "info-multiline" in v:
        info = ":86:%s\n%s\n" % (name, entry.text)
    else:
        info = ":86:%s %s\n" % (name, entry.text)
    return line + info


# MARK: - OFX

OFX_LEGAL = [
    "ofx1", "sgml-closed-leaves", "crlf", "one-line", "indent", "bom", "comment", "cdata-memo",
    "cdata-amount", "pi", "self-closing-memo", "header-attr-order", "amount-comma-radix",
    "amount-plus", "amount-int", "amount-onedec", "amount-spaces", "currency-aggregate",
    "no-name", "memo", "payee", "checknum", "availbal", "dtuser", "two-stmts", "savings",
    "curdef-other", "tz-dates", "empty-tranlist", "latin1-sgml", "qfx-intu",
]
OFX_BAD = [
    "bad-amount-decimals", "bad-amount-letter", "bad-dup-trnamt", "bad-missing-trnamt",
    "bad-amount-two-points", "bad-amount-empty", "bad-amount-grouping", "bad-balamt",
]


def ofx_case(rng: random.Random, index: int, forced: set | None, bad: str | None) -> Case:
    v = set(forced) if forced is not None else choose(rng, OFX_LEGAL, 0.12)
    if forced is None and rng.random() < 0.5:
        v.add("ofx1")
    sgml_only = {"sgml-closed-leaves", "latin1-sgml"}
    xml_only = {"bom", "comment", "cdata-memo", "cdata-amount", "pi", "self-closing-memo",
                "header-attr-order"}
    v -= xml_only if "ofx1" in v else sgml_only
    currency = rng.choice(["EUR", "CAD", "GBP", "JPY"]) if "curdef-other" in v else "USD"
    styles = styles_of(v)[-1:] if "probe" in v else styles_of(v)
    statements = []
    for number in range(2 if "two-stmts" in v or "empty-tranlist" in v else 1):
        count = 0 if ("empty-tranlist" in v and number == 1) else entry_count(rng, forced)
        statement = random_statement(rng, "%d%06d%d" % (7, index, number), currency, count,
                                     "F%d-%d" % (index, number), styles, probe="probe" in v)
        if "currency-aggregate" in v and statement.entries:
            # An amount in another currency, with a rate whose product is exact in CURDEF (a
            # reader may keep the amount in CURSYM or convert it at CURRATE; both are checked).
            chosen = rng.choice(statement.entries)
            chosen.currency = "EUR" if currency != "EUR" else "GBP"
            chosen.minor = chosen.minor * 4 or 4
            if DIGITS[currency] == 0:
                chosen.rate = rng.choice(["100", "150"])
            else:
                chosen.rate = rng.choice(["1.0", "1.25", "0.75", "2"])
        statements.append(statement)
    text = ofx_render(rng, statements, v, bad)
    if "latin1-sgml" in v:
        data = text.replace("Cafe", "Caf\u00e9").encode("cp1252")
    else:
        data = text.encode("utf-8")
    if "bom" in v:
        data = b"\xef\xbb\xbf" + data
    if "crlf" in v:
        data = data.replace(b"\n", b"\r\n")
    case = Case("ofx-%05d" % index, data, statements, sorted(v), bad,
                {s.account: s.account for s in statements})
    case.compare_closing = "currency-aggregate" not in v
    return case


def ofx_render(rng, statements, v, bad) -> str:
    sgml = "ofx1" in v
    nl = "" if "one-line" in v else "\n"
    ind = (lambda n: "  " * n) if "indent" in v and not "one-line" in v else (lambda n: "")

    def leaf(name, value, level):
        if sgml and "sgml-closed-leaves" not in v:
            return "%s<%s>%s%s" % (ind(level), name, value, nl)
        return "%s<%s>%s</%s>%s" % (ind(level), name, value, name, nl)

    def open_(name, level):
        return "%s<%s>%s" % (ind(level), name, nl)

    def close(name, level):
        return "%s</%s>%s" % (ind(level), name, nl)

    def esc(text):
        return text.replace("&", "&amp;").replace("<", "&lt;")

    def amount_text(minor, digits, style=None):
        radix = "," if maybe(rng, v, "amount-comma-radix", 0.5) else "."
        text = money_text(minor, digits, style or pick_style(rng, v), radix)
        if minor < 0:
            text = "-" + text
        elif maybe(rng, v, "amount-plus", 0.5):
            text = "+" + text
        if maybe(rng, v, "amount-spaces", 0.5):
            text = " " + text + ("" if sgml else " ")
        if maybe(rng, v, "cdata-amount", 0.5):
            text = "<![CDATA[%s]]>" % text
        return text

    out = []
    if sgml:
        charset = "1252" if "latin1-sgml" in v else "NONE"
        out.append("OFXHEADER:100\nDATA:OFXSGML\nVERSION:%s\nSECURITY:NONE\nENCODING:%s\n"
                   "CHARSET:%s\nCOMPRESSION:NONE\nOLDFILEUID:NONE\nNEWFILEUID:NONE\n\n"
                   % (rng.choice(["102", "103", "151", "160"]),
                      "USASCII" if "latin1-sgml" in v else "USASCII", charset))
    else:
        out.append('<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n')
        if "header-attr-order" in v:
            out.append('<?OFX OFXHEADER="200" SECURITY="NONE" VERSION="220" '
                       'NEWFILEUID="NONE" OLDFILEUID="NONE"?>\n')
        else:
            out.append('<?OFX OFXHEADER="200" VERSION="220" SECURITY="NONE" '
                       'OLDFILEUID="NONE" NEWFILEUID="NONE"?>\n')
        if "pi" in v:
            out.append('<?bank-export tool="x"?>\n')
        if "comment" in v:
            out.append("<!--Generated by the bank-->\n")
    out.append(open_("OFX", 0))
    out.append(open_("SIGNONMSGSRSV1", 1) + open_("SONRS", 2) + open_("STATUS", 3)
               + leaf("CODE", "0", 4) + leaf("SEVERITY", "INFO", 4) + close("STATUS", 3)
               + leaf("DTSERVER", "20261101120000", 3) + leaf("LANGUAGE", "ENG", 3)
               + (leaf("INTU.BID", "3000", 3) if "qfx-intu" in v else "")
               + close("SONRS", 2) + close("SIGNONMSGSRSV1", 1))
    out.append(open_("BANKMSGSRSV1", 1))
    first = statements_first_entry(statements)
    for number, statement in enumerate(statements):
        digits = DIGITS[statement.currency]
        out.append(open_("STMTTRNRS", 2) + leaf("TRNUID", str(number + 1), 3)
                   + open_("STATUS", 3) + leaf("CODE", "0", 4) + leaf("SEVERITY", "INFO", 4)
                   + close("STATUS", 3) + open_("STMTRS", 3) + leaf("CURDEF", statement.currency, 4)
                   + open_("BANKACCTFROM", 4) + leaf("BANKID", "121000248", 5)
                   + leaf("ACCTID", statement.account, 5)
                   + leaf("ACCTTYPE", "SAVINGS" if "savings" in v else "CHECKING", 5)
                   + close("BANKACCTFROM", 4) + open_("BANKTRANLIST", 4)
                   + leaf("DTSTART", "20261001", 5) + leaf("DTEND", "20261031", 5))
        for entry in statement.entries:
            if maybe(rng, v, "comment", 0.3):
                out.append("%s<!--<STMTTRN><TRNAMT>1000.00</TRNAMT></STMTTRN>-->%s" % (ind(5), nl))
            part = open_("STMTTRN", 5) + leaf("TRNTYPE", "CREDIT" if entry.minor > 0 else "DEBIT", 6)
            date = "202610%02d" % entry.day
            if "tz-dates" in v:
                date += "120000.000[-5:EST]"
            part += leaf("DTPOSTED", date, 6)
            if "dtuser" in v:
                part += leaf("DTUSER", date, 6)
            entry_digits = DIGITS[entry.currency or statement.currency]
            text = amount_text(entry.minor, entry_digits)
            plain = ("-" if entry.minor < 0 else "") + money_text(entry.minor, entry_digits)
            if entry is first:
                if bad == "bad-amount-decimals":
                    text = plain + ("0" if entry_digits else ".0")
                elif bad == "bad-amount-letter":
                    text = plain[:-1] + "O" + plain[-1]
                elif bad == "bad-amount-two-points":
                    text = plain + ".0" if "." in plain else plain + ".0.0"
                elif bad == "bad-amount-empty":
                    text = ""
                elif bad == "bad-amount-grouping":
                    text = "-1,234.56" if entry_digits == 2 else "-1,234.5"
            if not (bad == "bad-missing-trnamt" and entry is first):
                part += leaf("TRNAMT", text, 6)
            if bad == "bad-dup-trnamt" and entry is first:
                part += leaf("TRNAMT", text, 6)
            part += leaf("FITID", entry.txid, 6)
            if "checknum" in v:
                part += leaf("CHECKNUM", str(1000 + entry.day), 6)
            if "payee" in v:
                part += open_("PAYEE", 6) + leaf("NAME", esc(entry.name), 7) \
                    + leaf("ADDR1", "1 Main St", 7) + leaf("CITY", "Springfield", 7) \
                    + leaf("STATE", "IL", 7) + leaf("POSTALCODE", "62701", 7) \
                    + leaf("PHONE", "555-0100", 7) + close("PAYEE", 6)
            elif "no-name" not in v:
                part += leaf("NAME", esc(entry.name), 6)
            if "memo" in v or "no-name" in v:
                memo = esc(entry.text)
                if "cdata-memo" in v:
                    memo = "<![CDATA[%s]]>" % entry.text
                part += leaf("MEMO", memo, 6)
            elif "self-closing-memo" in v:
                part += "%s<MEMO/>%s" % (ind(6), nl)
            if entry.currency:
                part += open_("CURRENCY", 6) + leaf("CURRATE", entry.rate, 7) \
                    + leaf("CURSYM", entry.currency, 7) + close("CURRENCY", 6)
            part += close("STMTTRN", 5)
            out.append(part)
        out.append(close("BANKTRANLIST", 4))
        balance = money_text(statement.closing, digits)
        balance = ("-" if statement.closing < 0 else "") + balance
        if bad == "bad-balamt" and number == 0:
            balance = balance[:-1] + "O" + balance[-1]
        out.append(open_("LEDGERBAL", 4) + leaf("BALAMT", balance, 5)
                   + leaf("DTASOF", "20261031", 5) + close("LEDGERBAL", 4))
        if "availbal" in v:
            out.append(open_("AVAILBAL", 4) + leaf("BALAMT", balance, 5)
                       + leaf("DTASOF", "20261031", 5) + close("AVAILBAL", 4))
        out.append(close("STMTRS", 3) + close("STMTTRNRS", 2))
    out.append(close("BANKMSGSRSV1", 1) + close("OFX", 0))
    return "".join(out)


def statements_first_entry(statements):
    for statement in statements:
        if statement.entries:
            return statement.entries[0]
    return None


GENERATORS = {
    "camt": (camt_case, CAMT_LEGAL, CAMT_BAD, "xml"),
    "mt940": (mt940_case, MT940_LEGAL, MT940_BAD, "sta"),
    "ofx": (ofx_case, OFX_LEGAL, OFX_BAD, "ofx"),
}


def cases(fmt: str, seed: int, count: int, bad_share: float = 0.2, skip: set = frozenset()):
    """`count` seeded random cases of a format, about `bad_share` of them deliberately bad,
    then one probe per legal variation and per defect (the minimal reproductions), one by
    one: a run of any size holds one batch in memory."""
    make, legal, bad_kinds, _ = GENERATORS[fmt]
    rng = random.Random("%s-%d" % (fmt, seed))
    for index in range(count):
        bad = rng.choice(bad_kinds) if rng.random() < bad_share else None
        case = make(rng, index, None, bad)
        if skip and (set(case.variations) | {case.bad}) & skip:
            continue
        yield case
    # What a variation needs beside it to show at all.
    needs = {"sgml-closed-leaves": {"ofx1"}, "latin1-sgml": {"ofx1"}, "cdata-memo": {"memo"}}
    probes = [(name, {name} | needs.get(name, set()), None) for name in legal] \
        + [(name, set(), name) for name in bad_kinds]
    # Pairs of variations that meet in one field.
    combos = {"camt": [("cdata-amount", "amount-space"), ("cdata-amount", "ns-prefix")],
              "mt940": [("envelope", "crlf"), ("funds-code", "reversal")],
              "ofx": [("cdata-amount", "amount-spaces"), ("ofx1", "amount-spaces"),
                      ("ofx1", "amount-comma-radix"), ("ofx1", "currency-aggregate")]}[fmt]
    probes += [("+".join(pair), set(pair), None) for pair in combos]
    if fmt == "ofx":
        probes.append(("ofx2-base", set(), None))
        probes += [("ofx1+" + name, {"ofx1"}, name) for name in bad_kinds]
    else:
        probes.append(("base", set(), None))
    for number, (name, forced, bad) in enumerate(probes):
        if name in skip or set(name.split("+")) & skip:
            continue
        case = make(random.Random("probe-%s-%s" % (fmt, name)), 9_000_000 + number,
                    forced | {"probe"}, bad)
        case.name = "probe-%s" % name
        yield case

