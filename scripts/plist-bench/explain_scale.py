#!/usr/bin/env python3
"""Times `atscheck plist --explain` on generated Info.plists with many NSExceptionDomains entries (issue 32).

The explanation resolves every host pattern for every OS era and client; it was quadratic in the number of
domains (each resolution walked or copied every entry). This script writes one plist per size, runs the
explainer on each (JSON to /dev/null, so rendering is included) and prints the wall time, so a run before and
after a change gives comparable figures:

    python3 scripts/plist-bench/explain_scale.py --atscheck .build/release/atscheck 1000 10000 100000

The plists mix what real ones hold: names with and without NSIncludesSubdomains, insecure-HTTP entries, lowered
TLS minimums, forward secrecy off, IP-address and CIDR keys (iOS 17), NSAllowsArbitraryLoads on. 100,000 domains
make 6.3 MB, under the 8 MB plist limit (the issue's 7.3 MB file had 100,000 domains).
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time


def entry(i: int) -> tuple[str, str]:
    """The key and the <dict> of the i-th exception domain (short, so 100,000 fit under the 8 MB plist limit)."""
    kind = i % 20
    if kind == 0:
        key = f"10.{(i >> 16) & 255}.{(i >> 8) & 255}.{i & 255}"
    elif kind == 1:
        key = f"10.{(i >> 8) & 255}.{i & 255}.0/24"
    else:
        key = f"h{i}.x{i % 97}.com"
    keys = []
    if kind not in (0, 1) and i % 10 == 2:
        keys.append("<key>NSIncludesSubdomains</key><true/>")
    if i % 6 == 0:
        keys.append("<key>NSExceptionAllowsInsecureHTTPLoads</key><true/>")
    if i % 15 == 0:
        keys.append("<key>NSExceptionMinimumTLSVersion</key><string>TLSv1.0</string>")
    if i % 20 == 3:
        keys.append("<key>NSExceptionRequiresForwardSecrecy</key><false/>")
    return key, "<dict>" + "".join(keys) + "</dict>"


def plist(count: int) -> str:
    """An Info.plist with `count` exception domains."""
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
        '<plist version="1.0">',
        "<dict>",
        "<key>MinimumOSVersion</key><string>15.0</string>",
        "<key>NSAppTransportSecurity</key>",
        "<dict>",
        "<key>NSAllowsArbitraryLoads</key><true/>",
        "<key>NSExceptionDomains</key>",
        "<dict>",
    ]
    for i in range(count):
        key, value = entry(i)
        lines.append(f"<key>{key}</key>{value}")
    lines += ["</dict>", "</dict>", "</dict>", "</plist>", ""]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--atscheck", default=".build/debug/atscheck", help="the binary to time")
    parser.add_argument("--format", default="json", help="--format for the explanation (json or text)")
    parser.add_argument("--timeout", type=float, default=1800, help="seconds before a run is abandoned")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table (make bench's footer)")
    parser.add_argument("sizes", nargs="*", type=int, default=[1000, 10000, 100000])
    args = parser.parse_args()
    if args.markdown:
        print(f"`plist --explain --format {args.format}` on generated Info.plists (scripts/plist-bench/explain_scale.py):")
        print()
        print("| domains | plist MB | wall s | exit |")
        print("| ---: | ---: | ---: | --- |")
    with tempfile.TemporaryDirectory() as folder:
        for size in args.sizes:
            path = os.path.join(folder, f"Info-{size}.plist")
            with open(path, "w", encoding="utf-8") as f:
                f.write(plist(size))
            command = [args.atscheck, "plist", "--explain", "--format", args.format, path]
            start = time.monotonic()
            try:
                done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=args.timeout)
                status = str(done.returncode)
            except subprocess.TimeoutExpired:
                status = f"abandoned after {args.timeout:.0f} s"
            seconds = time.monotonic() - start
            size_mb = os.path.getsize(path) / 1e6
            if args.markdown:
                print(f"| {size} | {size_mb:.2f} | {seconds:.2f} | {status} |", flush=True)
            else:
                print(f"{size:>7} domains  {size_mb:5.2f} MB  {seconds:8.2f} s  exit {status}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
