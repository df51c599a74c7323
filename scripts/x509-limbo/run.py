#!/usr/bin/env python3
"""Run atscheck over the x509-limbo fixtures and compare its verdicts with limbo's, or with Apple's where they differ.

    python3 scripts/x509-limbo/run.py [--atscheck .build/debug/atscheck] [--cases Tests/Conformance/limbo]
                                      [--subset fast] [--jobs 2] [--check] [--write-doc docs/conformance.md]

The fixtures come from scripts/x509-limbo/convert.py (one directory per x509-limbo SERVER testcase, with
chain.pem, anchors.pem and case.json; SOURCE.json says which x509-limbo commit). For each case the runner runs

    atscheck cert CASE/chain.pem --trust-store none --ca-file CASE/anchors.pem --no-fetch [--host NAME] [--at TIME]
        --format json

(--no-fetch: a chain whose issuer is missing is not completed from its AIA caIssuers URL, which would reach the
internet; limbo's harnesses do not fetch either), with --host the expected peer name (DNS name or IP address text;
left out when the case has none) and --at the case's validation time (ISO-8601 UTC, e.g. 2024-01-01T00:00:00Z;
milliseconds kept when the case has them; left out when it has none). The anchors are --ca-file roots, which
atscheck treats as user- or MDM-installed. The exit status is the verdict: 0 accepted (SUCCESS), 1 rejected
(FAILURE), 2 with the verdict 'ambiguous' undecided for lack of data (AMBIGUOUS), anything else, or no exit within --timeout seconds (default 30), is an error. The JSON
(endpoints[0].evaluation, or .ats, and .certificate.verifyError) is read only to show the first reason.

The expected result is limbo's expected_result, except for the cases listed in
scripts/x509-limbo/apple-differences.json, where Apple's trust rules decide and the table gives Apple's result,
a reason and its source. Each case then falls in one class:

    agree           atscheck's result is limbo's expectation (no table entry)
    apple           it differs from limbo as the table says Apple does
    closed-code     the table says Apple's answer depends on closed code (apple: CLOSED), with the reason
    unexplained     it differs from limbo and no table entry explains it
    contradicts     the table has an entry, and atscheck's result is not the table's
    not-comparable  it differs from limbo, but the case constrains something `atscheck cert` has no option for
                    (CRLs, a maximum chain depth below the number of intermediates, key usage, signature
                    algorithms, an EKU other than serverAuth, an RFC 822 peer name)
    error           atscheck exited with another status, or timed out

--check exits 1 when any case is unexplained, contradicts the table or errs (and, on a full run, when a table
entry matches no case). --write-doc PATH writes the conformance page (figures, every disagreement, the table).
Python 3.11 standard library only; atscheck runs on local files, nothing here touches the network.
"""

import argparse
import base64
import concurrent.futures
import dataclasses
import fnmatch
import json
import os
import shlex
import subprocess
import sys
import time

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT_ATSCHECK = os.path.join(".build", "debug", "atscheck")
DEFAULT_CASES = os.path.join("Tests", "Conformance", "limbo")
SUBSETS = {"fast": os.path.join("Tests", "Conformance", "fast-subset.txt")}
DEFAULT_DIFFERENCES = os.path.join("scripts", "x509-limbo", "apple-differences.json")
RESULTS = ("SUCCESS", "FAILURE")
APPLE_RESULTS = ("SUCCESS", "FAILURE", "AMBIGUOUS", "CLOSED")
CLASSES = ("agree", "apple", "closed-code", "unexplained", "contradicts", "not-comparable", "error")
FAILING_CLASSES = ("unexplained", "contradicts", "error")


class RunError(Exception):
    """A one-line reason the run cannot start."""


@dataclasses.dataclass
class Outcome:
    case_id: str
    directory: str
    expected: str
    apple: dict | None
    result: str  # SUCCESS, FAILURE or ERROR
    status: int | None
    verdict: str | None
    reason: str
    seconds: float
    unsupported: list
    command: list
    klass: str = ""


def repo_path(path):
    return path if os.path.isabs(path) else os.path.join(REPO_ROOT, path)


