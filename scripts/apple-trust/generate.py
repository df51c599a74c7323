#!/usr/bin/env python3
"""Generate atscheck's bundled Apple trust data from a local copy of apple-oss-distributions/security_certificates.

    python3 scripts/apple-trust/generate.py --repo PATH [--out Sources/AppleTrustData]

PATH is a clone (or bare mirror) of https://github.com/apple-oss-distributions/security_certificates. The script
reads the tags named in SNAPSHOTS (one trust store per OS release), the roots Apple removed, the TLS-relevant
restrictions of the revocation database snapshot (valid_db_snapshot/valid.sqlite3), and Apple's CT log list, and
writes:

    apple-trust.json   our conversion (stores, roots as DER, removed roots, restrictions, announced distrust,
                       provenance)
    log_list.json      Apple's log list, byte for byte, from LOG_LIST_TAG

Announced distrust by issuance date is curated by hand in announced-distrust.json beside this script (from Apple's
support article 121668); every root it names must be in one of the stores, or the run stops.

Needs git, Python 3.9+ and the `cryptography` package (names of removed roots that Apple's name table lacks).
Nothing here is hand-edited: rerun it to update, and commit the output with the script's own record of
where and when the data came from.
"""

import argparse
import base64
import datetime
import hashlib
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import warnings

# Each tag, the iOS-family and macOS releases that first ship its trust store, and how the pairing is known.
# Apple names a store by its version (YYYYMMDDNN, config/security_certificates.xcconfig TRUST_STORE_VERSION).
#  - "confirmed": the store version is paired with the release by a published list: Apple's trust-store pages
#    (support.apple.com/103272 and its per-release lists) as quoted in Apple Support Community DOC-250009603
#    (2025: 2025072000 = iOS/macOS 26, 2025031200 = iOS 18.5 / macOS 15.5, 2025022600 = iOS 18.4 / macOS 15.4,
#    2024051501 = iOS 18.3.2, an over-the-air update of 2024051500).
#  - "inferred": from the tag's release series (security_certificates-NNNNN.<train>: .0 or .40 ships with the
#    major release, later trains with its point releases) and the store version's date. Point-release numbers are
#    the macOS release's; iOS numbers follow macOS minor-for-minor from macOS 13 / iOS 16 on.
SNAPSHOTS = [
    ("security_certificates-55188.40.9", "14.0", "11.0", "inferred"),
    ("security_certificates-55218.40.9", "15.0", "12.0", "inferred"),
    ("security_certificates-55219.100.22", "15.4", "12.3", "inferred"),
    ("security_certificates-55245.40.7", "16.0", "13.0", "inferred"),
    ("security_certificates-55246.120.6", "16.5", "13.4", "inferred"),
    ("security_certificates-55291", "17.0", "14.0", "inferred"),
    ("security_certificates-55297.100.4", "17.4", "14.4", "inferred"),
    ("security_certificates-55297.120.3", "17.5", "14.5", "inferred"),
    ("security_certificates-55313.0.8", "18.0", "15.0", "inferred"),
    ("security_certificates-55313.100.27", "18.4", "15.4", "confirmed"),
    ("security_certificates-55313.120.12", "18.5", "15.5", "confirmed"),
    ("security_certificates-55349.0.11", "26.0", "26.0", "confirmed"),
]
# Devices on these releases also take trust-store updates over the air (2024051501 on iOS 18.3.2).
OVER_THE_AIR_FROM = (18, 0)
# Apple's own anchors (SecGetAppleTrustAnchors in apple-oss-distributions/Security OSX/utilities/SecAppleAnchor.c:
# Apple Root CA, G2, G3; the two "Platform Backport" roots are in no store carried here): trustd requires no CT for
# chains that end at one of them (SecPolicyServer.c, SecPolicyCheckSystemTrustedCTRequired).
APPLE_ANCHORS = {"Apple Root CA", "Apple Root CA - G2", "Apple Root CA - G3"}
# The newest tag: removed roots and the CT log list are read here.
NEWEST_TAG = SNAPSHOTS[-1][0]
LOG_LIST_TAG = NEWEST_TAG
# The only tags whose valid.sqlite3 is stored in the public mirror (the others are Git LFS pointers); the newer.
VALID_DB_TAG = "security_certificates-55294"

