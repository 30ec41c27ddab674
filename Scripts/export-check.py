"""Checks one export of `statements export` with its real tool (see Scripts/export-check).

Usage: export-check.py hledger|ledger|beancount FILE ACCOUNTS.json BEAN_CHECK

The tool must accept FILE (exit 0: its balance assertions hold), print for every bank account
the balance `statements accounts -f json` gives (exactly, as decimals), and refuse FILE with
its first balance assertion made wrong by one minor unit.
"""
import json
import re
import subprocess
import sys
from decimal import Decimal


def export_name(account):
    """The account name `statements export` gives an account (Account+ExportName.swift)."""
    text = account["id"]
    pocket = ""
    if "@" in text:
        text, currency = text.rsplit("@", 1)
        pocket = ":" + currency
    root = "Liabilities:Bank:" if account["kind"] == "credit-card" else "Assets:Bank:"
    if ":" not in text:
        return root + text + pocket
    scheme, value = text.split(":", 1)
    scheme = "-".join(part[:1].upper() + part[1:] for part in scheme.split("-"))
    value = "".join("-" if c == "/" else "dot" if c == "." else c.upper() for c in value)
    if not value or not (value[0].isupper() or value[0].isdigit()):
        value = "0" + value
    return root + scheme + ":" + value + pocket


def run(command, path):
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"FAIL {path}: {' '.join(command[:1])} exited {result.returncode}:\n"
                 f"{result.stderr[-3000:]}")
    return result.stdout


AMOUNT = re.compile(r"^\s*(-?[0-9.]+) ([A-Z]{3})\s*$")


def balances_hledger_ledger(tool, path):
    """Each account's balance as the tool prints it: {account: {currency: Decimal}}."""
    if tool == "hledger":
        out = run(["hledger", "-f", path, "balance", "--flat", "--no-total", "--empty",
                   "-O", "csv"], path)
        rows = [line.split('","') for line in out.strip().splitlines()[1:]]
        pairs = [(r[0].strip('"'), r[1].strip('"')) for r in rows]
    else:
        out = run(["ledger", "-f", path, "balance", "--flat", "--no-total", "--empty",
                   "--balance-format", "%(account)\t%(display_total)\n"], path)
        pairs = [line.split("\t", 1) for line in out.splitlines() if "\t" in line]
    result = {}
    for account, amounts in pairs:
        for part in re.split(r",\s*|\n", amounts):
            if not part.strip() or part.strip() == "0":
                continue
            match = AMOUNT.match(part)
            if not match:
                sys.exit(f"FAIL {path}: cannot read {tool}'s amount {part!r} of {account}")
            result.setdefault(account, {})[match.group(2)] = Decimal(match.group(1))
    return result


def balances_beancount(path, bean_check):
    run([bean_check, path], path)
    from beancount import loader
    from beancount.core import data
    entries, errors, _ = loader.load_file(path)
    if errors:
        sys.exit(f"FAIL {path}: beancount: {errors[0]}")
    result = {}
    for entry in entries:
        if isinstance(entry, data.Transaction):
            for posting in entry.postings:
                per = result.setdefault(posting.account, {})
                per[posting.units.currency] = (per.get(posting.units.currency, Decimal(0))
                                               + posting.units.number)
    return result


def first_assertion_broken(tool, path):
    """The file with its first balance assertion off by one minor unit."""
    text = open(path, encoding="utf-8").read()
    pattern = (re.compile(r"^(\d{4}-\d\d-\d\d balance \S+  )(-?[0-9.]+)", re.M)
               if tool == "beancount" else re.compile(r"( [A-Z]{3} = )(-?[0-9.]+)"))
    match = pattern.search(text)
    if not match:
        return None
    number = match.group(2)
    digits = len(number.split(".")[1]) if "." in number else 0
    changed = Decimal(number) + Decimal(1).scaleb(-digits)
    changed_text = f"{changed:.{digits}f}"
    return text[:match.start(2)] + changed_text + text[match.end(2):]


def main():
    tool, path, accounts_path, bean_check = sys.argv[1:5]
    accounts = json.load(open(accounts_path, encoding="utf-8"))
    if tool == "beancount":
        printed = balances_beancount(path, bean_check)
    else:
        printed = balances_hledger_ledger(tool, path)
    for account in accounts:
        name = export_name(account)
        expected = Decimal(account["balance"]["decimal"])
        got = printed.get(name, {}).get(account["currency"], Decimal(0))
        if got != expected:
            sys.exit(f"FAIL {path}: {tool} gives {name} {got} {account['currency']}, "
                     f"statements accounts {expected}")
        others = [c for c in printed.get(name, {}) if c != account["currency"]]
        if others:
            sys.exit(f"FAIL {path}: {name} holds {others} besides {account['currency']}")
    banks = [a for a in printed if a.startswith(("Assets:", "Liabilities:"))]
    if len(banks) != len(accounts):
        sys.exit(f"FAIL {path}: {tool} lists {len(banks)} bank accounts, the ledger "
                 f"{len(accounts)}")
    assertions = len(re.findall(r" [A-Z]{3} = |^\d{4}-\d\d-\d\d balance ",
                                open(path, encoding="utf-8").read(), re.M))
    broken = first_assertion_broken(tool, path)
    if broken is not None:
        with open(path + ".broken", "w", encoding="utf-8") as out:
            out.write(broken)
        command = ([bean_check, path + ".broken"] if tool == "beancount"
                   else [tool, "-f", path + ".broken", "balance"])
        if subprocess.run(command, capture_output=True).returncode == 0:
            sys.exit(f"FAIL {path}: {tool} accepts a wrong balance assertion")
    print(f"ok {path}: {tool} accepts it ({assertions} balance assertions checked, "
          f"{'a wrong one refused' if broken else 'none to break'}); "
          f"{len(accounts)} accounts' balances equal")


main()
