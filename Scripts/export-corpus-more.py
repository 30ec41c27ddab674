#!/usr/bin/env python3
"""Writes the bank-export layouts of Tests/StatementKitTests/Fixtures/exports that this script
knows (those export_corpus_layouts.py names), each holding the same known bookings, and prints their lines
for expected.tsv. Layouts follow the column lists that banks and apps publish in their help
pages for CSV downloads; the bookings are made up. Run from the package root:

    python3 Scripts/export-corpus-more.py > more.tsv   # then replace their lines in Tests/StatementKitTests/Fixtures/exports/expected.tsv
"""
import datetime as dt
from decimal import Decimal as D
import os

FOLDER = "Tests/StatementKitTests/Fixtures/exports"

# A current account: five bookings from an opening balance of 1000.00 (total 1212.95).
BANK = [
    (dt.date(2026, 10, 1), "ACME PAYROLL", D("2500.00")),
    (dt.date(2026, 10, 3), "COFFEE HOUSE", D("-12.50")),
    (dt.date(2026, 10, 13), "LANDLORD RENT", D("-1234.56")),
    (dt.date(2026, 10, 20), "GROCERY MART", D("-49.99")),
    (dt.date(2026, 10, 28), "REFUND SHOP", D("10.00")),
]
OPENING = D("1000.00")
# A card: four charges, a payment and a refund (total 342.93 in the account's favour).
CARD = [
    (dt.date(2026, 10, 2), "AMAZON MKTPLACE", D("-45.12")),
    (dt.date(2026, 10, 5), "NETFLIX.COM", D("-12.99")),
    (dt.date(2026, 10, 9), "SHELL OIL", D("-88.20")),
    (dt.date(2026, 10, 15), "PAYMENT THANK YOU", D("500.00")),
    (dt.date(2026, 10, 21), "UBER EATS", D("-23.75")),
    (dt.date(2026, 10, 24), "NETFLIX.COM REFUND", D("12.99")),
]
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]


def money(value, dec=".", thou="", plus=False, symbol="", after=""):
    """An amount as text: `-1,234.56`, `1.234,56`, `+12.50`, `£12.50`."""
    sign = "-" if value < 0 else ("+" if plus and value > 0 else "")
    whole, frac = f"{abs(value):.2f}".split(".")
    groups = []
    while len(whole) > 3:
        groups.insert(0, whole[-3:])
        whole = whole[:-3]
    groups.insert(0, whole)
    return f"{sign}{symbol}{thou.join(groups)}{dec}{frac}{after}"


def day(date, pattern):
    return (
        pattern.replace("yyyy", f"{date.year:04}").replace("yy", f"{date.year % 100:02}")
        .replace("MMM", MONTHS[date.month - 1]).replace("MM", f"{date.month:02}")
        .replace("dd", f"{date.day:02}").replace("M/", f"{date.month}/")
        .replace("d/", f"{date.day}/")
    )


def rows(card=False):
    """The bookings with the running balance after each."""
    balance = D("0.00") if card else OPENING
    out = []
    for date, text, amount in CARD if card else BANK:
        balance += amount
        out.append((date, text, amount, balance))
    return out


def quoted(field):
    return '"' + field.replace('"', '""') + '"'


def write(name, header, make, sep=",", preamble=(), footer=(), newest=False, card=False,
          quote=False, encoding="utf-8", crlf=False):
    lines = list(preamble)
    if header is not None:
        lines.append(sep.join(quoted(h) if quote else h for h in header))
    body = [make(*row) for row in rows(card)]
    if newest:
        body.reverse()
    for fields in body:
        lines.append(sep.join(quoted(f) if quote else f for f in fields))
    lines += list(footer)
    text = ("\r\n" if crlf else "\n").join(lines) + ("\r\n" if crlf else "\n")
    with open(os.path.join(FOLDER, name), "wb") as out:
        out.write(text.encode(encoding))


def dc(amount, **kw):
    """Debit and credit columns, one filled."""
    return (money(-amount, **kw), "") if amount < 0 else ("", money(amount, **kw))


EXPECTED = []


def layout(name, outcome, account, currency, card=False, note="", **kw):
    EXPECTED.append(
        f"{name}\t{outcome}\t{account}\t{currency}\t{6 if card else 5}\t0\t"
        f"{34293 if card else 121295}\t-\t{note}")
    write(name, card=card, **kw)


def main():
    import export_corpus_layouts
    export_corpus_layouts.define(layout, money, day, dc)
    print("\n".join(EXPECTED))


if __name__ == "__main__":
    import sys
    sys.path.insert(0, os.path.dirname(__file__))
    main()
