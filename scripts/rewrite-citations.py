#!/usr/bin/env python3
"""Rewrites citations of the references that live outside the repository into citations of its own docs.

`ats-rules.md §X` becomes `docs/apple-rules.md §X` and `pinning.md §X` becomes `docs/pinning-rules.md §X` (the
pages keep the references' section numbers); the ATS reference cited as "reference §X" becomes
`docs/apple-rules.md §X`; the design notes become the docs that state the same contract (`design.md §2` → the exit
status table of docs/usage.md, `§3` → docs/json-output.md, `§5` → the probe in docs/architecture.md, `§6` → the
probing guarantees of docs/reliability.md); the style note on OpenSSL's error queue cites swift-nio-ssl directly.
In Markdown pages under docs/ (and Pins/README.md) the new citations are relative links; docs/rules.md is generated
from the rule catalogue's text, so it gets the same plain text as the Swift strings.

The new names are longer. A Swift comment line, or a line of a multi-line string continued with a trailing `\`,
that the rewrite takes past 120 columns is re-wrapped: its last words move to the start of the next line of the
same comment or string (a new line when the comment's paragraph ends there), so the text and the string's value
stay the same. Code lines are left to swift-format: the Swift files changed are run through `swift format
--in-place` when `swift` is on PATH (--no-format skips it).

Idempotent: a second run changes nothing. Re-run it after merging a branch that brings old citations
(`python3 scripts/rewrite-citations.py`), then `make lint` (scripts/check-citations.py) checks that none is left.

Usage: rewrite-citations.py [--root DIR] [--check] [--no-format]
  --check: change nothing; list the files it would change, exit 1 if any"""
import argparse
import pathlib
import re
import shutil
import subprocess
import sys

LIMIT = 120

SCANNED = ["Sources", "Tests", "docs", "scripts", "Examples", "Fuzz", "Pins", "README.md", "Makefile", "Package.swift"]
SELF = {"scripts/check-citations.py", "scripts/rewrite-citations.py", "scripts/test_check_citations.py"}
SUFFIXES = {".swift", ".md", ".py", ".sh", ".html", ".txt", ".yml", ".yaml", ""}

APPLE = "docs/apple-rules.md"
PINNING = "docs/pinning-rules.md"
OLD_ATS = r"(?<![\w/.-])ats-rules\.md"
OLD_PINNING = r"(?<![\w/.-])pinning\.md"

# Everywhere but the hand-written Markdown pages: plain repository paths (code comments, rule text, docs/rules.md,
# the HTML snapshot). Specific phrasings first, then the plain file names.
PLAIN = [
    (r"reference `ats-rules\.md`", f"`{APPLE}`"),
    (r"\(§0 of the reference\)", f"({APPLE} §0)"),
    (r"\(reference CONFLICT rows\)", f"(the CONFLICT rows of {APPLE})"),
    (r"\(the reference says ", f"({APPLE} §6 says "),
    (r"against the reference's tables", f"against the tables of {APPLE}"),
    (r"come from the reference tables", f"come from the tables of {PINNING}"),
    (r"decides as the reference table\b", f"decides as the table of {PINNING} §1.3"),
    (r"\breference (§\d)", APPLE + r" \1"),
    (OLD_ATS, APPLE),
    (OLD_PINNING, PINNING),
    (r"(?<![\w/.-])design\.md §2\b", "docs/usage.md#exit-status"),
    (r"(?<![\w/.-])design\.md §3\b", "docs/json-output.md"),
    (r"(?<![\w/.-])design\.md §5\b", "docs/architecture.md#the-probe"),
    (r"(?<![\w/.-])design\.md §6\b", "docs/reliability.md#probing-deadlines-retries-unknown"),
    (r"\(style\.md, C and OpenSSL\)", "(as swift-nio-ssl's SSLErrors.swift does in `buildErrorStack()`)"),
]


