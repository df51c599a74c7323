#!/usr/bin/env python3
"""Copy the Apple ClientHellos that testssl.sh keeps in etc/client-simulation.txt into TLSHello's tests.

    python3 scripts/apple-hello-captures/extract.py --repo PATH [--rev REV] [--out Tests/TLSHelloTests/Captures]

PATH is a clone (or bare mirror) of https://github.com/testssl/testssl.sh. Its etc/client-simulation.txt holds, per
simulated client, the ClientHello bytes that SSL Labs captured (and some taken by hand with Wireshark) in a
`handshakebytes+=("…")` line after the client's `names+=("…")` line. Every client whose name starts with "Safari" or
"Apple" is written to OUT/<short name>.hex: a `#` header recording the repository, the path, the commit, its date and
the date of extraction, then the hex exactly as stored, 64 characters a line. Nothing is hand-edited: rerun the script
to update, and commit what it writes.

Needs git and Python 3.9+.
"""

import argparse
import datetime
import pathlib
import re
import subprocess
import sys

SOURCE = "etc/client-simulation.txt"
ENTRY = re.compile(r'^\s*(names|short|handshakebytes)\+=\("(.*)"\)\s*$')


def git(repo, *args):
    return subprocess.run(["git", "--git-dir", repo, *args], check=True, capture_output=True, text=True).stdout


def clients(text):
    """Yields (name, short, hex) for each client of the file, in file order."""
    current = {}
    for line in text.splitlines():
        match = ENTRY.match(line)
        if not match:
            continue
        key, value = match.groups()
        if key == "names":
            if "handshakebytes" in current:
                yield current["names"], current.get("short", ""), current["handshakebytes"]
            current = {}
        current[key] = value
    if "handshakebytes" in current:
        yield current["names"], current.get("short", ""), current["handshakebytes"]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repo", required=True, help="testssl.sh clone or bare git directory")
    parser.add_argument("--rev", default="HEAD")
    parser.add_argument("--out", default="Tests/TLSHelloTests/Captures")
    options = parser.parse_args()
    repo = options.repo
    if (pathlib.Path(repo) / ".git").exists():
        repo = str(pathlib.Path(repo) / ".git")
    commit = git(repo, "rev-parse", options.rev).strip()
    committed = git(repo, "show", "-s", "--format=%cI", commit).strip()
    text = git(repo, "show", f"{commit}:{SOURCE}")
    today = datetime.date.today().isoformat()
    out = pathlib.Path(options.out)
    out.mkdir(parents=True, exist_ok=True)
    written = 0
    for name, short, hexbytes in clients(text):
        if not (name.startswith("Safari") or name.startswith("Apple")):
            continue
        if not short or not re.fullmatch(r"[0-9a-fA-F]+", hexbytes) or len(hexbytes) % 2:
            print(f"extract: skipping {name!r}: no short name or not hex", file=sys.stderr)
            continue
        lines = [
            f"# client: {name}",
            "# source: https://github.com/testssl/testssl.sh " + SOURCE + " (handshakebytes)",
            f"# commit: {commit} ({committed})",
            f"# extracted: {today} by scripts/apple-hello-captures/extract.py",
            f"# bytes: {len(hexbytes) // 2}",
        ]
        lines += [hexbytes[i:i + 64].lower() for i in range(0, len(hexbytes), 64)]
        (out / f"{short}.hex").write_text("\n".join(lines) + "\n", encoding="utf-8")
        written += 1
    print(f"extract: wrote {written} captures from {commit[:12]} to {out}")
    return 0 if written else 1


if __name__ == "__main__":
    sys.exit(main())