def load_cases(cases_dir):
    if not os.path.isdir(cases_dir):
        raise RunError(f"no fixtures at {cases_dir}: convert limbo.json first (scripts/x509-limbo/convert.py)")
    cases = []
    for entry in sorted(os.listdir(cases_dir)):
        path = os.path.join(cases_dir, entry, "case.json")
        if not os.path.isfile(path):
            continue
        try:
            with open(path, encoding="utf-8") as handle:
                case = json.load(handle)
        except (OSError, json.JSONDecodeError) as error:
            raise RunError(f"cannot read {path}: {error}") from None
        if case.get("expected_result") not in RESULTS:
            raise RunError(f"{path}: expected_result {case.get('expected_result')!r} is not SUCCESS or FAILURE")
        cases.append((os.path.join(cases_dir, entry), case))
    if not cases:
        raise RunError(f"no case directories in {cases_dir}: convert limbo.json first (scripts/x509-limbo/convert.py)")
    return cases


def load_source(cases_dir):
    try:
        with open(os.path.join(cases_dir, "SOURCE.json"), encoding="utf-8") as handle:
            return json.load(handle)
    except (OSError, json.JSONDecodeError):
        return None


def load_subset(path, known_ids):
    try:
        with open(path, encoding="utf-8") as handle:
            lines = handle.read().splitlines()
    except OSError as error:
        raise RunError(f"cannot read the subset {path}: {error.strerror}") from None
    ids = []
    for number, line in enumerate(lines, 1):
        case_id = line.split("#", 1)[0].strip()
        if case_id:
            if case_id not in known_ids:
                raise RunError(f"{path}:{number}: {case_id!r} is not a case in the fixtures")
            ids.append(case_id)
    return ids


def load_differences(path, cases):
    try:
        with open(path, encoding="utf-8") as handle:
            table = json.load(handle)
    except OSError as error:
        raise RunError(f"cannot read {path}: {error.strerror}") from None
    except json.JSONDecodeError as error:
        raise RunError(f"{path} is not JSON: {error.msg} at line {error.lineno}") from None
    entries = table.get("differences") if isinstance(table, dict) else None
    if not isinstance(entries, list):
        raise RunError(f"{path} has no 'differences' list")
    for number, entry in enumerate(entries, 1):
        where = f"{path}: entry {number}"
        for field in ("id", "apple", "reason", "source"):
            if not isinstance(entry.get(field), str) or not entry[field].strip():
                raise RunError(f"{where} has no {field}")
        if entry["apple"] not in APPLE_RESULTS:
            raise RunError(f"{where} ({entry['id']}): apple must be one of {', '.join(APPLE_RESULTS)}")
    matches = {}
    for _, case in cases:
        found = [e for e in entries if e["id"] == case["id"] or fnmatch.fnmatchcase(case["id"], e["id"])]
        if len(found) > 1:
            raise RunError(f"{path}: case {case['id']} is matched by several entries: "
                           + ", ".join(e["id"] for e in found))
        if found:
            if found[0]["apple"] == case["expected_result"]:
                raise RunError(f"{path}: entry {found[0]['id']} gives {case['id']} limbo's own expectation "
                               f"({case['expected_result']}): that is not a difference, remove it or narrow the glob")
            matches[case["id"]] = found[0]
    unmatched = [e["id"] for e in entries if not any(m is e for m in matches.values())]
    return table, matches, unmatched


def unsupported_inputs(case, directory):
    """What the case asks of the validator that `atscheck cert` cannot be told, and that could have made limbo
    expect FAILURE. Each such input only narrows what is accepted, so it can explain atscheck accepting a case
    limbo rejects, never the reverse. A key-usage constraint the leaf meets, or a depth limit the chain is within,
    cannot bite and is not listed."""
    reasons = []
    if case.get("crls"):
        reasons.append("CRLs")
    depth = case.get("max_chain_depth")
    if depth is not None and depth < intermediates(directory):
        reasons.append(f"max_chain_depth {depth}")
    wanted = case.get("key_usage") or []
    if wanted:
        present = leaf_key_usage(os.path.join(directory, "chain.pem"))
        if present is None or not set(wanted) <= present:
            reasons.append("key_usage " + ",".join(wanted))
    if case.get("signature_algorithms"):
        reasons.append("signature_algorithms " + ",".join(case["signature_algorithms"]))
    eku = [e for e in case.get("extended_key_usage") or [] if e != "serverAuth"]
    if eku:
        reasons.append("extended_key_usage " + ",".join(eku))
    peer = case.get("expected_peer_name")
    if peer and peer.get("kind") not in ("DNS", "IP"):
        reasons.append(f"{peer.get('kind')} peer name")
    return reasons


