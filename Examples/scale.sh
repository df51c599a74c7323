#!/usr/bin/env bash
# Batch scale (issue 10): one `atscheck scan --targets FILE` invocation over 100, 300 and 1,000 loopback
# endpoints — TLS servers on many ports and on several addresses of 127.0.0.0/8, a fifth of them behind an
# emulated 50 ms round trip — in JSON and in JSON Lines. Prints a Markdown table: endpoints, wall seconds,
# endpoints per second, handshakes, peak RSS. A benchmark, not a test: nothing is asserted.
#
#   Examples/scale.sh            # the table (sizes 100 300 1000, formats json jsonl)
#   Examples/scale.sh sweep      # 300 endpoints all behind the latency, at --concurrency 8 32 64 128 (how
#                                # the default --concurrency was chosen)
#
# Environment: BIN (default .build/release), SIZES, FORMATS, LATENCY (ms, default 50), CONCURRENCY (passed as
# --concurrency; default: the tool's), CONCURRENCIES (for sweep), EXTRA (more atscheck options, e.g. --ats-only).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-.build/release}
SIZES=${SIZES:-"100 300 1000"}
FORMATS=${FORMATS:-"json jsonl"}
LATENCY=${LATENCY:-50}
CONCURRENCIES=${CONCURRENCIES:-"8 32 64 128"}
EXTRA=${EXTRA:-}
mode=${1:-table}
for tool in atscheck atscheck-demo-servers; do
  [ -x "$BIN/$tool" ] || { echo "scale: $BIN/$tool missing: run 'swift build -c release' (or set BIN)" >&2; exit 1; }
done
[ -x /usr/bin/time ] || { echo "scale: /usr/bin/time missing (apt-get install time)" >&2; exit 1; }

work=$(mktemp -d)
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT

# A small fleet: a modern server (EC leaf), a TLS 1.3-only one, one with RSA key exchange only and a TLS 1.0
# one, so endpoints cost different numbers of handshakes, as a real inventory does.
cat > "$work/catalog.json" <<'EOF'
{ "servers": [
  { "name": "modern", "minVersion": "TLSv1.2", "maxVersion": "TLSv1.3",
    "ciphers": "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-POLY1305",
    "certificate": { "kind": "pki-leaf", "key": "ec-P-256" } },
  { "name": "tls13-only", "minVersion": "TLSv1.3", "maxVersion": "TLSv1.3",
    "certificate": { "kind": "pki-leaf", "key": "ec-P-256" } },
  { "name": "rsa-kx-only", "minVersion": "TLSv1.2", "maxVersion": "TLSv1.2",
    "ciphers": "AES128-GCM-SHA256:AES256-GCM-SHA384", "certificate": { "kind": "pki-leaf", "key": "rsa-2048" } },
  { "name": "legacy-tls10", "minVersion": "TLSv1.0", "maxVersion": "TLSv1.0",
    "ciphers": "AES128-SHA:AES256-SHA", "certificate": { "kind": "pki-leaf", "key": "rsa-2048" } }
] }
EOF

# start NAME ADDRESSES COPIES LATENCY: one demo-servers process; waits for `ready`.
start() {
  local name=$1 addresses=$2 copies=$3 latency=$4
  "$BIN/atscheck-demo-servers" --no-stdin --config "$work/catalog.json" --addresses "$addresses" --copies "$copies" \
    --latency "$latency" --write-targets "$work/$name.txt" --write-ca "$work/$name.pem" > "$work/$name.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 1 600); do grep -q '^ready' "$work/$name.log" && return 0; sleep 0.1; done
  echo "scale: the $name servers did not start:" >&2; cat "$work/$name.log" >&2; exit 1
}
addresses() { seq -s, -f "$1.%g" 1 "$2"; }  # addresses 127.0.1 5 → 127.0.1.1,…,127.0.1.5

