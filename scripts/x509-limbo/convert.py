#!/usr/bin/env python3
"""Convert x509-limbo's server-validation testcases into per-case fixtures for atscheck's conformance runner.

    python3 scripts/x509-limbo/convert.py LIMBO_JSON --commit SHA [--mirror GITDIR | --commit-date ISO]
    python3 scripts/x509-limbo/convert.py --mirror GITDIR --commit SHA

x509-limbo (https://github.com/C2SP/x509-limbo, C2SP) is a test suite for X.509 path validation. Its corpus is a
single file, limbo.json, that the project generates with its own harness (`limbo compile`) and commits at the
repository root. Give the file's path, or a local git directory of the repository (a clone or bare mirror) and a
commit to read limbo.json from it. With a path, --commit names the x509-limbo commit the file belongs to; with
--mirror as well, the script reads that commit's date from the mirror and records whether the file is the
committed blob or one generated locally (limbo's generator draws fresh keys on every run, so a generated file
holds different certificates from the committed one, with the same cases and expectations).

Every testcase whose validation_kind is SERVER is written to OUT (default Tests/Conformance/limbo), one directory
per case, named after the case id made safe for file systems ("::" becomes "__", any other character outside
[A-Za-z0-9._-] becomes "_"; SOURCE.json maps each directory back to its id):

    chain.pem     the peer certificate, then the untrusted intermediates in limbo's order
    anchors.pem   the trusted certificates, in limbo's order
    crls.pem      the case's CRLs, only when it has some (atscheck's `cert` command takes none)
    case.json     id, description, features, importance, expected_result, expected_peer_name, validation_time
                  (ISO-8601 UTC, "Z"), max_chain_depth, extended_key_usage, key_usage, signature_algorithms,
                  conflicts_with, crls

and OUT/SOURCE.json records the repository, commit, commit date, conversion date, command, counts and what was
skipped. Keys (peer_certificate_key) are never written: atscheck needs certificates only. Case directories in OUT
that the new input no longer has are removed. The output depends only on the input and the arguments: the only
date written is --converted-on, which defaults to the commit's date, so a rerun on the same input is
byte-identical. Python 3.11 standard library only; nothing here touches the network.
"""

import argparse
import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from datetime import UTC, datetime

REPOSITORY = "https://github.com/C2SP/x509-limbo"
REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT_OUT = os.path.join("Tests", "Conformance", "limbo")
CASE_FILE = "case.json"
LIST_FIELDS = ("features", "extended_key_usage", "key_usage", "signature_algorithms", "conflicts_with")


class ConvertError(Exception):
    """A one-line reason the conversion cannot go on."""


def fail(message):
    print(f"convert.py: error: {message}", file=sys.stderr)
    sys.exit(1)


def git(gitdir, *args, binary=False):
    """Run git against GITDIR; return its stdout, or raise ConvertError with git's own first line."""
    try:
        done = subprocess.run(["git", f"--git-dir={gitdir}", *args], capture_output=True, check=False)
    except FileNotFoundError:
        raise ConvertError("git is not installed; it is needed to read --mirror") from None
    if done.returncode != 0:
        reason = done.stderr.decode(errors="replace").strip().splitlines()
        raise ConvertError(f"git {' '.join(args)}: {reason[0] if reason else 'failed'}")
    return done.stdout if binary else done.stdout.decode()


def git_blob_id(data):
    """The id git gives a blob with these bytes (SHA-1 of "blob <size>\\0" + data)."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def safe_name(case_id):
    """A directory name for a case id: '::' → '__', anything outside [A-Za-z0-9._-] → '_'."""
    name = re.sub(r"[^A-Za-z0-9._-]", "_", case_id.replace("::", "__"))
    if name in ("", ".", ".."):
        name = "_" + name
    return name


def iso_z(value):
    """Limbo's validation_time (ISO-8601, '+00:00') as UTC with 'Z'; milliseconds kept when present."""
    if value is None:
        return None
    moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    if moment.utcoffset() is None:
        raise ConvertError(f"validation_time {value!r} has no time zone")
    moment = moment.astimezone(UTC)
    if moment.microsecond:
        return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def pem_block(pems):
    """Concatenate PEM strings, each ending in exactly one newline."""
    return "".join(p if p.endswith("\n") else p + "\n" for p in pems)


def dump_json(value):
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"