KEY_USAGE_BITS = ("digitalSignature", "contentCommitment", "keyEncipherment", "dataEncipherment", "keyAgreement",
                  "keyCertSign", "cRLSign", "encipherOnly", "decipherOnly")
KEY_USAGE_OID = bytes.fromhex("551d0f")  # 2.5.29.15


def der_items(data):
    """The (tag, content) items of a DER string, in order."""
    items, at = [], 0
    while at < len(data):
        tag, size = data[at], data[at + 1]
        at += 2
        if size & 0x80:
            count = size & 0x7F
            size = int.from_bytes(data[at:at + count], "big")
            at += count
        items.append((tag, data[at:at + size]))
        at += size
    return items


def leaf_key_usage(chain_path):
    """The key-usage names of the first certificate in a PEM file; set() without the extension; None if unread."""
    try:
        with open(chain_path, encoding="ascii") as handle:
            text = handle.read()
        body = text.split("-----BEGIN CERTIFICATE-----", 1)[1].split("-----END CERTIFICATE-----", 1)[0]
        certificate = der_items(base64.b64decode("".join(body.split())))[0][1]
        tbs = der_items(der_items(certificate)[0][1])
        for tag, content in tbs:
            if tag != 0xA3:  # [3] extensions
                continue
            for _, extension in der_items(der_items(content)[0][1]):
                fields = der_items(extension)
                if fields[0] == (0x06, KEY_USAGE_OID):
                    bits = der_items(fields[-1][1])[0][1]  # OCTET STRING holding a BIT STRING
                    value = int.from_bytes(bits[1:], "big") if len(bits) > 1 else 0
                    width = 8 * (len(bits) - 1)
                    return {name for i, name in enumerate(KEY_USAGE_BITS) if i < width and value >> (width - 1 - i) & 1}
        return set()
    except (OSError, IndexError, ValueError, UnicodeDecodeError):
        return None


def intermediates(directory):
    """How many certificates chain.pem holds after the peer's."""
    try:
        with open(os.path.join(directory, "chain.pem"), encoding="ascii", errors="replace") as handle:
            return max(handle.read().count("-----BEGIN CERTIFICATE-----") - 1, 0)
    except OSError:
        return 0


def build_command(atscheck, directory, case):
    # --no-fetch: the fixtures' AIA URLs are public hosts; the run stays on local files.
    command = [atscheck, "cert", os.path.join(directory, "chain.pem"), "--trust-store", "none",
               "--ca-file", os.path.join(directory, "anchors.pem"), "--no-fetch"]
    peer = case.get("expected_peer_name")
    if peer:
        command += ["--host", peer["value"]]
    if case.get("validation_time"):
        command += ["--at", case["validation_time"]]
    return command + ["--format", "json"]


def first_reason(stdout, stderr):
    """The first reason atscheck gives: a violation, else the verify error, else stderr's first line."""
    try:
        report = json.loads(stdout)
        endpoint = report["endpoints"][0]
    except (ValueError, KeyError, IndexError, TypeError):
        report, endpoint = None, None
    verdict = None
    if isinstance(endpoint, dict):
        evaluation = endpoint.get("evaluation") or endpoint.get("ats") or {}
        if isinstance(evaluation, dict):
            verdict = evaluation.get("verdict")
            for violation in evaluation.get("violations") or []:
                if isinstance(violation, dict) and violation.get("message"):
                    rule = violation.get("rule")
                    return verdict, (f"{rule}: " if rule else "") + str(violation["message"])
        certificate = endpoint.get("certificate")
        if isinstance(certificate, dict) and certificate.get("verifyError"):
            return verdict, f"verify error: {certificate['verifyError']}"
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    if lines:
        return verdict, lines[0]
    if report is None and stdout.strip():
        return verdict, "output is not atscheck's JSON"
    return verdict, ""