# run FILE FORMAT [OPTIONS...]: one invocation; prints "wall_s peak_rss_kb handshakes endpoints"
run() {
  local file=$1 format=$2; shift 2
  local out="$work/out.$format"
  # shellcheck disable=SC2086
  # JSON Lines go to standard output, where they stream as endpoints finish (--output renders at the end).
  /usr/bin/time -f "%e %M" -o "$work/time" "$BIN/atscheck" scan --targets "$file" --ca-file "$work/fast.pem" \
    --ca-file "$work/slow.pem" --format "$format" ${CONCURRENCY:+--concurrency $CONCURRENCY} $EXTRA "$@" \
    >"$out" 2>"$work/err" || true  # exit 1/2 are verdicts here (TLS 1.0, RSA key exchange fail ATS)
  read -r wall rss < <(tail -1 "$work/time")
  [ -s "$out" ] || { echo "scale: atscheck wrote nothing:" >&2; cat "$work/err" >&2; exit 1; }
  python3 - "$out" "$format" "$wall" "$rss" <<'EOF'
import json, sys
path, fmt, wall, rss = sys.argv[1:]
if fmt == "jsonl":
    rows = [json.loads(line) for line in open(path) if line.strip()]
    endpoints = [r for r in rows if "target" in r]
else:
    endpoints = json.load(open(path))["endpoints"]
statuses = {}
for e in endpoints: statuses[e["status"]] = statuses.get(e["status"], 0) + 1
print(wall, rss, sum(e.get("handshakes", 0) for e in endpoints), len(endpoints),
      ",".join(f"{k}:{v}" for k, v in sorted(statuses.items())))
EOF
}

row() {  # row LABEL FILE FORMAT [OPTIONS...]
  local label=$1 file=$2 format=$3; shift 3
  read -r wall rss handshakes endpoints statuses < <(run "$file" "$format" "$@")
  awk -v l="$label" -v f="$format" -v w="$wall" -v r="$rss" -v h="$handshakes" -v n="$endpoints" -v s="$statuses" \
    'BEGIN { printf "| %s | %s | %d | %.2f | %.0f | %d | %.0f | %s |\n", l, f, n, w, (w > 0 ? n / w : 0), h, r / 1024, s }'
}

header() {
  echo "| $1 | format | endpoints | wall s | endpoints/s | handshakes | peak RSS MiB | statuses |"
  echo "| ---: | --- | ---: | ---: | ---: | ---: | ---: | --- |"
}

echo "machine: $(nproc) cores; $(openssl version); atscheck $("$BIN/atscheck" --version 2>/dev/null || echo '?')"
if [ "$mode" = sweep ]; then
  # 300 endpoints, every one behind the emulated round trip: 4 servers × 15 copies × 5 addresses.
  start slow "$(addresses 127.0.1 5)" 15 "$LATENCY"
  cp "$work/slow.pem" "$work/fast.pem"
  echo "sweep: 300 endpoints behind ${LATENCY} ms RTT, one invocation each"; echo
  header "--concurrency"
  for c in $CONCURRENCIES; do
    CONCURRENCY=$c row "$c" "$work/slow.txt" json
  done
  exit 0
fi

# 1,000 endpoints: 800 on 127.0.0.1–127.0.0.5 (4 servers × 40 copies × 5 addresses), 200 behind the emulated
# round trip on 127.0.1.1–127.0.1.5 (4 × 10 × 5). Lists interleave them 4:1, so every size has a fifth slow.
start fast "$(addresses 127.0.0 5)" 40 0
start slow "$(addresses 127.0.1 5)" 10 "$LATENCY"
paste -d'\n' <(grep -v '^#' "$work/fast.txt" | sed -n '1~4p') <(grep -v '^#' "$work/fast.txt" | sed -n '2~4p') \
  <(grep -v '^#' "$work/fast.txt" | sed -n '3~4p') <(grep -v '^#' "$work/fast.txt" | sed -n '4~4p') \
  <(grep -v '^#' "$work/slow.txt") | grep -v '^$' > "$work/all.txt"
echo "scale: $(wc -l < "$work/all.txt") endpoints on $(($(grep -c . "$work/fast.log") + $(grep -c . "$work/slow.log") - 2)) servers; a fifth behind ${LATENCY} ms RTT${CONCURRENCY:+; --concurrency $CONCURRENCY}${EXTRA:+; $EXTRA}"
echo
header "size"
for size in $SIZES; do
  head -n "$size" "$work/all.txt" > "$work/list-$size.txt"
  for format in $FORMATS; do row "$size" "$work/list-$size.txt" "$format"; done
done
