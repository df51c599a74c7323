#!/usr/bin/env python3
"""Tests of scripts/check-citations.py and scripts/rewrite-citations.py on temporary trees (`make lint` runs them)."""
import importlib.util
import pathlib
import subprocess
import sys
import tempfile
import textwrap
import unittest

HERE = pathlib.Path(__file__).resolve().parent


def load(name):
    spec = importlib.util.spec_from_file_location(name.replace("-", "_"), HERE / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


checker = load("check-citations")
rewriter = load("rewrite-citations")

APPLE_RULES = """\
# Apple's rules

## 0. Decision procedure
### 1.2 Suites
### 2.1 Rules
### 2.3d The CT log list
"""
PINNING_RULES = """\
# Pinning

## 1. AFNetworking
### 1.3 Decision table
### 3.3 Validation
### 3.4 Decision
### 7.3 Mistakes
"""


class Tree:
    """A temporary repository: files given as {relative path: text}."""

    def __init__(self, files):
        self.folder = tempfile.TemporaryDirectory(prefix="citation-check-")
        self.root = pathlib.Path(self.folder.name)
        for rel, text in files.items():
            path = self.root / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(textwrap.dedent(text))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.folder.cleanup()


def base(**extra):
    files = {"docs/apple-rules.md": APPLE_RULES, "docs/pinning-rules.md": PINNING_RULES,
             "docs/usage.md": "# Usage\n", "docs/json-output.md": "# JSON\n",
             "Makefile": "lint:\n"}
    files.update(extra)
    return files


class CheckCitationsTests(unittest.TestCase):
    def problems(self, files):
        with Tree(files) as tree:
            return checker.check(tree.root)

    def test_clean_tree_passes(self):
        swift = """\
            /// The suites (docs/apple-rules.md §1.2, §2.3d; docs/pinning-rules.md §3.3–3.4).
            /// See docs/usage.md and usage.md.
            let url = "https://example.com"  // a string with // inside is not a comment
            """
        self.assertEqual(self.problems(base(**{"Sources/A/A.swift": swift})), [])

    def test_outside_references_fail_with_file_and_line(self):
        swift = """\
            import Foundation
            /// TrustKit (pinning.md §3).
            /// The era table (ats-rules.md §0) and the budget (design.md §5).
            let help = "see pinning.md §7.1"
            // style.md, C and OpenSSL; ../shared/reference/apple-clienthellos.json
            """
        found = self.problems(base(**{"Sources/A/A.swift": swift}))
        self.assertEqual([p.split(": ", 1)[0] for p in found], [
            "Sources/A/A.swift:2", "Sources/A/A.swift:3", "Sources/A/A.swift:3", "Sources/A/A.swift:4",
            "Sources/A/A.swift:5", "Sources/A/A.swift:5", "Sources/A/A.swift:5"])
        self.assertIn("pinning.md", found[0])
        self.assertIn("ats-rules.md", found[1])
        self.assertIn("design.md", found[2])

    def test_missing_files_fail(self):
        md = """\
            # Page
            The rules are in docs/missing.md and [the guide](guide.md); see also `Sources/Gone/`.
            ```sh
            atscheck pins check --pins Pins/api.json   # an example of a user's file: not a citation
            ```
            """
        found = self.problems(base(**{"docs/page.md": md}))
        self.assertEqual(len(found), 3, found)
        self.assertTrue(all(p.startswith("docs/page.md:2: ") for p in found), found)
        self.assertTrue(any("docs/missing.md" in p for p in found))
        self.assertTrue(any("guide.md" in p for p in found))
        self.assertTrue(any("Sources/Gone" in p for p in found))

    def test_unknown_section_fails(self):
        swift = """\
            /// Fine: docs/apple-rules.md §0 A–F.
            /// Wrong: docs/apple-rules.md §9.9, and docs/pinning-rules.md §3.3–3.5.
            """
        found = self.problems(base(**{"Tests/T/T.swift": swift}))
        self.assertEqual(found, [
            "Tests/T/T.swift:2: cites docs/apple-rules.md §9.9, which has no such section",
            "Tests/T/T.swift:2: cites docs/pinning-rules.md §3.5, which has no such section"])

    def test_string_paths_and_data_files_are_not_citations(self):
        swift = 'let folders = ["Tests/Fixtures/none"]  // the fixtures\n'
        found = self.problems(base(**{"Tests/T/T.swift": swift,
                                      "Tests/Fixtures/NOTICE.md": "from Examples/Elsewhere/Info.plist\n",
                                      "scripts/data.json": '{"path": "Sources/App/Info.plist"}\n'}))
        self.assertEqual(found, [])

    def test_data_files_still_refuse_outside_references(self):
        found = self.problems(base(**{"Tests/S/app.html": "<dd>as for PEM, pinning.md §1.1</dd>\n"}))
        self.assertEqual(len(found), 1)
        self.assertTrue(found[0].startswith("Tests/S/app.html:1: "))

    def test_gitignored_generated_file_is_accepted(self):
        found = self.problems(base(**{".gitignore": "Sources/Gen/stamp.h\n.build/\n",
                                      "Makefile": "## stamp: writes Sources/Gen/stamp.h\n"}))
        self.assertEqual(found, [])

    def test_command_line_exit_status(self):
        with Tree(base(**{"README.md": "See pinning.md.\n"})) as tree:
            run = subprocess.run([sys.executable, str(HERE / "check-citations.py"), "--root", str(tree.root)],
                                 capture_output=True, text=True)
        self.assertEqual(run.returncode, 1)
        self.assertTrue(run.stdout.startswith("README.md:1: "), run.stdout)


class RewriteCitationsTests(unittest.TestCase):
    def test_rewrites_and_is_idempotent(self):
        before = {
            "Sources/A/A.swift": """\
                /// (reference `ats-rules.md` §0 A–F), TrustKit (pinning.md §3.3–3.4), leaf (reference §2.1).
                let help = "hashed over the wrong bytes (pinning.md §7.3)."
                /// Field names are part of the JSON contract (design.md §3).
                """,
            "docs/usage.md": "Where the CONFLICT rows of `shared/reference/ats-rules.md` disagree.\n",
            "docs/pins.md": "The rules come from `reference/pinning.md` (section numbers below refer to it).\n",
        }
        with Tree(base(**before)) as tree:
            changed = rewriter.rewrite(tree.root)
            self.assertEqual(sorted(changed), ["Sources/A/A.swift", "docs/pins.md", "docs/usage.md"])
            swift = (tree.root / "Sources/A/A.swift").read_text()
            self.assertIn("/// (`docs/apple-rules.md` §0 A–F), TrustKit (docs/pinning-rules.md §3.3–3.4), leaf "
                          "(docs/apple-rules.md §2.1).", swift)
            self.assertIn('"hashed over the wrong bytes (docs/pinning-rules.md §7.3)."', swift)
            self.assertIn("(docs/json-output.md)", swift)
            self.assertIn("[apple-rules.md](apple-rules.md)", (tree.root / "docs/usage.md").read_text())
            self.assertIn("[pinning-rules.md](pinning-rules.md)", (tree.root / "docs/pins.md").read_text())
            snapshot = {p: (tree.root / p).read_text() for p in before}
            self.assertEqual(rewriter.rewrite(tree.root), [])
            self.assertEqual({p: (tree.root / p).read_text() for p in before}, snapshot)
            self.assertEqual(checker.check(tree.root), [])

    def test_overlong_lines_are_rewrapped_keeping_the_text(self):
        comment = "    /// " + "word " * 19 + "(pinning.md §1.1, §4), and why when\n    /// it is not the top level.\n"
        string = ("        help: \"\"\"\n            " + "word " * 18 + "blob (as for PEM, pinning.md §1.1); its \\\n"
                  "            PublicKey mode drops it.\n            \"\"\"\n")
        rules = rewriter.rules_for("Sources/A/A.swift")
        for text in (comment, string):
            new = rewriter.rewrite_text(text, rules, swift=True)
            self.assertTrue(all(len(line) <= rewriter.LIMIT for line in new.split("\n")), new)
            self.assertEqual(new.count("\n"), text.count("\n"), new)

            def words(t):
                return " ".join(t.replace("///", " ").replace("\\\n", " ").split())
            self.assertEqual(words(new), words(text).replace("pinning.md", "docs/pinning-rules.md"))


if __name__ == "__main__":
    unittest.main()
