#!/usr/bin/env python3
"""Generate the public-suffix rules TrustKit checks its configuration against, from TrustKit's own source.

    python3 scripts/trustkit-registry/generate.py --repo PATH [--rev REV] [--compare PSL.dat]

PATH is a clone (or bare mirror) of https://github.com/datatheorem/TrustKit. TrustKit does not read the public
suffix list at run time: it bundles Google's domain-registry-provider with the list compiled into a trie
(TrustKit/Dependencies/domain_registry/registry_tables_genfiles/registry_tables.h), last regenerated in TrustKit
commit f17d848 on 2018-07-10 ("Update public suffix list for #170") and unchanged through 3.0.7. That snapshot,
not today's list, decides what TrustKit refuses (parse_configuration.m: a domain whose registry length is 0, and
TSKIncludeSubdomains on a domain that is itself a registry). So this script decodes the trie back into its rules
and writes

    Sources/Pinning/Libraries/TrustKit/TrustKitRegistryRules.swift

one rule per line (`com`, `co.uk`, `*.kawasaki.jp`, `!city.kawasaki.jp`), with the commit, the table's own last
change and the date of generation. It also checks the one structural fact the Swift search relies on: a node's
children sit in the leaf table exactly when none of them has children of its own.

--compare prints how the snapshot differs from another copy of the list (Debian's `publicsuffix` package installs
/usr/share/publicsuffix/public_suffix_list.dat): rules TrustKit lacks are names it refuses as invalid, and rules
it has that the list since dropped are suffixes it still refuses includeSubdomains on.

Needs git and Python 3.9+. Nothing in the output is hand-edited: rerun the script to update.
"""

import argparse
import datetime
import os
import re
import subprocess
import sys

TABLE = "TrustKit/Dependencies/domain_registry/registry_tables_genfiles/registry_tables.h"
QUOTES = '"' * 3
OUT = "Sources/Pinning/Libraries/TrustKit/TrustKitRegistryRules.swift"


def git(repo, *args):
    out = subprocess.run(["git", "--git-dir", repo, *args], check=True, capture_output=True)
    return out.stdout.decode()


def git_dir(path):
    for candidate in (os.path.join(path, ".git"), path):
        if os.path.exists(os.path.join(candidate, "HEAD")):
            return candidate
    sys.exit(f"{path}: not a git repository")


def array_body(text, name):
    match = re.search(r"static const [^\n]*\b" + name + r"\[\] =\s*(.*?);\n", text, re.S)
    if not match:
        sys.exit(f"{TABLE}: no {name}")
    return match.group(1)


def constant(text, name):
    match = re.search(r"static const size_t " + name + r" = (\d+);", text)
    if not match:
        sys.exit(f"{TABLE}: no {name}")
    return int(match.group(1))