# Valid's group flags (trust/trustd/SecRevocationDb.c, apple-oss-distributions/Security).
COMPLETE, CHECK_OCSP, KNOWN_ONLY, REQUIRE_CT, ALLOWLIST, NO_CA_CHECK, OVERRIDABLE = 1, 2, 4, 8, 16, 32, 64
DATE_CONSTRAINTS, NAME_CONSTRAINTS, POLICY_CONSTRAINTS, NO_CA_V2_CHECK = 128, 256, 512, 1024
FORMAT_SERIAL, FORMAT_SHA256, FORMAT_NTO1 = 1, 2, 3
CF_ABSOLUTE_EPOCH = datetime.datetime(2001, 1, 1, tzinfo=datetime.timezone.utc)


def git(repo, *args, binary=False):
    out = subprocess.run(["git", "--git-dir", repo, *args], check=True, capture_output=True)
    return out.stdout if binary else out.stdout.decode()


def git_dir(path):
    for candidate in (os.path.join(path, ".git"), path):
        if os.path.isdir(os.path.join(candidate, "objects")):
            return candidate
    sys.exit(f"{path}: not a git repository")


def files(repo, tag, folder):
    """(path, blob) for every file under folder at tag."""
    listing = git(repo, "ls-tree", "-r", tag, "--", folder)
    return [(line.split("\t", 1)[1], line.split()[2]) for line in listing.splitlines() if line.split()[1] == "blob"]


def certificate_der(blob_bytes):
    """DER from a .cer/.der (DER) or .crt (PEM or DER) file."""
    if b"-----BEGIN CERTIFICATE-----" in blob_bytes:
        body = blob_bytes.split(b"-----BEGIN CERTIFICATE-----", 1)[1].split(b"-----END CERTIFICATE-----", 1)[0]
        return base64.b64decode(b"".join(body.split()))
    return blob_bytes


def subject_name(der):
    try:
        from cryptography import x509
        from cryptography.x509.oid import NameOID
    except ImportError:
        return None
    try:
        certificate = x509.load_der_x509_certificate(der)
    except ValueError:
        return None
    for oid in (NameOID.COMMON_NAME, NameOID.ORGANIZATIONAL_UNIT_NAME, NameOID.ORGANIZATION_NAME):
        values = certificate.subject.get_attributes_for_oid(oid)
        if values:
            return values[0].value
    return certificate.subject.rfc4514_string()


def human_name(names, sha256, der):
    if sha256 in names:
        text = names[sha256]
        for part in text.replace("\\,", "\0").split(","):
            if part.startswith("CN="):
                return part[3:].replace("\0", ",")
        return text.replace("\0", ",")
    return subject_name(der) or sha256[:16]


def trust_store_version(repo, tag):
    config = git(repo, "show", f"{tag}:config/security_certificates.xcconfig")
    for line in config.splitlines():
        if line.strip().startswith("TRUST_STORE_VERSION"):
            return line.split("=", 1)[1].strip()
    sys.exit(f"{tag}: no TRUST_STORE_VERSION")