def run_case(atscheck, directory, case, timeout):
    command = build_command(atscheck, directory, case)
    started = time.monotonic()
    try:
        done = subprocess.run(command, capture_output=True, timeout=timeout, stdin=subprocess.DEVNULL, check=False)
    except subprocess.TimeoutExpired:
        return "ERROR", None, None, f"timed out after {timeout:g} s", time.monotonic() - started, command
    except OSError as error:
        return "ERROR", None, None, f"cannot run {atscheck}: {error.strerror}", time.monotonic() - started, command
    seconds = time.monotonic() - started
    stdout = done.stdout.decode(errors="replace")
    stderr = done.stderr.decode(errors="replace")
    verdict, reason = first_reason(stdout, stderr)
    code = done.returncode
    if code == 0:
        return "SUCCESS", code, verdict, reason, seconds, command
    if code == 1:
        return "FAILURE", code, verdict, reason, seconds, command
    if code == 2 and verdict == "ambiguous":
        # A verdict this run's data cannot settle (a missing issuer not fetched: the runner passes --no-fetch, as no
        # test reaches the internet) is neither accepted nor rejected: AMBIGUOUS, which only an apple: AMBIGUOUS
        # entry of the table explains.
        return "AMBIGUOUS", code, verdict, reason, seconds, command
    if code < 0:
        why = f"killed by signal {-code}"
    elif code == 65:
        why = "exit 65: the chain file could not be read"
    else:
        why = f"exit {code}"
    return "ERROR", code, verdict, why + (f": {reason}" if reason else ""), seconds, command


def classify(outcome):
    apple = outcome.apple
    if outcome.result == "ERROR":
        return "error"
    if apple:
        if apple["apple"] == "CLOSED":
            return "closed-code"
        if apple["apple"] == "AMBIGUOUS":
            holds = outcome.verdict == "ambiguous"
        else:
            holds = outcome.result == apple["apple"]
        return "apple" if holds else "contradicts"
    if outcome.result == outcome.expected:
        return "agree"
    lenient = outcome.expected == "FAILURE" and outcome.result == "SUCCESS"
    return "not-comparable" if lenient and outcome.unsupported else "unexplained"


def atscheck_version(atscheck):
    try:
        done = subprocess.run([atscheck, "--version"], capture_output=True, timeout=30, check=False,
                              stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired):
        return None
    text = done.stdout.decode(errors="replace").strip().splitlines()
    return text[0] if done.returncode == 0 and text else None


def cell(text):
    return str(text).replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ").strip() or "—"


def shown_result(outcome):
    if outcome.result == "ERROR":
        return "error"
    if outcome.verdict == "ambiguous":
        return f"{outcome.result} (ambiguous)"
    return outcome.result


