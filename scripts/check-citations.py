#!/usr/bin/env python3
"""Every document the code and the docs cite is in the repository (`make lint`).

Checked in Sources/, Tests/, docs/, scripts/, Examples/, Fuzz/, Pins/, README.md, Makefile and Package.swift:

- a path that starts with one of this repository's top-level folders (`docs/usage.md`, `Sources/Pinning/`)
  names a file or folder that exists;
- a bare Markdown file name (`rules.md`) names a file of the repository;
- a relative Markdown link (`[pins](pins.md)`, `../README.md`) resolves from the page that holds it;
- no text cites the references that live outside the repository: `ats-rules.md`, `pinning.md`, `design.md`,
  `style.md`, `apple-clienthellos`, or a path through `../shared` or `shared/reference` (their facts are in
  docs/apple-rules.md and docs/pinning-rules.md);
- a section cited as `apple-rules.md §X` or `pinning-rules.md §X` (ranges `§3.3–3.5` included) is a numbered heading
  of that page.

The outside references are refused anywhere in a line, string literals included (rule text is output). Paths
are checked where they are citations, not data: in the comments of Swift, Python, shell and the Makefile, and in
Markdown prose (not fenced code blocks, whose paths are examples of a user's files); data files (JSON, plists,
HTML snapshots) and Tests/Fixtures are checked for the outside references only. Accepted although absent: files
the root .gitignore names (generated ones, such as the build stamp), paths of other repositories that start like
one of ours (EXTERNAL_PATHS), and the files the recipes of docs/architecture.md ask a reader to create
(PLACEHOLDER_PATHS). Exit 1 with one `FILE:LINE: reason` line per problem.

Usage: check-citations.py [--root DIR]"""
import argparse
import os
import pathlib
import re
import sys

SCANNED = ["Sources", "Tests", "docs", "scripts", "Examples", "Fuzz", "Pins", "README.md", "Makefile", "Package.swift"]
TOP_LEVEL = ["Sources", "Tests", "docs", "scripts", "Examples", "Fuzz", "Pins"]
# This checker, its test and the rewrite script name the outside references on purpose.
SELF = {"scripts/check-citations.py", "scripts/rewrite-citations.py", "scripts/test_check_citations.py"}
TEXT_SUFFIXES = {".swift", ".md", ".py", ".sh", ".json", ".yml", ".yaml", ".txt", ".html", ".plist", ".h", ".c",
                 ".modulemap", ".in", ""}
# Paths inside other repositories, cited as such, that start with one of this repository's folder names.
EXTERNAL_PATHS = {
    "docs/getting-started.md",  # datatheorem/TrustKit
    "Tests/Tests/AFSecurityPolicyTests.m",  # AFNetworking/AFNetworking
}
# Files docs/architecture.md's recipes tell a reader to add.
PLACEHOLDER_PATHS = {
    "Sources/Pinning/Libraries/NewLib",
    "Sources/Reporting/Formats/CSVFormat.swift",
    "Tests/ReportingTests/CSVFormatTests.swift",
    "Sources/Judging/Audit/Rules/NewRule.swift",
    "Sources/ATSPolicy/Plist/Rules/NewRule.swift",
}
PROSE_SUFFIXES = {".md"}
COMMENTED_SUFFIXES = {".swift": "//", ".py": "#", ".sh": "#", "": "#"}
CITED_DOCS = {"apple-rules.md": "docs/apple-rules.md", "pinning-rules.md": "docs/pinning-rules.md"}

FORBIDDEN = [
    (re.compile(r"(?<![\w-])ats-rules\.md"), "cites ats-rules.md, which is outside the repository: "
     "cite docs/apple-rules.md (same section numbers)"),
    (re.compile(r"(?<![\w-])pinning\.md"), "cites pinning.md, which is outside the repository: "
     "cite docs/pinning-rules.md (same section numbers)"),
    (re.compile(r"(?<![\w-])design\.md"), "cites design.md, which is outside the repository: cite the doc in docs/ "
     "that states the rule (usage.md, json-output.md, architecture.md, reliability.md)"),
    (re.compile(r"(?<![\w-])style\.md"), "cites style.md, which is outside the repository: cite the source directly"),
    (re.compile(r"apple-clienthellos"), "cites apple-clienthellos, which is outside the repository"),
    (re.compile(r"\.\./shared\b|shared/reference\b|/work/shared\b"), "cites a file outside the repository"),
]
REPO_PATH = re.compile(r"(?<![\w/.@:-])((?:%s)/[\w./+-]*[\w+-]/?)" % "|".join(TOP_LEVEL))
MD_NAME = re.compile(r"(?<![\w/.@:-])([\w][\w.+-]*\.md)(?![\w-])")
MD_LINK = re.compile(r"\]\(([^)\s]+)\)")
DOC_CITE = re.compile(r"(apple-rules\.md|pinning-rules\.md)")
SECTION_ID = r"\d+[a-z]?(?:\.\d+[a-z]?)*"
SECTION_REF = re.compile(r"§\s?(%s)(?:\s*[–-]\s*§?(%s))?" % (SECTION_ID, SECTION_ID))
HEADING = re.compile(r"^#{2,4}\s+(%s)\.?\s" % SECTION_ID)