def cf_date(value):
    if value is None or value <= -3155760000.0 or value >= 31556908800.0:
        return None  # Valid's "no constraint" defaults: 1901-01-01 and 3001-01-01
    moment = CF_ABSOLUTE_EPOCH + datetime.timedelta(seconds=value)
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def restrictions(repo):
    """The TLS-relevant groups of valid.sqlite3, converted so the tool needs no SQLite."""
    blob = git(repo, "show", f"{VALID_DB_TAG}:valid_db_snapshot/valid.sqlite3", binary=True)
    if not blob.startswith(b"SQLite format 3"):
        sys.exit(f"{VALID_DB_TAG}: valid.sqlite3 is not a database (a Git LFS pointer?)")
    with tempfile.NamedTemporaryFile(suffix=".sqlite3") as handle:
        handle.write(blob)
        handle.flush()
        db = sqlite3.connect(handle.name)
        admin = {key: ival for key, ival, _ in db.execute("SELECT key, ival, value FROM admin")}
        dates = {gid: (nb, na) for gid, nb, na in db.execute("SELECT groupid, notbefore, notafter FROM dates")}
        hashes = {}
        for gid, sha in db.execute("SELECT groupid, sha256 FROM hashes"):
            hashes.setdefault(gid, []).append(sha.hex().upper())
        issuers = {}
        for gid, issuer in db.execute("SELECT groupid, issuer_hash FROM issuers"):
            issuers.setdefault(gid, []).append(issuer.hex().upper())
        known = sorted(h for group in issuers.values() for h in group)
        groups, index, skipped = [], {}, {"revoked-serials": 0, "bloom-filter": 0, "incomplete-allow-list": 0}
        online = []
        for gid, flags, fmt, policies in db.execute("SELECT groupid, flags, format, policies FROM groups ORDER BY groupid"):
            # trustd asks the OCSP responder online about a certificate whose Valid entry does not settle its status:
            # no no-CA-check flag, and an incomplete list or the group's check-OCSP flag (SecRevocationServer.c,
            # SecRVCProcessValidInfoResults: "Trigger OCSP for any non-definitive or revoked cases"; SecRevocationDb.h,
            # SecValidInfoIsDefinitive). A complete Bloom filter that a serial hits does too; the filters are not carried.
            if not flags & NO_CA_V2_CHECK and (flags & CHECK_OCSP or not flags & COMPLETE):
                online.extend(issuers.get(gid, []))
            entry = {"id": gid}
            if flags & DATE_CONSTRAINTS and gid in dates:
                not_before, not_after = (cf_date(v) for v in dates[gid])
                if not_before:
                    entry["notBefore"] = not_before
                if not_after:
                    entry["notAfter"] = not_after
            if flags & POLICY_CONSTRAINTS and policies is not None:
                count = policies[0]
                entry["policies"] = [int.from_bytes(policies[1 + i : 2 + i], "big", signed=True) for i in range(count)]
            if flags & ALLOWLIST:
                definitive = flags & COMPLETE or flags & NO_CA_CHECK
                if fmt == FORMAT_SHA256 and definitive:
                    entry["allowed"] = sorted(hashes.get(gid, []))
                else:
                    skipped["incomplete-allow-list"] += 1
            elif fmt == FORMAT_SERIAL:
                skipped["revoked-serials"] += 1
            elif fmt == FORMAT_NTO1:
                skipped["bloom-filter"] += 1
            if flags & KNOWN_ONLY:
                entry["knownOnly"] = True
            if len(entry) == 1:
                continue
            entry["knownOnly"] = bool(flags & KNOWN_ONLY)
            entry["overridable"] = bool(flags & OVERRIDABLE)
            for issuer in issuers.get(gid, []):
                index[issuer] = len(groups)
            groups.append(entry)
        db.close()
    source = (
        f"Apple's revocation database (valid.apple.com), valid_db_snapshot/valid.sqlite3 at {VALID_DB_TAG} "
        f"(content version {admin.get('version')})"
    )
    return {"source": source, "groups": groups, "issuers": index, "knownIssuers": known,
            "onlineCheckIssuers": sorted(set(online))}, skipped


ANNOUNCED_DISTRUST = os.path.join(os.path.dirname(os.path.abspath(__file__)), "announced-distrust.json")


def announced_distrust(roots):
    """The curated announcements, each root checked against Apple's stores (by SHA-256 and name)."""
    with open(ANNOUNCED_DISTRUST) as handle:
        curated = json.load(handle)
    entries = []
    for entry in curated["entries"]:
        for root in entry["roots"]:
            known = roots.get(root["sha256"].upper())
            if known is None:
                sys.exit(f"announced-distrust.json: {root['name']} ({root['sha256']}) is in no Apple store carried here")
            if known["name"] != root["name"]:
                sys.exit(f"announced-distrust.json: {root['sha256']} is '{known['name']}' in Apple's store, not '{root['name']}'")
        item = {
            "ca": entry["ca"], "source": curated["source"], "url": curated["url"],
            "effective": entry["effective"] + "T00:00:00Z", "uses": entry["uses"],
            "roots": [root["sha256"].upper() for root in entry["roots"]],
        }
        for key in ("enforcedFromIOS", "enforcedFromSource"):
            if key in entry:
                item[key] = entry[key]
        entries.append(item)
    return entries, curated["read"]