def decode(text):
    """The rules of the trie, checked against the table's own comments, and the structural check."""
    literals = re.findall(r'"((?:[^"\\]|\\.)*)"', array_body(text, "kStringTable"))
    strings = "".join(literals).replace("\\0", "\0")
    if "\\" in strings:
        sys.exit(f"{TABLE}: an escape other than \\0 in kStringTable")
    nodes = [
        (int(a), int(b), int(c), int(d), comment.strip())
        for a, b, c, d, comment in re.findall(
            r"\{\s*(\d+),\s*(\d+),\s*(\d+),\s*(\d+)\s*\},\s*/\*(.*?)\*/", array_body(text, "kNodeTable"))
    ]
    leaves = [(int(a), comment.strip())
              for a, comment in re.findall(r"(\d+),\s*/\*(.*?)\*/", array_body(text, "kLeafNodeTable"))]
    leaf_offset = constant(text, "kLeafChildOffset")
    root_children = constant(text, "kNumRootChildren")
    if leaf_offset != len(nodes):
        sys.exit(f"{TABLE}: kLeafChildOffset {leaf_offset} is not the node count {len(nodes)}")

    def label(offset):
        return strings[offset:strings.index("\0", offset)]

    rules = []
    seen = set()

    def walk(first, count, parent):
        for index in range(first, first + count):
            offset, child, children, terminal, comment = nodes[index]
            name = label(offset) + ("." + parent if parent else "")
            # Identical child lists are stored once and shared, so a comment names one of the sharers: only
            # the label itself must agree.
            if label(offset) != comment.split(".")[0]:
                sys.exit(f"{TABLE}: node {index} decodes to {name}, its comment says {comment}")
            seen.add(index)
            if terminal:
                rules.append(name)
            if children == 0:
                continue
            if child >= leaf_offset:
                for leaf in range(child - leaf_offset, child - leaf_offset + children):
                    leaf_name = label(leaves[leaf][0]) + "." + name
                    if label(leaves[leaf][0]) != leaves[leaf][1].split(".")[0]:
                        sys.exit(f"{TABLE}: leaf {leaf} decodes to {leaf_name}, its comment says {leaves[leaf][1]}")
                    rules.append(leaf_name)
            else:
                grandchildren = [nodes[i][2] for i in range(child, child + children)]
                if all(n == 0 for n in grandchildren):
                    sys.exit(f"{TABLE}: {name} keeps childless children in the node table: the leaf rule fails")
                walk(child, children, name)
            if child >= leaf_offset and children == 0:
                sys.exit(f"{TABLE}: {name} points into the leaf table with no children")

    walk(0, root_children, "")
    if len(seen) != len(nodes):
        sys.exit(f"{TABLE}: {len(nodes) - len(seen)} nodes unreachable from the root")
    return sorted(set(rules))


def read_list(path):
    rules = set()
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            line = line.strip()
            if line and not line.startswith("//"):
                rules.add(line.split()[0])
    return rules


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repo", required=True, help="a clone or bare mirror of datatheorem/TrustKit")
    parser.add_argument("--rev", default="HEAD", help="the TrustKit revision to read (default HEAD)")
    parser.add_argument("--out", default=OUT)
    parser.add_argument("--compare", help="a public_suffix_list.dat to compare the snapshot with")
    args = parser.parse_args()
    repo = git_dir(args.repo)

    commit = git(repo, "rev-parse", args.rev).strip()
    described = git(repo, "describe", "--tags", commit).strip()
    table_commit, table_date, table_subject = git(
        repo, "log", "-1", "--format=%h%x09%cs%x09%s", commit, "--", TABLE).strip().split("\t")
    rules = decode(git(repo, "show", f"{commit}:{TABLE}"))
    if any("\\" in r or QUOTES in r or "\n" in r for r in rules):
        sys.exit("a rule would break the Swift string literal")

    header = f"""// Generated by scripts/trustkit-registry/generate.py; do not edit.
//
// The public suffix rules TrustKit's domain registry holds, decoded from its compiled trie
//   {TABLE}
// of https://github.com/datatheorem/TrustKit at {described}
//   ({commit}).
// The table last changed in TrustKit {table_commit} on {table_date} ("{table_subject}"):
// the Public Suffix List of that time, ICANN and private sections together. Generated on {datetime.date.today().isoformat()}: {len(rules)} rules.
// The list's data is the Public Suffix List (https://publicsuffix.org, MPL 2.0); the trie and its search are
// Google's domain-registry-provider (Apache 2.0).

extension TrustKitDomainRegistry {{
    /// TrustKit's bundled public suffix rules, one per line (see the header for the source and date).
    static let bundledRules = {QUOTES}
"""
    body = "".join(f"        {rule}\n" for rule in rules)
    with open(args.out, "w", encoding="utf-8") as out:
        out.write(header + body + f"        {QUOTES}\n}}\n")
    print(f"wrote {args.out}: {len(rules)} rules from TrustKit {described}, table of {table_date}")

    if args.compare:
        current = read_list(args.compare)
        missing = sorted(current - set(rules))
        dropped = sorted(set(rules) - current)
        print(f"{args.compare}: {len(current)} rules; {len(missing)} not in TrustKit's snapshot "
              f"(e.g. {', '.join(missing[:8])}), {len(dropped)} only in the snapshot (e.g. {', '.join(dropped[:8])})")


if __name__ == "__main__":
    main()