def render_doc(outcomes, counts, source, table, entry_cases, unmatched, args, version):
    """The conformance page; outcomes is None for a --dry-run (no figures yet). entry_cases maps id(entry) to
    the limbo expectations of the cases the entry matches."""
    total = len(outcomes or [])
    lines = []
    add = lines.append
    add("# Conformance: x509-limbo")
    add("")
    add("<!-- Generated by scripts/x509-limbo/run.py --write-doc. Do not edit: change the runner, the fixtures or "
        "scripts/x509-limbo/apple-differences.json, then run `make conformance`. -->")
    add("")
    add("[x509-limbo](https://github.com/C2SP/x509-limbo) is C2SP's test suite for X.509 certificate path "
        "validation: each testcase is a peer certificate, untrusted intermediates, trusted anchors, an optional "
        "peer name and validation time, and the result RFC 5280 and the CA/Browser Forum Baseline Requirements "
        "call for. atscheck is judged on its server-validation (SERVER) cases. Where Apple's trust rules "
        "(trustd) decide differently, the expected result is Apple's, from the table at the end.")
    add("")
    add("## Source")
    add("")
    if source:
        counts_src = source.get("counts", {})
        skipped = "; ".join(f"{n} {why}" for why, n in (counts_src.get("skipped") or {}).items()) or "none"
        add(f"- x509-limbo commit [`{source.get('commit', '?')[:12]}`]"
            f"({source.get('repository', 'https://github.com/C2SP/x509-limbo')}/tree/{source.get('commit', '')}) "
            f"of {source.get('commitDate', '?')}, converted on {source.get('convertedOn', '?')} by "
            "`scripts/x509-limbo/convert.py` into `Tests/Conformance/limbo/`.")
        origin = (source.get("input") or {}).get("origin")
        if origin:
            add(f"- The corpus file: {origin}.")
        for note in (source.get("input") or {}).get("notes") or []:
            add(f"- {note}")
        add(f"- {counts_src.get('serverCases', '?')} SERVER cases of {counts_src.get('testcases', '?')}; "
            f"skipped: {skipped}.")
    else:
        add("- The fixtures have no SOURCE.json: their x509-limbo commit is unknown.")
    add("")
    add("## Running it")
    add("")
    add("- `make conformance` builds the debug binary, runs every case and rewrites this page.")
    add("- `make test` runs the fast subset (`Tests/Conformance/fast-subset.txt`, about 40 cases, one or two per "
        "kind of rule) with `--check`.")
    add("- By hand: `python3 scripts/x509-limbo/run.py [--subset fast] [--check] [--jobs N] "
        "[--write-doc docs/conformance.md]`.")
    add("")
    add("Each case is one run of")
    add("")
    add("```")
    add("atscheck cert CASE/chain.pem --trust-store none --ca-file CASE/anchors.pem --no-fetch [--host NAME] "
        "[--at TIME] --format json")
    add("```")
    add("")
    add("`chain.pem` is the peer certificate followed by limbo's untrusted intermediates; `anchors.pem` holds "
        "limbo's trusted certificates, given as `--ca-file`, which atscheck treats as roots the user or an MDM "
        "administrator installed (no CT requirement; EKU, when present, must allow server use; the leaf lifetime "
        "limit of 825 days + 1 hour for leaves issued after 2019-07-01). `--host` is limbo's expected peer name "
        "(DNS name or IP address) and `--at` its validation time in ISO-8601 UTC, with milliseconds when the case's "
        "time has them; each is left out when the case has none. The exit status is the verdict: 0 accepted, "
        f"1 rejected; any other status, or no answer within {args.timeout:g} s, is an error. The first reason "
        "shown comes from the JSON report.")
    add("")
    add("## Figures")
    add("")
    if outcomes is None:
        add("None yet: this page was written with `--dry-run`, before atscheck was run over the cases. "
            "`make conformance` fills it in.")
        add("")
        return "\n".join(lines + where_apple_decides(table, {}, entry_cases, unmatched, args))
    scope = f"the `{args.subset}` subset, {total} cases" if args.subset else f"all {total} cases"
    add(f"Run over {scope}" + (f", with `{version}`." if version else "."))
    add("")
    add("| class | cases | meaning |")
    add("| --- | ---: | --- |")
    meanings = {
        "agree": "atscheck's result is limbo's expectation",
        "apple": "differs from limbo as Apple's rules do (table below)",
        "closed-code": "Apple's answer depends on closed code (table below): counted neither way",
        "unexplained": "differs from limbo, and nothing explains it",
        "contradicts": "the table gives Apple's result, and atscheck's is not it",
        "not-comparable": "differs from limbo on a case that constrains what `atscheck cert` has no option for",
        "error": "atscheck exited with another status or timed out",
    }
    for klass in CLASSES:
        add(f"| {klass} | {counts[klass]} | {meanings[klass]} |")
    add("")
    if total:
        same_limbo = counts["agree"]
        same_apple = counts["agree"] + counts["apple"]
        decidable = total - counts["closed-code"]
        closed = f", the {counts['closed-code']} whose answer is in closed code left out" if counts["closed-code"] else ""
        add(f"Agreement with limbo: {same_limbo} of {total} ({100 * same_limbo / total:.1f}%). Agreement with the "
            f"expected result (limbo's, or Apple's where the table says so): {same_apple} of {decidable} "
            f"({100 * same_apple / max(decidable, 1):.1f}%{closed}).")
        add("")
    add("## Disagreements with limbo")
    add("")
    differing = [o for o in outcomes if o.klass != "agree"]
    if not differing:
        add("None.")
    else:
        add("| case | limbo | atscheck | class | reason | source |")
        add("| --- | --- | --- | --- | --- | --- |")
        for o in differing:
            if o.apple and o.apple["apple"] == "CLOSED":
                reason = f"Apple: depends on closed code. {o.apple['reason']}"
                src = o.apple["source"]
            elif o.apple:
                reason = f"Apple: {o.apple['apple']}. {o.apple['reason']}"
                if o.klass == "contradicts" and o.reason:
                    reason += f" — atscheck says: {o.reason}"
                src = o.apple["source"]
            elif o.klass == "not-comparable":
                reason = f"needs {', '.join(o.unsupported)}" + (f"; atscheck says: {o.reason}" if o.reason else "")
                src = "limbo case input"
            else:
                reason = o.reason
                src = "unexplained" if o.klass == "unexplained" else "—"
            add(f"| `{cell(o.case_id)}` | {o.expected} | {cell(shown_result(o))} | {o.klass} | {cell(reason)} "
                f"| {cell(src)} |")
    add("")
    by_entry = {}
    for o in outcomes:
        if o.apple:
            by_entry.setdefault(id(o.apple), []).append(o)
    return "\n".join(lines + where_apple_decides(table, by_entry, entry_cases, unmatched, args))