def main():
    warnings.simplefilter("ignore")  # cryptography's notes on old roots' encodings (negative serials, long names)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repo", required=True, help="clone or bare mirror of security_certificates")
    parser.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "../../Sources/AppleTrustData"))
    args = parser.parse_args()
    repo = git_dir(args.repo)

    names = json.loads(git(repo, "show", f"{NEWEST_TAG}:certificates/hash_to_human_name.json"))
    roots, snapshots = {}, []
    for tag, ios, macos, mapping in SNAPSHOTS:
        fingerprints = []
        for path, blob in files(repo, tag, "certificates/roots"):
            if os.path.basename(path).startswith("."):
                continue
            der = certificate_der(git(repo, "cat-file", "blob", blob, binary=True))
            sha = hashlib.sha256(der).hexdigest().upper()
            stem = os.path.basename(path).rsplit(".", 1)[0].upper()
            if len(stem) == 64 and stem != sha:  # newer tags name each file by its SHA-256, older ones by name
                sys.exit(f"{tag}:{path}: file name is not the certificate's SHA-256 ({sha})")
            name = human_name(names, sha, der)
            entry = {"sha256": sha, "name": name, "der": base64.b64encode(der).decode()}
            if name in APPLE_ANCHORS:
                entry["appleAnchor"] = True
            roots.setdefault(sha, entry)
            fingerprints.append(sha)
        version = trust_store_version(repo, tag)
        major_minor = tuple(int(p) for p in ios.split("."))
        basis = {
            "confirmed": f"confirmed: store {version} is paired with iOS {ios} / macOS {macos} in Apple's published "
            "trust-store lists (support 103272, as quoted in Apple Support Community DOC-250009603)",
            "inferred": f"inferred: store {version} from {tag}'s release series and the store version's date",
        }[mapping]
        snapshots.append({
            "version": version, "tag": tag, "date": git(repo, "log", "-1", "--format=%cs", tag).strip(),
            "iOS": ios, "macOS": macos, "mapping": basis, "overTheAir": major_minor >= OVER_THE_AIR_FROM,
            "roots": sorted(fingerprints),
        })

    removed = {}
    for path, blob in files(repo, NEWEST_TAG, "certificates/removed"):
        if os.path.basename(path).startswith("."):
            continue
        der = certificate_der(git(repo, "cat-file", "blob", blob, binary=True))
        sha = hashlib.sha256(der).hexdigest().upper()
        if sha in roots:
            continue  # removed once, back in a store we carry: the stores say when it is trusted
        removed.setdefault(sha, {"sha256": sha, "name": human_name(names, sha, der), "der": base64.b64encode(der).decode()})

    valid, skipped = restrictions(repo)
    distrust, distrust_read = announced_distrust(roots)
    today = datetime.date.today().isoformat()
    data = {
        "provenance": {
            "repository": "https://github.com/apple-oss-distributions/security_certificates",
            "generated": today,
            "mapping": "Each store is the tag's certificates/roots/ (TRUST_STORE_VERSION in "
            "config/security_certificates.xcconfig); the iOS/macOS release a tag ships with is confirmed where "
            "Apple's published trust-store lists pair the store version with the release, else inferred from the "
            "tag's release series (see each snapshot's 'mapping').",
            "notes": [
                f"Removed roots: certificates/removed/ at {NEWEST_TAG} ({len(removed)} certificates not in any store "
                "carried here).",
                f"Restrictions: {len(valid['groups'])} groups of {VALID_DB_TAG}'s valid.sqlite3 with date cut-offs, use "
                "restrictions, complete allow-lists or the known-intermediates rule; left out: "
                f"{skipped['revoked-serials']} revoked-serial block-lists, {skipped['bloom-filter']} Bloom filters "
                f"and {skipped['incomplete-allow-list']} incomplete allow-lists (they need an online check). "
                "Valid is updated continuously over the air; the public mirror stores the database only at "
                "security_certificates-55291 and -55294 (2023).",
                f"Online revocation checks: {len(valid['onlineCheckIssuers'])} issuers whose Valid group leaves a "
                "certificate's status undecided (incomplete list or check-OCSP flag), so trustd asks the OCSP "
                "responder about what they issue (onlineCheckIssuers).",
                f"CT log list: certificate_transparency/log_list.json at {LOG_LIST_TAG}, unchanged (log_list.json).",
                f"Announced distrust: {len(distrust)} CAs, {sum(len(e['roots']) for e in distrust)} roots, curated from "
                f"Apple support 121668 as read on {distrust_read} (scripts/apple-trust/announced-distrust.json).",
                f"Generated {today} by scripts/apple-trust/generate.py.",
            ],
        },
        "snapshots": snapshots,
        "roots": sorted(roots.values(), key=lambda r: r["sha256"]),
        "removedRoots": sorted(removed.values(), key=lambda r: r["sha256"]),
        "restrictions": valid,
        "announcedDistrust": distrust,
    }
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "apple-trust.json"), "w") as handle:
        json.dump(data, handle, indent=0, sort_keys=True)
        handle.write("\n")
    log_list = git(repo, "show", f"{LOG_LIST_TAG}:certificate_transparency/log_list.json", binary=True)
    with open(os.path.join(args.out, "log_list.json"), "wb") as handle:
        handle.write(log_list)
    print(
        f"{len(snapshots)} stores, {len(roots)} roots, {len(removed)} removed roots, {len(valid['groups'])} "
        f"restriction groups, log list {len(log_list)} bytes -> {os.path.normpath(args.out)}"
    )


if __name__ == "__main__":
    main()
