#!/usr/bin/env python3
"""Copy Apple's Certificate Transparency test vectors into atscheck's tests.

    python3 scripts/apple-ct-vectors/fetch.py --repo PATH [--out Tests/CertificateTrustTests/AppleCTVectors]

PATH is a clone (or bare mirror) of https://github.com/apple-oss-distributions/Security. The files are copied byte
for byte from its HEAD (or --rev) out of OSX/shared_regressions/si-82-sectrust-ct-data/, the data of trustd's
tests/TrustTests/EvaluationTests/CTTests.m, and PROVENANCE.md records where and when they came from. Nothing in
the output is hand-edited: rerun the script to update, and commit what it writes.

Needs git and Python 3.9+.
"""

import argparse
import datetime
import os
import subprocess
import sys

DATA_DIR = "OSX/shared_regressions/si-82-sectrust-ct-data"
TESTS = "tests/TrustTests/EvaluationTests/CTTests.m"

# Each file copied, and the CTTests.m cases that use it.
FILES = {
    "CTlogs.plist": "every case below (the trusted log list, `trustedCTLogs`)",
    "CA_alpha.cer": "every case below (anchor; issues serverD and serverF)",
    "CA_beta.cer": "every case below (anchor; issues serverA and server_1601 … server_2001)",
    "serverF.cer": "testOneEmbeddedSCT",
    "serverD.cer": "testOnePresentedSCT",
    "serverD_proof.bin": "testOnePresentedSCT",
    "serverA.cer": "testTwoPresentedSCTs, testValidOCSPResponse, testInvalidOCSPResponse, testOCSPResponseWithBadHash, "
    "testShardedLogs, testReadOnlyLogs, testRetiredLogs",
    "serverA_proof_Alfa_3.bin": "testTwoPresentedSCTs, the three OCSP cases, testShardedLogs, testReadOnlyLogs, "
    "testRetiredLogs",
    "serverA_proof_Bravo_3.bin": "testTwoPresentedSCTs, testShardedLogs, testReadOnlyLogs, testRetiredLogs",
    "valid_ocsp_response.bin": "testValidOCSPResponse",
    "invalid_ocsp_response.bin": "testInvalidOCSPResponse",
    "bad_hash_ocsp_response.bin": "testOCSPResponseWithBadHash",
}
for name in ["1601", "1603", "1604", "1701", "1704", "1705", "1801", "1804", "1805", "2001"]:
    FILES[f"server_{name}.cer"] = "testOtherCTCerts" + (", testRetiredLogs" if name == "1601" else "")


def git(repo, *args):
    return subprocess.run(["git", f"--git-dir={repo}", *args], check=True, capture_output=True).stdout


def git_dir(path):
    """The git directory of a clone or a bare mirror."""
    dot_git = os.path.join(path, ".git")
    return dot_git if os.path.isdir(dot_git) else path


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repo", required=True, help="clone or bare mirror of apple-oss-distributions/Security")
    parser.add_argument("--rev", default="HEAD", help="commit or tag to read (default HEAD)")
    parser.add_argument("--out", default="Tests/CertificateTrustTests/AppleCTVectors", help="output folder")
    args = parser.parse_args()

    repo = git_dir(args.repo)
    commit = git(repo, "rev-parse", f"{args.rev}^{{commit}}").decode().strip()
    subject = git(repo, "log", "-1", "--format=%s (%cI)", commit).decode().strip()
    # The cases must still be there: a renamed test file would leave PROVENANCE.md pointing nowhere.
    tests = git(repo, "show", f"{commit}:{TESTS}").decode()
    for case in sorted({c.strip() for uses in FILES.values() for c in uses.split(",")}):
        name = case.split(" ")[0]
        if name.startswith("test") and f"- (void){name}" not in tests and f"- (void) {name}" not in tests:
            sys.exit(f"{TESTS} at {commit} has no {name}")

    os.makedirs(args.out, exist_ok=True)
    for name in sorted(FILES):
        data = git(repo, "show", f"{commit}:{DATA_DIR}/{name}")
        with open(os.path.join(args.out, name), "wb") as out:
            out.write(data)

    today = datetime.datetime.now(datetime.timezone.utc).date().isoformat()
    rows = "\n".join(f"| `{name}` | {FILES[name]} |" for name in sorted(FILES))
    provenance = f"""# Apple's CT test vectors: provenance

Copied byte for byte by `scripts/apple-ct-vectors/fetch.py` (do not edit; rerun the script).

- Repository: https://github.com/apple-oss-distributions/Security
- Commit: `{commit}` ({subject})
- Source folder: `{DATA_DIR}/`
- Expectations: `{TESTS}` (the test data of trustd's `CTTests`)
- Fetched: {today}

Licence: Apple Public Source License 2.0 (https://opensource.apple.com/apsl/), as the Security project and its
test data are published. These files are test data only; nothing in atscheck's sources links or ships them.

The `.bin` proofs are single SCTs as a server presents them in the TLS extension (RFC 6962 §3.2
`SignedCertificateTimestamp`, TLS-encoded, one per file); the OCSP responses are DER (`invalid_ocsp_response.bin`
is a truncated one). The certificates are DER. `CTlogs.plist` is an array of dictionaries with `description`,
`key` (DER SubjectPublicKeyInfo) and `operator`.

| file | CTTests.m cases |
| --- | --- |
{rows}
"""
    with open(os.path.join(args.out, "PROVENANCE.md"), "w") as out:
        out.write(provenance)
    print(f"wrote {len(FILES)} files and PROVENANCE.md to {args.out} from {commit}")


if __name__ == "__main__":
    main()