def where_apple_decides(table, by_entry, entry_cases, unmatched, args):
    lines = []
    add = lines.append
    add("## Where Apple's rules decide")
    add("")
    add("`scripts/x509-limbo/apple-differences.json`: an entry is added only when Apple's Security source or "
        "Apple's documentation says so (cited), never to make a case agree. `CLOSED`: Apple's answer depends on "
        "closed code, named in the reason.")
    apple_src = table.get("appleSource") or {}
    if apple_src:
        add("")
        add(f"Apple source: {apple_src.get('repository', '')} at {apple_src.get('tag', '')} "
            f"(`{str(apple_src.get('commit', ''))[:12]}`).")
    add("")
    add("| case | limbo | Apple | reason | source | this run |")
    add("| --- | --- | --- | --- | --- | --- |")
    for entry in table.get("differences", []):
        runs = by_entry.get(id(entry), [])
        expected = ", ".join(sorted(set(entry_cases.get(id(entry), [])))) or "—"
        if runs and entry["apple"] == "CLOSED":
            status = "closed code"
        elif runs:
            held = sum(1 for o in runs if o.klass == "apple")
            if len(runs) == 1:
                status = "holds" if held else "does not hold"
            else:
                status = f"holds for all {held}" if held == len(runs) else f"holds for {held} of {len(runs)}"
        else:
            status = "not run"
        add(f"| `{cell(entry['id'])}` | {expected} | {entry['apple']} | {cell(entry['reason'])} | "
            f"{cell(entry['source'])} | {status} |")
    if unmatched:
        add("")
        add("Entries that match no case of these fixtures (renamed or removed upstream?): "
            + ", ".join(f"`{cell(u)}`" for u in unmatched) + ".")
    add("")
    return lines