def repository_files(root):
    """Every file and folder of the tree, relative, skipping hidden folders (.build, .git)."""
    found = set()
    for folder, subfolders, files in os.walk(root):
        subfolders[:] = [s for s in subfolders if not s.startswith(".")]
        rel = os.path.relpath(folder, root)
        if rel != ".":
            found.add(rel.replace(os.sep, "/"))
        for name in files:
            found.add(os.path.normpath(os.path.join(rel, name)).replace(os.sep, "/"))
    return found


def scanned_files(root):
    for entry in SCANNED:
        path = root / entry
        if path.is_file():
            yield path
        elif path.is_dir():
            for folder, subfolders, files in os.walk(path):
                subfolders[:] = [s for s in subfolders if not s.startswith(".")]
                for name in sorted(files):
                    file = pathlib.Path(folder) / name
                    if file.suffix in TEXT_SUFFIXES:
                        yield file


def sections(path):
    """The section numbers of a cited page: its `## 2.3d Title` headings."""
    if not path.is_file():
        return set()
    return {m.group(1) for line in path.read_text(encoding="utf-8").splitlines() if (m := HEADING.match(line))}


def citing_text(line, marker):
    """The comment part of a code line: the text after the first comment marker outside a string literal."""
    index = 0
    while (index := line.find(marker, index)) >= 0:
        if line[:index].count('"') % 2 == 0:
            return line[index:]
        index += len(marker)
    return ""


def check_line(rel, number, line, files, basenames, cited_sections, page_folder, cites):
    """The problems of one line; `cites` is the part of the line whose paths are citations ("" for none)."""
    problems = []

    def problem(reason):
        problems.append(f"{rel}:{number}: {reason}")

    for pattern, reason in FORBIDDEN:
        if pattern.search(line):
            problem(reason)
    if rel.endswith(".md"):
        named = MD_LINK.sub("]", cites)  # link targets are resolved below, from the page's folder
    else:
        named = cites
    for match in REPO_PATH.finditer(named):
        path = match.group(1).rstrip("/").rstrip(".")
        if path not in files and path not in EXTERNAL_PATHS and path not in PLACEHOLDER_PATHS:
            problem(f"cites {path}, which is not in the repository")
    for match in MD_NAME.finditer(named):
        name = match.group(1)
        if any(pattern.search(name) for pattern, _ in FORBIDDEN):
            continue  # already refused above
        if name not in basenames and not (page_folder and f"{page_folder}/{name}" in files):
            problem(f"cites {name}, which is not in the repository")
    if rel.endswith(".md") and cites:
        for match in MD_LINK.finditer(line):
            target = match.group(1).split("#", 1)[0]
            if not target or re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("<"):
                continue
            resolved = os.path.normpath(os.path.join(page_folder, target)).replace(os.sep, "/")
            if resolved not in files and resolved.rstrip("/") not in files:
                problem(f"links to {target}, which is not in the repository")
    mentions = list(DOC_CITE.finditer(line))
    for index, mention in enumerate(mentions):
        end = mentions[index + 1].start() if index + 1 < len(mentions) else len(line)
        # The citation runs to the closing bracket of its parenthesis: `(apple-rules.md §1.2, §1.4)`.
        scope = re.split(r"[)\]]", line[mention.end():end].lstrip(")]`*\"' "), maxsplit=1)[0]
        known = cited_sections[mention.group(1)]
        for ref in SECTION_REF.finditer(scope):
            for section in filter(None, ref.groups()):
                if section not in known:
                    problem(f"cites {CITED_DOCS[mention.group(1)]} §{section}, which has no such section")
    return list(dict.fromkeys(problems))  # a reason once per line


def check(root):
    root = pathlib.Path(root).resolve()
    files = repository_files(root)
    ignore = root / ".gitignore"
    if ignore.is_file():  # generated files the build writes, named exactly (Sources/AppleTrustData/build-stamp.h)
        files |= {line.strip().lstrip("/") for line in ignore.read_text().splitlines()
                  if line.strip() and not line.startswith("#") and not any(c in line for c in "*?[")}
    basenames = {pathlib.PurePosixPath(f).name for f in files}
    cited_sections = {name: sections(root / path) for name, path in CITED_DOCS.items()}
    problems = []
    for path in scanned_files(root):
        rel = path.relative_to(root).as_posix()
        if rel in SELF:
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        page_folder = pathlib.PurePosixPath(rel).parent.as_posix()
        page_folder = "" if page_folder == "." else page_folder
        suffix = path.suffix if path.name != "Makefile" else ""
        data = rel.startswith("Tests/Fixtures/") or (suffix not in PROSE_SUFFIXES and suffix not in COMMENTED_SUFFIXES)
        fenced = False
        for number, line in enumerate(text.splitlines(), start=1):
            if suffix in PROSE_SUFFIXES and line.lstrip().startswith("```"):
                fenced = not fenced
                cites = ""
            elif data or fenced:
                cites = ""
            elif suffix in PROSE_SUFFIXES:
                cites = line
            else:
                cites = citing_text(line, COMMENTED_SUFFIXES[suffix])
            problems += check_line(rel, number, line, files, basenames, cited_sections, page_folder, cites)
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=pathlib.Path(__file__).resolve().parent.parent)
    problems = check(parser.parse_args().root)
    for line in problems:
        print(line)
    if problems:
        print(f"{len(problems)} citation problem(s): cite files of the repository (docs/apple-rules.md, "
              "docs/pinning-rules.md) or the source directly", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
