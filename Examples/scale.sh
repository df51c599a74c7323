#!/usr/bin/env bash
# Batch scale (issues 10 and 34): one `atscheck scan --targets FILE` invocation over a fleet of 1,000 loopback
# TLS servers — on many ports and on several addresses of 127.0.0.0/8, a fifth of them behind an emulated 50 ms
# round trip — given as 1,000 and 10,000 endpoints (10 names a server, as a fleet has virtual hosts).
# Prints Markdown tables: per run the endpoints, wall seconds, handshakes, the peak OS threads of the atscheck
# process and its peak RSS; the 10,000 / 1,000 wall ratio; the peak threads of 300 and 2,000 endpoints at
# --concurrency 1000; and the same 1,000-endpoint batch given to sslyze's concurrent scanner (--targets_in).
# Every run's report must list every endpoint of its list: a missing one stops the script with exit 1.
# Otherwise a benchmark, not a test: no figure fails anything.
#
#   Examples/scale.sh            # the tables
#   Examples/scale.sh sweep      # 300 endpoints all behind the latency, at --concurrency 8 32 64 128 (how
#                                # the default --concurrency was chosen)
#
# Environment: BIN (default .build/release), SIZES (endpoints per run; default "1000 10000"), FORMATS
# (default "json jsonl"; sizes above 1,000 run in jsonl only: a JSON report of 10,000 endpoints is held whole
# until the end, JSON Lines stream), LATENCY (ms, default 50), CONCURRENCY (passed as --concurrency; default:
# the tool's), THREAD_SIZES (default "300 2000") and THREAD_CONCURRENCY (default 1000): the runs that measure
# peak threads at a high --concurrency, CONCURRENCIES (for sweep), EXTRA (more atscheck options, e.g.
# --ats-only), SSLYZE (an sslyze executable: runs it on the PEER_SIZE batch; unset or empty: no peer row),
# PEER_SIZE (default 1000), NMAP (set to 1: nmap ssl-enum-ciphers on the same batch too; about 3 minutes for the
# 1,000, and it writes its XML at the end: give it PEER_TIMEOUT=600), PEER_TIMEOUT
# (seconds after which a peer's run is cut, its rate taken from the endpoints it finished; default 120: sslyze
# needs 6–7 minutes for the 1,000 endpoints on 2 cores; 900 lets it finish).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-.build/release}
SIZES=${SIZES-"1000 10000"}
FORMATS=${FORMATS-"json jsonl"}
LATENCY=${LATENCY:-50}
THREAD_SIZES=${THREAD_SIZES-"300 2000"}
THREAD_CONCURRENCY=${THREAD_CONCURRENCY:-1000}
CONCURRENCIES=${CONCURRENCIES:-"8 32 64 128"}
EXTRA=${EXTRA:-}
SSLYZE=${SSLYZE:-}
PEER_SIZE=${PEER_SIZE:-1000}
PEER_TIMEOUT=${PEER_TIMEOUT:-120}
HELPER="python3 Examples/bench_report.py"
mode=${1:-table}
for tool in atscheck atscheck-demo-servers; do
  [ -x "$BIN/$tool" ] || { echo "scale: $BIN/$tool missing: run 'swift build -c release' (or set BIN)" >&2; exit 1; }
done

work=$(mktemp -d)
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT
trap 'exit 130' INT TERM  # so that the EXIT trap stops the servers

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
  for _ in $(seq 1 1200); do grep -q '^ready' "$work/$name.log" && return 0; sleep 0.1; done
  echo "scale: the $name servers did not start:" >&2; cat "$work/$name.log" >&2; exit 1
}
addresses() { seq -s, -f "$1.%g" 1 "$2"; }  # addresses 127.0.1 5 → 127.0.1.1,…,127.0.1.5

# endpoints SIZE: writes $work/list-SIZE.json, an endpoint list of SIZE endpoints over the servers of
# $work/servers.txt (ADDRESS PORT a line, a fifth slow, interleaved 4:1): endpoint i is server i mod 1,000 under
# the name svcK.A-B-C-D.fleet.test (K = i div 1,000), with `resolve` to the server's address, so a list of
# 10,000 gives each server 10 names, as virtual hosts behind one address — and no two names of one server follow
# each other in the list. Every size is built the same way, so the 10,000 / 1,000 ratio compares like with like.
# The names are not in the servers' certificates: every verdict fails on the hostname; the work is a full scan.
endpoints() {
  python3 - "$work/servers.txt" "$1" "$work/list-$1.json" <<'EOF'
import json, sys
servers = [line.split() for line in open(sys.argv[1]) if line.strip()]
size, out = int(sys.argv[2]), sys.argv[3]
entries = []
for i in range(size):
    address, port = servers[i % len(servers)]
    name = f"svc{i // len(servers)}.{address.replace('.', '-')}.fleet.test"
    entries.append({"url": f"https://{name}:{port}", "resolve": address})
json.dump({"endpoints": entries}, open(out, "w"), indent=0)
EOF
}

