#!/usr/bin/env python3
"""Lints every plist of the issue-32 corpus with atscheck and checks what the issue asks of each:

- no exit 65 on a file Xcode builds (every fetched Info.plist is one a public project builds);
- no duplicate alert: no finding twice (rule, line, key path, configuration), one plist.key.duplicate per key;
- every message that quotes `--explain: …` says what `plist --explain` says: each quoted reason is one of the
  explanation's reasons (host names aside).

    python3 scripts/plist-corpus/check.py --atscheck .build/debug/atscheck                # the derived cases
    python3 scripts/plist-corpus/check.py --atscheck .build/debug/atscheck .build/plist-corpus

Folders are searched for *.plist; Tests/Fixtures/plist-corpus (the derived cases) is always included. Exits 1
when any file breaks a rule, and prints each.
"""
import argparse
import glob
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DERIVED = os.path.join(HERE, "..", "..", "Tests", "Fixtures", "plist-corpus")


def run(atscheck: str, args: list[str]) -> tuple[int, str, str]:
    done = subprocess.run([atscheck] + args, capture_output=True, text=True, timeout=600)
    return done.returncode, done.stdout, done.stderr


def reasons(explanation) -> set[str]:
    """Every cell reason of an explanation (one object or a list of them): as written, and with the pattern's
    example host replaced by HOST."""
    out = set()
    for one in explanation if isinstance(explanation, list) else [explanation]:
        for host in one.get("hosts", []):
            for era in host.get("eras", []):
                for cell in era.get("clients", []):
                    out.add(cell["reason"])
                    out.add(cell["reason"].replace(host["exampleHost"], "HOST"))
    return out


QUOTE = re.compile(r"\(--explain[^:]*: (.*)\)$")


def quoted_reasons(message: str) -> list[str]:
    """The reasons a message quotes from --explain: one, or one per era (`on iOS 9: …; on iOS 10–16: …`)."""
    match = QUOTE.search(re.sub(r" \(only with [^)]*\)$", "", message))
    if not match:
        return []
    parts = re.split(r"(?:^|; )on iOS [^:]+: ", match.group(1))
    return [part for part in parts if part]


def check(atscheck: str, path: str) -> list[str]:
    problems = []
    status, out, err = run(atscheck, ["plist", "--format", "json", path])
    if status == 65:
        return [f"exit 65: {err.strip()}"]
    findings = json.loads(out).get("findings", [])
    places = [(f["rule"], f.get("line"), f.get("keyPath"), f.get("configuration")) for f in findings]
    if len(set(places)) != len(places):
        problems.append("a finding is reported twice")
    duplicates = [f.get("keyPath") for f in findings if f["rule"] == "plist.key.duplicate"]
    if len(set(duplicates)) != len(duplicates):
        problems.append("a duplicated key has more than one alert")
    quoting = [f for f in findings if "(--explain" in f["message"]]
    if quoting:
        status, out, err = run(atscheck, ["plist", "--explain", "--format", "json", path])
        known = reasons(json.loads(out))
        for finding in quoting:
            keys = finding.get("keyPathComponents") or []
            host = keys[2] if len(keys) > 2 else None
            for reason in quoted_reasons(finding["message"]):
                if reason not in known and (host is None or reason.replace(host, "HOST") not in known):
                    problems.append(f"line {finding.get('line')}: '{reason}' is not a reason --explain gives")
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--atscheck", default=".build/debug/atscheck")
    parser.add_argument("folders", nargs="*")
    args = parser.parse_args()
    files = sorted(glob.glob(os.path.join(DERIVED, "*.plist")))
    for folder in args.folders:
        files += sorted(p for p in glob.glob(os.path.join(folder, "*")) if not p.endswith(".json"))
    bad = 0
    for path in files:
        problems = check(args.atscheck, path)
        bad += bool(problems)
        for problem in problems:
            print(f"{path}: {problem}")
    print(f"{len(files)} plists, {bad} with a problem")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
