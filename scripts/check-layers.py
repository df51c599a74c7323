#!/usr/bin/env python3
"""The module rules of docs/architecture.md, checked on the package as SwiftPM describes it (`make lint`):

- the pure modules (model, policy, pinning, judging, reporting, bundle reading) and the tests of the pure
  judging never depend, even transitively, on a module that links OpenSSL;
- certificate trust (CertificateTrust) never depends on the prober (TLSProbe), and is synchronous: no `async`,
  `await`, tasks, threads or dispatch queues in its sources (the prober runs its blocking calls on its own threads);
- no module re-exports another (`@_exported`): each file imports what it uses.

Exit 1 with one line per violation."""
import json
import pathlib
import re
import subprocess
import sys

OPENSSL = {"COpenSSL", "OpenSSLSupport", "CertificateTrust", "TLSProbe", "TLSTestSupport"}
PURE = ["TLSModel", "ATSPolicy", "Pinning", "Judging", "Reporting", "AppBundle", "JudgingTests", "AuditFixtures"]

described = json.loads(subprocess.run(
    ["swift", "package", "describe", "--type", "json"], check=True, capture_output=True, text=True).stdout)
deps = {t["name"]: t.get("target_dependencies", []) for t in described["targets"]}


def closure(name):
    seen, todo = set(), [name]
    while todo:
        for dep in deps.get(todo.pop(), []):
            if dep not in seen:
                seen.add(dep)
                todo.append(dep)
    return seen


problems = []
for name in PURE:
    if name not in deps:
        problems.append(f"{name}: no such target")
        continue
    bad = sorted(closure(name) & OPENSSL)
    if bad:
        problems.append(f"{name} depends on {', '.join(bad)}, which link OpenSSL")
if "TLSProbe" in closure("CertificateTrust"):
    problems.append("CertificateTrust depends on TLSProbe: trust must not need the prober")
SCHEDULING = re.compile(r"\b(async|await|Task|TaskGroup|Thread|DispatchQueue|DispatchSemaphore|DispatchGroup)\b")
for path in sorted(pathlib.Path("Sources/CertificateTrust").rglob("*.swift")):
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        code = line.split("//", 1)[0]
        if SCHEDULING.search(code):
            problems.append(f"{path}:{number}: CertificateTrust is synchronous: threads and tasks belong to TLSProbe")
for path in sorted(pathlib.Path("Sources").rglob("*.swift")):
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if re.match(r"\s*@_exported\b", line):
            problems.append(f"{path}:{number}: @_exported: import what each file uses instead")
for problem in problems:
    print(f"check-layers: {problem}")
sys.exit(1 if problems else 0)