# run SIZE FORMAT [OPTIONS...]: one atscheck invocation under the sampler (bench_report.py run); checks that the
# report lists every endpoint of the list (exit 1 if not) and prints
# "wall_s cpu_s peak_threads peak_rss_kib handshakes endpoints statuses".
run() {
  local size=$1 format=$2; shift 2
  local list="$work/list-$size.json" out="$work/out.$format" concurrency=${CONCURRENCY:-}
  [ $# -eq 0 ] || concurrency=""  # the row's own --concurrency wins
  # shellcheck disable=SC2086
  # JSON Lines go to standard output, where they stream as endpoints finish (--output renders at the end).
  # Exit 1/2 are verdicts here (TLS 1.0, RSA key exchange and the fleet names fail ATS); 64 is a usage error.
  $HELPER run --stdout "$out" --stderr "$work/err" -- "$BIN/atscheck" scan --targets "$list" \
    --ca-file "$work/fast.pem" --ca-file "$work/slow.pem" --format "$format" \
    ${concurrency:+--concurrency $concurrency} $EXTRA "$@" > "$work/measure.json"
  python3 - "$work/measure.json" "$list" "$out" "$format" "$work/err" <<'EOF'
import json, sys
measure, listed, path, fmt, err = sys.argv[1:]
m = json.load(open(measure))
if m["status"] not in (0, 1, 2):
    reason = open(err).read().strip().splitlines()
    reason = reason[-1] if reason else "no message"
    if m["status"] == 64:  # a usage error, e.g. a --concurrency this build refuses: the row says so
        print("refused")
        sys.exit(0)
    sys.exit(f"scale: atscheck exited {m['status']}: {reason}")
expected = {e["url"].removeprefix("https://") for e in json.load(open(listed))["endpoints"]}
try:
    if fmt == "jsonl":
        rows = [json.loads(line) for line in open(path) if line.strip()]
        endpoints = [r for r in rows if "target" in r]
    else:
        endpoints = json.load(open(path))["endpoints"]
except ValueError as error:
    sys.exit(f"scale: the {fmt} report does not parse ({error}); last lines of stderr: {open(err).read()[-500:]}")
reported = [e["target"] for e in endpoints]
missing = expected - set(reported)
if missing or len(reported) != len(expected):
    sys.exit(f"scale: the {fmt} report lists {len(set(reported))} distinct of the {len(expected)} endpoints "
             f"({len(reported)} lines); missing: {', '.join(sorted(missing)[:5])}{' …' if len(missing) > 5 else ''}")
statuses = {}
for e in endpoints:
    statuses[e["status"]] = statuses.get(e["status"], 0) + 1
print(m["wall"], m["cpu"], m["threads"], m["rssKiB"], sum(e.get("handshakes", 0) for e in endpoints),
      len(endpoints), ",".join(f"{k}:{v}" for k, v in sorted(statuses.items())))
EOF
}

row() {  # row SIZE FORMAT [--concurrency N]: one table row; keeps the figures in $work/line-SIZE-FORMAT-CONCURRENCY
  local size=$1 format=$2 concurrency=${CONCURRENCY:-default}; shift 2
  local line
  if [ $# -gt 0 ]; then concurrency=$2; fi
  line=$(run "$size" "$format" "$@") || exit 1
  echo "$line" > "$work/line-$size-$format-$concurrency"
  read -r wall cpu threads rss handshakes endpoints statuses <<< "$line"
  if [ "$wall" = refused ]; then
    echo "| $size | $(servers_of "$size") | $format | $concurrency | refused: $(head -1 "$work/err" | sed "s/^Error: //") | | | | | | |"
    return
  fi
  awk -v n="$endpoints" -v s="$(servers_of "$size")" -v f="$format" -v c="$concurrency" -v w="$wall" -v u="$cpu" \
    -v t="$threads" -v r="$rss" -v h="$handshakes" -v st="$statuses" \
    'BEGIN { printf "| %d | %d | %s | %s | %.2f | %.2f | %.0f | %d | %d | %.0f | %s |\n", n, s, f, c, w, u, (w > 0 ? n / w : 0), h, t, r / 1024, st }'
}
servers_of() { local n; n=$(wc -l < "$work/servers.txt"); [ "$1" -lt "$n" ] && echo "$1" || echo "$n"; }

header() {
  echo "| endpoints | servers | format | --concurrency | wall s | CPU s | endpoints/s | handshakes | peak threads | peak RSS MiB | statuses |"
  echo "| ---: | ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |"
}

echo "machine: $(nproc) cores; $(openssl version); atscheck $("$BIN/atscheck" --version 2>/dev/null | head -1 || echo '?')"
if [ "$mode" = sweep ]; then
  # 300 endpoints, every one behind the emulated round trip: 4 servers × 15 copies × 5 addresses.
  start slow "$(addresses 127.0.1 5)" 15 "$LATENCY"
  cp "$work/slow.pem" "$work/fast.pem"
  grep -v '^#' "$work/slow.txt" | sed -E 's#^https://([^:]+):([0-9]+).*#\1 \2#; s#^localhost #127.0.0.1 #' > "$work/servers.txt"
  endpoints 300
  echo "sweep: 300 endpoints behind ${LATENCY} ms RTT, one invocation each"; echo
  header
  for c in $CONCURRENCIES; do
    CONCURRENCY=$c row 300 json
  done
  exit 0
fi

# 1,000 servers: 800 on 127.0.0.1–127.0.0.5 (4 servers × 40 copies × 5 addresses), 200 behind the emulated
# round trip on 127.0.1.1–127.0.1.5 (4 × 10 × 5). The server list interleaves them 4:1, so every size has a
# fifth slow.
started=$SECONDS
start fast "$(addresses 127.0.0 5)" 40 0
start slow "$(addresses 127.0.1 5)" 10 "$LATENCY"
address_port() { grep -v '^#' "$1" | sed -E 's#^https://([^:]+):([0-9]+).*#\1 \2#; s#^localhost #127.0.0.1 #'; }
paste -d'\n' <(address_port "$work/fast.txt" | sed -n '1~4p') <(address_port "$work/fast.txt" | sed -n '2~4p') \
  <(address_port "$work/fast.txt" | sed -n '3~4p') <(address_port "$work/fast.txt" | sed -n '4~4p') \
  <(address_port "$work/slow.txt") | grep -v '^$' > "$work/servers.txt"
echo "scale: $(wc -l < "$work/servers.txt") servers on 10 loopback addresses (started in $((SECONDS - started)) s); a fifth behind ${LATENCY} ms RTT${CONCURRENCY:+; --concurrency $CONCURRENCY}${EXTRA:+; $EXTRA}"
echo
echo "Peak threads: the most OS threads the atscheck process had at once (sampled every 5 ms from /proc). Peak RSS:"
echo "its largest resident set (getrusage ru_maxrss). Every report lists every endpoint of its list (checked)."
echo
header
for size in $SIZES; do
  endpoints "$size"
  for format in $FORMATS; do
    if [ "$size" -gt 1000 ] && [ "$format" != jsonl ]; then continue; fi
    row "$size" "$format"
  done
done
for size in $THREAD_SIZES; do
  endpoints "$size"
  row "$size" jsonl --concurrency "$THREAD_CONCURRENCY"
done
echo
# The 10,000 / 1,000 ratio (JSON Lines runs): a scan that scales with the endpoints is near 10×.
wall_of() { local file="$work/line-$1-jsonl-${CONCURRENCY:-default}"; [ -f "$file" ] && cut -d' ' -f1 "$file" || true; }
w1k=$(wall_of 1000); w10k=$(wall_of 10000)
if [ -n "$w1k" ] && [ -n "$w10k" ]; then
  awk -v a="$w1k" -v b="$w10k" 'BEGIN { printf "10,000 / 1,000 endpoints (jsonl, default --concurrency): %.2f s / %.2f s = %.1f×\n", b, a, b / a }'
  echo
fi

# ---- a peer on the same batch: sslyze's concurrent scanner (one invocation, --targets_in; it scans up to 10
# servers at once with up to 5 connections each, its defaults: its command line has no knob but
# --slow_connection, which lowers them). The same endpoints as atscheck's PEER_SIZE list, given as
# NAME:PORT{ADDRESS} (sslyze's form for a name with an address). It takes minutes on 1,000 endpoints, so a run
# is cut at PEER_TIMEOUT: the endpoints it finished by then (it prints each server's results as its scan
# completes; unbuffered, so a cut loses none) give its rate, and the time the whole batch would take at that
# rate is printed beside it.
peer_row() {  # peer_row TOOL ENDPOINTS WALL_JSON REPORTED
  python3 - "$@" <<'EOF'
import json, sys
tool, n, measure, reported = sys.argv[1:]
m, n, reported = json.load(open(measure)), int(n), int(reported)
rate = reported / m["wall"] if m["wall"] else 0
if m["timedOut"]:
    whole = f"≈ {n / rate:.0f} at that rate" if rate else "—"
    tool += f" (cut at {m['wall']:.0f} s)"
else:
    whole = f"{m['wall']:.2f}"
print(f"| {tool} | {n} | {reported} | {m['wall']:.2f} | {m['cpu']:.2f} | {rate:.1f} | {whole} | {m['threads']} | "
      f"{m['rssKiB'] / 1024:.0f} |")
EOF
}
if [ -n "$SSLYZE" ] || [ -n "${NMAP:-}" ]; then
  endpoints "$PEER_SIZE"
  echo "The ${PEER_SIZE}-endpoint batch, one invocation per tool (atscheck: the jsonl row above; a peer's run is cut at"
  echo "${PEER_TIMEOUT} s, PEER_TIMEOUT, and its time for all the endpoints taken from its rate until then):"
  echo
  echo "| tool | endpoints | reported | wall s | CPU s | endpoints/s | s for all | peak threads | peak RSS MiB |"
  echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
  # atscheck's figures: the jsonl run of that size above, or a run now
  line_file="$work/line-$PEER_SIZE-jsonl-${CONCURRENCY:-default}"
  [ -f "$line_file" ] || run "$PEER_SIZE" jsonl > "$line_file" || exit 1
  read -r wall cpu threads rss _ endpoints _ < "$line_file"
  awk -v n="$endpoints" -v w="$wall" -v u="$cpu" -v t="$threads" -v r="$rss" \
    'BEGIN { printf "| atscheck | %d | %d | %.2f | %.2f | %.1f | %.2f | %d | %.0f |\n", n, n, w, u, n / w, w, t, r / 1024 }'
fi
if [ -n "$SSLYZE" ]; then
  python3 -c 'import json, sys
for e in json.load(open(sys.argv[1]))["endpoints"]:
    print(e["url"].removeprefix("https://") + "{" + e["resolve"] + "}")' "$work/list-$PEER_SIZE.json" > "$work/sslyze-targets.txt"
  PYTHONUNBUFFERED=1 $HELPER run --timeout "$PEER_TIMEOUT" --stdout "$work/sslyze.out" --stderr "$work/sslyze.err" -- \
    "$SSLYZE" --sslv2 --sslv3 --tlsv1 --tlsv1_1 --tlsv1_2 --tlsv1_3 --certinfo --json_out="$work/sslyze.json" \
    --targets_in "$work/sslyze-targets.txt" > "$work/sslyze-measure.json"
  # Reported: the servers whose results sslyze printed ("SCAN RESULTS FOR NAME:PORT - ADDRESS:PORT", once a
  # server's scan completed); when it finished, its JSON's count of scan_status COMPLETED.
  reported=$(python3 - "$work/sslyze.out" "$work/sslyze.json" <<'EOF'
import json, re, sys
printed = len(re.findall(r"^\s*SCAN RESULTS FOR ", open(sys.argv[1]).read(), re.I | re.M))
try:
    print(sum(s["scan_status"] == "COMPLETED" for s in json.load(open(sys.argv[2]))["server_scan_results"]))
except (OSError, ValueError):
    print(printed)  # cut before it wrote its JSON
EOF
)
  peer_row "sslyze --targets_in" "$PEER_SIZE" "$work/sslyze-measure.json" "$reported"
fi
if [ -n "${NMAP:-}" ]; then
  # nmap takes hosts and one port list: it probes every listed port on every address (closed ones answer at
  # once on loopback) and runs ssl-enum-ciphers on the open ones. It cannot send the fleet names as SNI.
  ports=$(cut -d' ' -f2 "$work/servers.txt" | head -n "$PEER_SIZE" | sort -un | paste -sd, -)
  hosts=$(cut -d' ' -f1 "$work/servers.txt" | head -n "$PEER_SIZE" | sort -u)
  # shellcheck disable=SC2086
  $HELPER run --timeout "$PEER_TIMEOUT" --stdout /dev/null --stderr "$work/nmap.err" -- nmap -Pn -n -p "$ports" \
    --script ssl-enum-ciphers,ssl-cert -oX "$work/nmap.xml" $hosts > "$work/nmap-measure.json"
  # Reported: the batch's endpoints (address and port) with an ssl-enum-ciphers result. Not every open TLS port
  # nmap found: its address × port product also meets the servers behind the latency relays.
  reported=$(head -n "$PEER_SIZE" "$work/servers.txt" | python3 -c 'import sys, xml.etree.ElementTree as ET
wanted = {tuple(line.split()) for line in sys.stdin if line.strip()}
try: root = ET.parse(sys.argv[1]).getroot()
except (OSError, ET.ParseError): print(0); sys.exit()
found = {(address.get("addr"), port.get("portid")) for host in root.iter("host")
         for address in host.findall("address") for port in host.iter("port")
         if any(script.get("id") == "ssl-enum-ciphers" for script in port.iter("script"))}
print(len(found & wanted))' "$work/nmap.xml")
  peer_row "nmap ssl-enum-ciphers" "$PEER_SIZE" "$work/nmap-measure.json" "$reported"
fi