def parse_args(argv):
    parser = argparse.ArgumentParser(description="Run atscheck over the x509-limbo fixtures.")
    parser.add_argument("--atscheck", help=f"the binary (default {DEFAULT_ATSCHECK} in the repository)")
    parser.add_argument("--cases", help=f"fixture directory (default {DEFAULT_CASES} in the repository)")
    parser.add_argument("--subset", choices=sorted(SUBSETS), help="run only the cases a subset file lists")
    parser.add_argument("--subset-file", help="read the subset from this file instead")
    parser.add_argument("--only", action="append", default=[], metavar="GLOB",
                        help="run only cases whose id matches (fnmatch; repeatable)")
    parser.add_argument("--differences", default=DEFAULT_DIFFERENCES, help="the Apple differences table")
    parser.add_argument("--jobs", type=int, default=2, help="cases run at once (default 2)")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per case (default 30)")
    parser.add_argument("--check", action="store_true",
                        help="exit 1 on an unexplained disagreement, a contradicted table entry or an error")
    parser.add_argument("--write-doc", metavar="PATH", help="write the conformance page (e.g. docs/conformance.md)")
    parser.add_argument("--results", metavar="PATH", help="write every case's outcome as JSON")
    parser.add_argument("--dry-run", action="store_true",
                        help="run nothing: print each case's command (with --write-doc: the page, without figures)")
    parser.add_argument("-v", "--verbose", action="store_true", help="print every case, not only disagreements")
    args = parser.parse_args(argv)
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    if args.timeout <= 0:
        parser.error("--timeout must be positive")
    # Defaults are the repository's paths, wherever the runner is started; paths given are taken as given.
    args.atscheck = args.atscheck or repo_path(DEFAULT_ATSCHECK)
    args.cases = args.cases or repo_path(DEFAULT_CASES)
    if args.subset_file and not args.subset:
        args.subset = os.path.basename(args.subset_file)
    return args


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        return run(args)
    except RunError as error:
        print(f"run.py: error: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # output piped into head and the like
        sys.stderr.close()
        return 0


def run(args):
    atscheck = args.atscheck
    if not os.path.isabs(atscheck) and os.sep in atscheck:
        atscheck = os.path.abspath(atscheck)
    if not args.dry_run and not (os.path.isfile(atscheck) and os.access(atscheck, os.X_OK)):
        raise RunError(f"no atscheck binary at {args.atscheck}: build it (swift build) or pass --atscheck PATH")
    cases_dir = os.path.abspath(args.cases)
    cases = load_cases(cases_dir)
    table, matches, unmatched = load_differences(repo_path(args.differences), cases)
    entry_cases = {}
    for _, case in cases:
        if case["id"] in matches:
            entry_cases.setdefault(id(matches[case["id"]]), []).append(case["expected_result"])

    selected = cases
    if args.subset:
        subset_file = args.subset_file or repo_path(SUBSETS[args.subset])
        wanted = set(load_subset(subset_file, {case["id"] for _, case in cases}))
        selected = [(d, c) for d, c in cases if c["id"] in wanted]
    if args.only:
        selected = [(d, c) for d, c in selected if any(fnmatch.fnmatchcase(c["id"], g) for g in args.only)]
        if not selected:
            raise RunError("--only matches no case")

    stale = unmatched if not args.subset and not args.only else []
    if args.dry_run:
        for directory, case in selected:
            print(shlex.join(build_command(atscheck, directory, case)))
        if args.write_doc:
            text = render_doc(None, None, load_source(cases_dir), table, entry_cases, stale, args, None)
            with open(args.write_doc, "w", encoding="utf-8") as handle:
                handle.write(text)
            print(f"wrote {args.write_doc}")
        return 0

    outcomes = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = {pool.submit(run_case, atscheck, d, c, args.timeout): (d, c) for d, c in selected}
        for future in concurrent.futures.as_completed(futures):
            directory, case = futures[future]
            result, status, verdict, reason, seconds, command = future.result()
            outcome = Outcome(case["id"], os.path.basename(directory), case["expected_result"],
                              matches.get(case["id"]), result, status, verdict, reason, seconds,
                              unsupported_inputs(case, directory), command)
            outcome.klass = classify(outcome)
            outcomes.append(outcome)
    outcomes.sort(key=lambda o: o.case_id)

    counts = {klass: 0 for klass in CLASSES}
    for o in outcomes:
        counts[o.klass] += 1
        if args.verbose or o.klass not in ("agree", "apple"):
            expected = o.expected + (f", Apple {o.apple['apple']}" if o.apple else "")
            print(f"{o.klass:>14}  {o.case_id}: expected {expected}, atscheck {shown_result(o)}"
                  + (f" ({o.reason})" if o.reason else ""))
    total = len(outcomes)
    print(f"{total} cases: " + ", ".join(f"{counts[k]} {k}" for k in CLASSES))
    failing = sum(counts[k] for k in FAILING_CLASSES)
    for entry_id in stale:
        print(f"table entry {entry_id} matches no case of {cases_dir}", file=sys.stderr)

    if args.results:
        with open(args.results, "w", encoding="utf-8") as handle:
            json.dump([{"id": o.case_id, "expected": o.expected, "apple": o.apple["apple"] if o.apple else None,
                        "result": o.result, "exitStatus": o.status, "verdict": o.verdict, "class": o.klass,
                        "reason": o.reason, "unsupported": o.unsupported, "seconds": round(o.seconds, 3),
                        "command": shlex.join(o.command)} for o in outcomes], handle, indent=2)
            handle.write("\n")
    if args.write_doc:
        version = atscheck_version(atscheck)
        text = render_doc(outcomes, counts, load_source(cases_dir), table, entry_cases, stale, args, version)
        with open(args.write_doc, "w", encoding="utf-8") as handle:
            handle.write(text)
        print(f"wrote {args.write_doc}")
    if args.check and (failing or stale):
        print(f"check failed: {counts['unexplained']} unexplained, {counts['contradicts']} contradict the table, "
              f"{counts['error']} errors" + (f", {len(stale)} table entries match no case" if stale else ""),
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
