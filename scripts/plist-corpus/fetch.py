#!/usr/bin/env python3
"""Fetches the real Info.plists of the issue-32 corpus (sources.json) and records where each came from.

Run with network access (GitHub):

    python3 scripts/plist-corpus/fetch.py                      # into .build/plist-corpus/
    python3 scripts/plist-corpus/fetch.py --out /tmp/corpus --token "$GITHUB_TOKEN"

For every entry: the file at its commit (raw.githubusercontent.com); an entry without a commit is pinned to the
newest commit that touched the path (GitHub's commits API). The licence GitHub reports for the repository is
recorded beside the one sources.json expects; a mismatch is printed, not hidden. The output folder gets
`provenance.json`: for each file, the repository, path, commit, licence, URL, size and SHA-256. Files are not
committed to atscheck (their licences are the repositories' own); check.py lints them.
"""
import argparse
import hashlib
import json
import os
import sys
import urllib.error
import urllib.parse
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))


def get(url: str, token: str | None) -> bytes:
    """The body of `url` (GitHub API requests carry the token when given)."""
    request = urllib.request.Request(url, headers={"User-Agent": "atscheck-plist-corpus"})
    if token and "api.github.com" in url:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.read()


def newest_commit(repo: str, path: str, token: str | None) -> str:
    """The newest commit of the default branch that touched `path`."""
    query = urllib.parse.urlencode({"path": path, "per_page": 1})
    commits = json.loads(get(f"https://api.github.com/repos/{repo}/commits?{query}", token))
    if not commits:
        raise RuntimeError(f"no commit touches {repo}:{path}")
    return commits[0]["sha"]


def licence(repo: str, token: str | None, cache: dict) -> str:
    """The SPDX id GitHub reports for the repository (NOASSERTION when it cannot tell)."""
    if repo not in cache:
        try:
            cache[repo] = json.loads(get(f"https://api.github.com/repos/{repo}/license", token))["license"]["spdx_id"]
        except (urllib.error.URLError, KeyError, json.JSONDecodeError):
            cache[repo] = "unknown"
    return cache[repo]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sources", default=os.path.join(HERE, "sources.json"))
    parser.add_argument("--out", default=os.path.join(HERE, "..", "..", ".build", "plist-corpus"))
    parser.add_argument("--token", default=os.environ.get("GITHUB_TOKEN"), help="GitHub token (rate limits)")
    args = parser.parse_args()
    with open(args.sources, encoding="utf-8") as f:
        sources = json.load(f)["sources"]
    os.makedirs(args.out, exist_ok=True)
    licences: dict = {}
    provenance = []
    failed = 0
    for entry in sources:
        repo, path = entry["repo"], entry["path"]
        try:
            commit = entry.get("commit") or newest_commit(repo, path, args.token)
            url = f"https://raw.githubusercontent.com/{repo}/{commit}/{urllib.parse.quote(path)}"
            data = get(url, args.token)
        except (urllib.error.URLError, RuntimeError, json.JSONDecodeError) as error:
            print(f"skipped {repo}:{path}: {error}", file=sys.stderr)
            failed += 1
            continue
        name = f"{repo.replace('/', '+')}+{commit[:12]}+{path.replace('/', '+')}"
        with open(os.path.join(args.out, name), "wb") as f:
            f.write(data)
        found = licence(repo, args.token, licences)
        if entry.get("licence") and entry["licence"] not in (found, "verify at fetch"):
            print(f"licence of {repo}: sources.json says {entry['licence']}, GitHub says {found}", file=sys.stderr)
        provenance.append({
            "file": name, "repo": repo, "path": path, "commit": commit, "licence": found,
            "expectedLicence": entry.get("licence"), "url": url, "bytes": len(data),
            "sha256": hashlib.sha256(data).hexdigest(), "note": entry.get("note", ""),
        })
        print(f"{name} ({len(data)} bytes, {found})")
    with open(os.path.join(args.out, "provenance.json"), "w", encoding="utf-8") as f:
        json.dump({"files": provenance}, f, indent=2)
        f.write("\n")
    print(f"{len(provenance)} fetched, {failed} skipped; provenance in {os.path.join(args.out, 'provenance.json')}")
    return 0 if provenance else 1


if __name__ == "__main__":
    sys.exit(main())