def linked(prefix):
    """Rules for a hand-written Markdown page whose folder reaches docs/ through `prefix` ("" in docs/)."""
    def link(name, anchor=""):
        return f"[{name}]({prefix}{name}{anchor})" if not prefix else f"[docs/{name}]({prefix}{name}{anchor})"
    return [
        (r"`shared/reference/ats-rules\.md`", link("apple-rules.md")),
        (r"`reference/pinning\.md`", link("pinning-rules.md")),
        (r"\(reference (§\d)", "(" + link("apple-rules.md").replace("\\", "\\\\") + r" \1"),
        (r"Where the reference marks a CONFLICT", "Where " + link("apple-rules.md") + " marks a CONFLICT"),
        (OLD_ATS, link("apple-rules.md")),
        (OLD_PINNING, link("pinning-rules.md")),
        (r"(?<![\w/.-])design\.md §2\b", link("usage.md", "#exit-status")),
        (r"(?<![\w/.-])design\.md §3\b", link("json-output.md")),
        (r"(?<![\w/.-])design\.md §5\b", link("architecture.md", "#the-probe")),
        (r"\bdesign §5\b", link("architecture.md", "#the-probe")),
        (r"(?<![\w/.-])design\.md §6\b", link("reliability.md", "#probing-deadlines-retries-unknown")),
    ]


def rules_for(rel):
    if rel.endswith(".md") and rel.startswith("docs/") and rel != "docs/rules.md":
        return linked("")
    if rel == "Pins/README.md":
        return linked("../docs/")
    return PLAIN


def files(root):
    for entry in SCANNED:
        path = root / entry
        candidates = [path] if path.is_file() else sorted(path.rglob("*")) if path.is_dir() else []
        for file in candidates:
            rel = file.relative_to(root).as_posix()
            if file.is_file() and rel not in SELF and file.suffix in SUFFIXES and "/." not in f"/{rel}":
                yield file, rel


COMMENT = re.compile(r"^(\s*(?:///|//) )\S")
PARAGRAPH_START = re.compile(r"^(?:- |\* |```|> |\||#|[0-9]+\. )")


def reflow(lines, index):
    """Moves the last words of an overlong comment or continued-string line to the next line, cascading."""
    while index < len(lines) and len(lines[index]) > LIMIT:
        line = lines[index]
        following = lines[index + 1] if index + 1 < len(lines) else None
        if comment := COMMENT.match(line):
            prefix = comment.group(1)
            cut = line.rfind(" ", len(prefix), LIMIT + 1)
            if cut <= len(prefix):
                return
            head, moved = line[:cut], line[cut + 1:]
            rest = following[len(prefix):] if following is not None and following.startswith(prefix) else ""
            if rest and not rest.startswith(" ") and not PARAGRAPH_START.match(rest):
                lines[index + 1] = prefix + moved + " " + rest
            else:
                lines.insert(index + 1, prefix + moved)
            lines[index] = head
        elif line.endswith(" \\") and following is not None and not following.strip().startswith('"""'):
            indent = line[:len(line) - len(line.lstrip())]
            if not following.startswith(indent) or following[len(indent):].startswith(" "):
                return
            cut = line.rfind(" ", len(indent), LIMIT - 1)
            if cut <= len(indent):
                return
            moved = line[cut + 1:-2]
            lines[index] = line[:cut] + " \\"
            lines[index + 1] = indent + moved + " " + following[len(indent):]
        else:
            return
        index += 1


def rewrite_text(text, rules, swift):
    lines = text.split("\n")
    for index, line in enumerate(lines):
        new = line
        for pattern, replacement in rules:
            new = re.sub(pattern, replacement, new)
        lines[index] = new
    if swift:  # after all lines are rewritten, so a moved word never meets an old citation again
        original = text.split("\n")
        changed = {i for i, line in enumerate(lines) if line != original[i]}
        offset = 0
        for index in sorted(changed):
            before = len(lines)
            reflow(lines, index + offset)
            offset += len(lines) - before
    return "\n".join(lines)


def rewrite(root, write=True):
    """Rewrites every file under `root`; returns the relative paths changed (or that would change)."""
    root = pathlib.Path(root).resolve()
    changed = []
    for path, rel in files(root):
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        new = rewrite_text(text, rules_for(rel), swift=rel.endswith(".swift"))
        if new != text:
            changed.append(rel)
            if write:
                path.write_text(new, encoding="utf-8")
    return changed


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=pathlib.Path(__file__).resolve().parent.parent)
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if a file would change")
    parser.add_argument("--no-format", action="store_true", help="do not run swift format on the Swift files changed")
    args = parser.parse_args()
    changed = rewrite(args.root, write=not args.check)
    for rel in changed:
        print(rel)
    swift_files = [rel for rel in changed if rel.endswith(".swift")]
    if swift_files and not args.check and not args.no_format and shutil.which("swift"):
        # The longer names can push a code line (a string argument) past the line length.
        subprocess.run(["swift", "format", "--in-place", *swift_files], cwd=args.root, check=True)
    return 1 if args.check and changed else 0


if __name__ == "__main__":
    sys.exit(main())
