#!/usr/bin/env bash
# Makes docs/html-report.png, the picture of the HTML report in the README and docs/usage.md.
#
# How it is made: `make demo`'s script (Examples/demo.sh) starts the demo TLS servers on loopback and runs
# `atscheck app Demo.ipa ... --report html=.demo/app-report.html` (the demo .ipa, minimum iOS 12, its harvested
# endpoints judged per OS era, its bundled AFNetworking pins checked against the live paths); Debian's Chromium,
# headless, renders that file at 1280×1600 CSS pixels and saves the top of the page. Nothing but loopback is used.
#
#   scripts/html-report-screenshot.sh                  # after `make release`
#   BIN=.build/debug scripts/html-report-screenshot.sh # after `swift build`
#
# Needs chromium (Debian: apt-get update && apt-get install -y chromium).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-.build/release}
out=${OUT:-docs/html-report.png}
command -v chromium > /dev/null || { echo "chromium is not installed: apt-get install -y chromium" >&2; exit 1; }

log=$(mktemp)
trap 'rm -f "$log"' EXIT
BIN="$BIN" Examples/demo.sh > "$log" 2>&1 || { cat "$log" >&2; echo "make demo failed" >&2; exit 1; }
page="$PWD/.demo/app-report.html"
[ -s "$page" ] || { echo "the demo wrote no $page" >&2; exit 1; }

rm -f "$out"
# --no-sandbox: Chromium refuses to run as root with its sandbox (containers, CI). The page has no script and
# loads nothing, so the sandbox protects nothing here.
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1280,1600 \
  --screenshot="$out" "file://$page" > /dev/null 2>&1 || true
[ -s "$out" ] || { echo "chromium wrote no screenshot to $out" >&2; exit 1; }
echo "$out: $(wc -c < "$out") bytes, $(chromium --version 2> /dev/null | head -1), from file://$page"