def case_document(case):
    peer = case.get("expected_peer_name")
    doc = {
        "id": case["id"],
        "description": case.get("description", ""),
        "features": case.get("features"),
        "importance": case.get("importance"),
        "expected_result": case["expected_result"],
        "expected_peer_name": {"kind": peer["kind"], "value": peer["value"]} if peer else None,
        "validation_time": iso_z(case.get("validation_time")),
        "max_chain_depth": case.get("max_chain_depth"),
        "extended_key_usage": case.get("extended_key_usage"),
        "key_usage": case.get("key_usage"),
        "signature_algorithms": case.get("signature_algorithms"),
        "conflicts_with": case.get("conflicts_with"),
        "crls": "crls.pem" if case.get("crls") else None,
    }
    for field in LIST_FIELDS:  # limbo writes null and [] for "no constraint"; one spelling is easier to read
        if doc[field] is None:
            doc[field] = []
    return doc


def load_input(args):
    """Return (bytes of limbo.json, provenance dict)."""
    provenance = {}
    committed_blob = None
    if args.mirror:
        if not os.path.isdir(args.mirror):
            raise ConvertError(f"--mirror {args.mirror}: no such directory")
        commit = git(args.mirror, "rev-parse", "--verify", f"{args.commit}^{{commit}}").strip()
        args.commit = commit
        args.commit_date = git(args.mirror, "show", "-s", "--format=%cI", commit).strip()
        try:
            committed_blob = git(args.mirror, "rev-parse", f"{commit}:limbo.json").strip()
        except ConvertError:
            committed_blob = None
    if args.limbo_json:
        try:
            with open(args.limbo_json, "rb") as handle:
                data = handle.read()
        except OSError as error:
            raise ConvertError(f"cannot read {args.limbo_json}: {error.strerror}") from None
        blob = git_blob_id(data)
        if committed_blob is None:
            provenance["origin"] = "file (not compared with a committed limbo.json)"
        elif blob == committed_blob:
            provenance["origin"] = "the limbo.json committed at this commit"
        else:
            provenance["origin"] = (
                f"not the limbo.json committed at this commit (blob {committed_blob}): a file generated from the "
                "commit's sources has the same cases with other certificates, as limbo's generator draws new keys "
                "on every run (see notes)"
            )
    else:
        if committed_blob is None:
            raise ConvertError(f"there is no limbo.json in commit {args.commit} of {args.mirror}")
        try:
            data = git(args.mirror, "cat-file", "blob", committed_blob, binary=True)
        except ConvertError:
            raise ConvertError(
                f"limbo.json (blob {committed_blob}) is listed at {args.commit[:12]} but absent from the mirror "
                "(the snapshot leaves out its largest files); generate it with x509-limbo's own harness at that "
                "commit and pass the file's path, keeping --mirror and --commit"
            ) from None
        provenance["origin"] = "the limbo.json committed at this commit"
    provenance["sha256"] = hashlib.sha256(data).hexdigest()
    provenance["gitBlob"] = git_blob_id(data)
    if committed_blob:
        provenance["committedBlob"] = committed_blob
    return data, provenance


def recorded_command(argv):
    """The command line as run, with the script named relative to the repository."""
    script = os.path.relpath(os.path.abspath(__file__), REPO_ROOT)
    return shlex.join(["python3", script, *argv])


def convert(args, argv):
    data, provenance = load_input(args)
    try:
        limbo = json.loads(data)
    except json.JSONDecodeError as error:
        raise ConvertError(f"limbo.json is not JSON: {error.msg} at line {error.lineno}") from None
    if not isinstance(limbo, dict) or not isinstance(limbo.get("testcases"), list):
        raise ConvertError("limbo.json has no 'testcases' list: is this x509-limbo's corpus?")
    if limbo.get("version") != 1:
        raise ConvertError(f"limbo.json schema version {limbo.get('version')!r}; this script reads version 1")

    if args.commit_date is None:
        raise ConvertError("the commit date is unknown: pass --mirror (to read it) or --commit-date")
    commit_date = datetime.fromisoformat(args.commit_date.replace("Z", "+00:00")).astimezone(UTC)
    converted_on = args.converted_on or commit_date.strftime("%Y-%m-%d")

    cases = limbo["testcases"]
    skipped = {}
    server = []
    for case in cases:
        kind = case.get("validation_kind")
        if kind == "SERVER":
            server.append(case)
        else:
            reason = f"validation_kind {kind} (atscheck judges TLS servers only)"
            skipped[reason] = skipped.get(reason, 0) + 1

    directories = {}
    folded = {}
    for case in server:
        name = safe_name(case["id"])
        if name in directories or name.lower() in folded:  # also distinct on case-insensitive file systems
            other = directories.get(name) or folded[name.lower()]
            raise ConvertError(f"case ids {other!r} and {case['id']!r} map to the same directory {name!r}")
        directories[name] = case["id"]
        folded[name.lower()] = case["id"]

    out = args.out
    os.makedirs(out, exist_ok=True)
    # Remove case directories the new input no longer has (only ours: those holding a case.json).
    for entry in sorted(os.listdir(out)):
        path = os.path.join(out, entry)
        if entry not in directories and os.path.isfile(os.path.join(path, CASE_FILE)):
            shutil.rmtree(path)

    with_crls = 0
    for case in server:
        path = os.path.join(out, safe_name(case["id"]))
        os.makedirs(path, exist_ok=True)
        files = {
            "chain.pem": pem_block([case["peer_certificate"], *case.get("untrusted_intermediates", [])]),
            "anchors.pem": pem_block(case.get("trusted_certs", [])),
            CASE_FILE: dump_json(case_document(case)),
        }
        if case.get("crls"):
            files["crls.pem"] = pem_block(case["crls"])
            with_crls += 1
        for existing in os.listdir(path):
            if existing not in files:
                os.remove(os.path.join(path, existing))
        for filename, text in files.items():
            write_if_changed(os.path.join(path, filename), text)

    source = {
        "repository": REPOSITORY,
        "commit": args.commit,
        "commitDate": commit_date.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "convertedOn": converted_on,
        "command": recorded_command(argv),
        "input": provenance | {"notes": args.note},
        "counts": {
            "testcases": len(cases),
            "serverCases": len(server),
            "written": len(server),
            "withCRLs": with_crls,
            "skipped": dict(sorted(skipped.items())),
        },
        "notWritten": {
            "peer_certificate_key": "keys are not needed: atscheck judges certificates only",
            "expected_peer_names": "client-validation field (empty for server cases)",
            "validation_kind": "always SERVER here",
        },
        "layout": {
            "chain.pem": "peer certificate, then untrusted_intermediates in limbo's order",
            "anchors.pem": "trusted_certs in limbo's order",
            "crls.pem": "crls, only for cases that have some",
            "case.json": "the case's fields; null lists written as []; validation_time as ISO-8601 UTC with Z",
        },
        "directories": dict(sorted(directories.items())),
    }
    write_if_changed(os.path.join(out, "SOURCE.json"), dump_json(source))
    return source


def write_if_changed(path, text):
    data = text.encode()
    try:
        with open(path, "rb") as handle:
            if handle.read() == data:
                return
    except FileNotFoundError:
        pass
    with open(path, "wb") as handle:
        handle.write(data)


def parse_args(argv):
    parser = argparse.ArgumentParser(
        description="Convert x509-limbo's SERVER testcases into fixtures for scripts/x509-limbo/run.py."
    )
    parser.add_argument("limbo_json", nargs="?", help="path to limbo.json (or read it from --mirror)")
    parser.add_argument("--mirror", metavar="GITDIR", help="a clone or bare mirror of C2SP/x509-limbo")
    parser.add_argument("--commit", metavar="SHA", help="the x509-limbo commit the corpus comes from (required)")
    parser.add_argument("--commit-date", metavar="ISO", help="that commit's date (read from --mirror when given)")
    parser.add_argument("--converted-on", metavar="YYYY-MM-DD", help="date recorded as the conversion date "
                        "(default: the commit's date, so reruns are byte-identical)")
    parser.add_argument("--note", action="append", default=[], metavar="TEXT",
                        help="a line recorded in SOURCE.json input.notes (repeatable), e.g. how the file was made")
    parser.add_argument("--out", default=None, help=f"output directory (default {DEFAULT_OUT} in the repository)")
    args = parser.parse_args(argv)
    if not args.commit:
        parser.error("--commit SHA is required: the fixtures must say which x509-limbo commit they come from")
    if not args.limbo_json and not args.mirror:
        parser.error("give the path of limbo.json, or --mirror GITDIR to read it from the commit")
    if args.converted_on and not re.fullmatch(r"\d{4}-\d{2}-\d{2}", args.converted_on):
        parser.error(f"--converted-on {args.converted_on!r}: expected YYYY-MM-DD")
    if args.out is None:
        args.out = os.path.join(REPO_ROOT, DEFAULT_OUT)
    return args


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    args = parse_args(argv)
    try:
        source = convert(args, argv)
    except ConvertError as error:
        fail(str(error))
    counts = source["counts"]
    skipped = ", ".join(f"{n} {why}" for why, n in counts["skipped"].items()) or "none"
    print(f"{counts['written']} server cases of {counts['testcases']} written to {args.out} "
          f"(x509-limbo {source['commit'][:12]}); skipped: {skipped}")


if __name__ == "__main__":
    main()
