#!/usr/bin/env bash
# `make bench`: scan the same local servers with atscheck and its peers (sslyze, sslscan, testssl.sh,
# nmap ssl-enum-ciphers), on loopback and behind an emulated round trip; record wall time, CPU time, the
# TCP connections each tool made, its peak OS threads and peak RSS; beside the rows of a server that serves
# one connection at a time (openssl s_server), atscheck's strictly serial scan of it (the serial floor) and,
# behind latency, its round-trip floor (handshakes × 2 RTT); check every tool's accepted suites against the servers' true
# configuration; then the batch scale (Examples/scale.sh: 1,000 and 10,000 endpoints, and sslyze's
# concurrent scanner on the 1,000); write docs/benchmarks.md. A benchmark, not a test: no figure fails
# anything, but the script stops with exit 1 when atscheck itself cannot run (or the servers cannot start,
# or a batch report misses an endpoint).
#
# Environment: BIN (where atscheck and atscheck-demo-servers are; default .build/release), RUNS (atscheck's
# runs per row on loopback, median; default 3), LATENCY_RUNS (behind latency, median; default 3), PEER_RUNS
# (each peer's runs per row; default 1: the peers are slow, and the whole run must stay near 10 minutes),
# LATENCY (emulated RTT in ms; default 50; 0 skips those rows), TIMEOUT (seconds per tool run; default 300),
# TESTSSL_SERVERS (the demo servers testssl.sh scans; default 2 of the 14: it takes 30–90 s a server),
# TESTSSL_TIMEOUT (seconds per testssl.sh target; default 240), TOOLS (the peers to run; default all four),
# SKIP (peer rows not run, as TOOL:SCENARIO:MS shell patterns; default: the slowest ones — sslscan on the demo
# servers behind latency, 145 s alone, and testssl.sh everywhere but the many-suite server on loopback; SKIP=
# runs every row, about 20 minutes), SCALE (0: skip
# Examples/scale.sh; its own variables, SIZES, PEER_SIZE…, pass through), EXPLAIN_SIZES (the plist --explain
# sizes; default "1000 10000 100000"; empty skips them), OUT (default docs/benchmarks.md),
# KEEP (set: keep the work directory with every tool's output).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-.build/release}
RUNS=${RUNS:-3}
LATENCY_RUNS=${LATENCY_RUNS:-3}
PEER_RUNS=${PEER_RUNS:-1}
LATENCY=${LATENCY:-50}
TIMEOUT=${TIMEOUT:-300}
TESTSSL_SERVERS=${TESTSSL_SERVERS:-"modern legacy-tls10"}
TESTSSL_TIMEOUT=${TESTSSL_TIMEOUT:-240}
SKIP=${SKIP-"sslscan:demo:[1-9]* testssl.sh:demo:* testssl.sh:s_server*:* testssl.sh:nginx:* testssl.sh:*:[1-9]*"}
SCALE=${SCALE:-1}
EXPLAIN_SIZES=${EXPLAIN_SIZES-"1000 10000 100000"}
OUT=${OUT:-docs/benchmarks.md}
TOOLS=${TOOLS-"sslyze sslscan nmap testssl.sh"}  # the peers to run (atscheck always runs)
VENV=.build/bench-venv
HELPER="python3 Examples/bench_report.py"
for binary in atscheck atscheck-demo-servers; do
  [ -x "$BIN/$binary" ] || { echo "bench: $BIN/$binary is missing (make release, or BIN=...)" >&2; exit 1; }
done

# ---- peers: Debian packages through apt, sslyze from PyPI into a venv (Debian 12's pip is externally managed)
SUDO=""; [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null && SUDO=sudo
apt_install() {
  $SUDO apt-get install -y -qq "$@" >/dev/null 2>&1 \
    || { $SUDO apt-get update -qq >/dev/null 2>&1 && $SUDO apt-get install -y -qq "$@" >/dev/null 2>&1; }
}
missing=()
command -v sslscan >/dev/null || missing+=(sslscan)
command -v testssl >/dev/null || missing+=(testssl.sh)
command -v nmap >/dev/null || missing+=(nmap)
[ -x /usr/sbin/nginx ] || command -v nginx >/dev/null || missing+=(nginx-light)
if [ ${#missing[@]} -gt 0 ]; then
  echo "bench: installing ${missing[*]} (apt)" >&2
  apt_install "${missing[@]}" || echo "bench: cannot install ${missing[*]}; their rows are skipped" >&2
fi
SSLYZE=$(command -v sslyze || true)
if [ -z "$SSLYZE" ]; then
  if [ ! -x "$VENV/bin/sslyze" ]; then
    echo "bench: installing sslyze from PyPI into $VENV" >&2
    python3 -m venv "$VENV" 2>/dev/null || { apt_install python3-venv && python3 -m venv "$VENV"; } || true
    [ -x "$VENV/bin/pip" ] && "$VENV/bin/pip" install --quiet sslyze >&2 || true
  fi
  [ -x "$VENV/bin/sslyze" ] && SSLYZE=$VENV/bin/sslyze || echo "bench: cannot install sslyze; its rows are skipped" >&2
fi

# ---- servers: the 14 demo servers and the many-suite server, on loopback and behind the emulated latency
work=$(mktemp -d)
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done; [ -n "${KEEP:-}" ] && echo "bench: kept $work" >&2 || rm -rf "$work"; }
trap cleanup EXIT
trap 'exit 130' INT TERM  # so that the EXIT trap stops the servers
start_servers() {  # start_servers TAG CATALOGUE LATENCY_MS
  "$BIN/atscheck-demo-servers" --no-stdin --config "$2" --latency "$3" --write-ca "$work/$1.pem" > "$work/$1.log" 2>&1 &
  pids+=($!); echo $! > "$work/$1.pid"
}
latencies=(0); [ "$LATENCY" -gt 0 ] && latencies+=("$LATENCY")
for ms in "${latencies[@]}"; do
  start_servers "demo-$ms" Examples/demo-servers.json "$ms"
  start_servers "many-$ms" Examples/bench-servers.json "$ms"
done

# ---- servers this project did not write (issue 20): openssl s_server, which serves one connection at a time,
# and nginx, with the settings of Examples/bench-external.json, on loopback; atscheck-demo-servers puts a relay
# in front of each (--front) that counts the connections and, behind latency, delays them like the others.
ext="$work/external"; mkdir -p "$ext"
spec() { python3 -c 'import json,sys; s={x["name"]: x for x in json.load(open("Examples/bench-external.json"))["servers"]}; print(s[sys.argv[1]][sys.argv[2]])' "$1" "$2"; }
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
openssl req -x509 -newkey rsa:2048 -nodes -days 30 -subj "/CN=atscheck bench external CA" -keyout "$ext/ca.key" \
  -out "$ext/ca.pem" -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign 2>/dev/null
openssl req -newkey rsa:2048 -nodes -subj "/CN=localhost" -keyout "$ext/leaf.key" -out "$ext/leaf.csr" 2>/dev/null
printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n' > "$ext/leaf.ext"
openssl x509 -req -in "$ext/leaf.csr" -CA "$ext/ca.pem" -CAkey "$ext/ca.key" -CAcreateserial -days 30 -sha256 \
  -extfile "$ext/leaf.ext" -out "$ext/leaf.pem" 2>/dev/null
cat "$ext/leaf.pem" "$ext/ca.pem" > "$ext/chain.pem"
# Two s_servers: the few-suite one (TLS 1.2–1.3) and the many-suite one (TLS 1.0–1.2, the 24 suites of the
# many-suite demo server), whose scan takes the most handshakes: the serial floor is measured on both.
protocol() { case $1 in TLSv1.0) echo TLSv1 ;; *) echo "$1" ;; esac; }  # catalogue name → s_server's
start_s_server() {  # start_s_server NAME PORT: openssl s_server with the settings of the catalogue entry NAME
  openssl s_server -accept "127.0.0.1:$2" -min_protocol "$(protocol "$(spec "$1" minVersion)")" \
    -max_protocol "$(protocol "$(spec "$1" maxVersion)")" -cert "$ext/leaf.pem" -key "$ext/leaf.key" \
    -cert_chain "$ext/ca.pem" -cipher "$(spec "$1" ciphers):@SECLEVEL=0" -quiet < /dev/null > "$ext/$1.log" 2>&1 &
  pids+=($!)
}
s_server_port=$(free_port); start_s_server openssl-s_server "$s_server_port"
s_server_many_port=$(free_port); start_s_server openssl-s_server-many "$s_server_many_port"
nginx_port=$(free_port); nginx_dir="$PWD/.build/bench-nginx"; mkdir -p "$nginx_dir/logs" "$nginx_dir/tmp"
cat > "$nginx_dir/nginx.conf" <<NGINX
daemon off;
worker_processes 1;
pid $nginx_dir/nginx.pid;
error_log $nginx_dir/logs/error.log;
events { worker_connections 512; }
http {
  access_log off;
  client_body_temp_path $nginx_dir/tmp;
  proxy_temp_path $nginx_dir/tmp; fastcgi_temp_path $nginx_dir/tmp; uwsgi_temp_path $nginx_dir/tmp; scgi_temp_path $nginx_dir/tmp;
  server {
    listen 127.0.0.1:$nginx_port ssl;
    ssl_certificate $ext/chain.pem;
    ssl_certificate_key $ext/leaf.key;
    ssl_protocols TLSv1.2 TLSv1.3;
    ssl_ciphers $(spec nginx ciphers):@SECLEVEL=0;
    ssl_prefer_server_ciphers on;
    location / { return 200 "atscheck bench\\n"; }
  }
}
NGINX
NGINX_BIN=$(command -v nginx || echo /usr/sbin/nginx)
if [ -x "$NGINX_BIN" ]; then
  "$NGINX_BIN" -p "$nginx_dir" -c "$nginx_dir/nginx.conf" > "$ext/nginx.log" 2>&1 &
  pids+=($!)
fi
echo '{"servers": []}' > "$ext/none.json"
for ms in "${latencies[@]}"; do
  fronts=(--front "openssl-s_server=127.0.0.1:$s_server_port" --front "openssl-s_server-many=127.0.0.1:$s_server_many_port")
  [ -x "$NGINX_BIN" ] && fronts+=(--front "nginx=127.0.0.1:$nginx_port")
  "$BIN/atscheck-demo-servers" --no-stdin --config "$ext/none.json" --latency "$ms" "${fronts[@]}" > "$work/external-$ms.log" 2>&1 &
  pids+=($!); echo $! > "$work/external-$ms.pid"; cp "$ext/ca.pem" "$work/external-$ms.pem"
done
for _ in $(seq 1 100); do
  bash -c "exec 3<>/dev/tcp/127.0.0.1/$s_server_port" 2>/dev/null \
    && bash -c "exec 3<>/dev/tcp/127.0.0.1/$s_server_many_port" 2>/dev/null && { [ ! -x "$NGINX_BIN" ] || bash -c "exec 3<>/dev/tcp/127.0.0.1/$nginx_port" 2>/dev/null; } && break
  sleep 0.1
done

for ms in "${latencies[@]}"; do for log in "$work/demo-$ms.log" "$work/many-$ms.log" "$work/external-$ms.log"; do
  for _ in $(seq 1 300); do grep -qs '^ready' "$log" && break; sleep 0.1; done
  grep -qs '^ready' "$log" || { echo "bench: servers did not start:" >&2; cat "$log" >&2; exit 1; }
done; done
names() { awk 'NF == 2 && $2 ~ /:/ { print $1 }' "$work/$1.log" | paste -sd, -; }
addresses() {  # addresses TAG NAME,NAME...: their ADDR:PORT, in order
  local name; for name in ${2//,/ }; do awk -v n="$name" '$1 == n { print $2 }' "$work/$1.log"; done
}

# ---- measuring
# A scenario is a set of servers of one atscheck-demo-servers process (TAG-MS: its pid, log, CA), scanned in one
# invocation per tool: demo (the 14 demo servers), many (the many-suite server), and, behind the same relay
# process (external-MS), s_server, s_server-many and nginx, each alone so that a serial server's figures are
# its own (their connections are counted for that server only: measure --count).
process_of() { case $1 in s_server*|nginx) echo external ;; *) echo "$1" ;; esac; }
catalog_of() {
  case $1 in many) echo Examples/bench-servers.json ;; s_server*|nginx) echo Examples/bench-external.json ;;
    *) echo Examples/demo-servers.json ;; esac
}
record="$work/records.jsonl"
measure() {  # measure SCENARIO MS SET TOOL RUNS OUTPUT NAMES -- COMMAND...: RUNS timed runs
  local scenario=$1 ms=$2 set=$3 tool=$4 runs=$5 output=$6 servers=$7; shift 8
  local catalog tag
  catalog=$(catalog_of "$scenario"); tag="$(process_of "$scenario")-$ms"
  local run status
  for run in $(seq 1 "$runs"); do
    rm -rf "$output"; case $output in */) mkdir -p "$output" ;; esac
    status=0
    $HELPER measure --record "$record" --server-pid "$(cat "$work/$tag.pid")" --server-log "$work/$tag.log" \
      --count "$servers" --timeout "${MEASURE_TIMEOUT:-$TIMEOUT}" --stdout "$output.stdout" --stderr "$output.stderr" \
      --tag scenario="$scenario" --tag latency="$ms" --tag set="$set" --tag tool="$tool" --tag run="$run" \
      --tag output="$output" --tag servers="$servers" --tag catalog="$catalog" --tag serverlog="$work/$tag.log" \
      -- "$@" || status=$?
    if [[ $tool == atscheck* ]] && [ "$status" -ne 0 ]; then
      echo "bench: $tool failed (exit $status); $OUT is left as it was:" >&2; tail -3 "$output.stderr" >&2 || true
      exit 1
    fi
  done
}
want() { [[ " $TOOLS " == *" $1 "* ]]; }
skipped() {  # skipped TOOL SCENARIO MS: whether a SKIP pattern names this peer row
  local pattern patterns
  read -r -a patterns <<< "$SKIP"  # not `for p in $SKIP`: that would expand the patterns against the files here
  for pattern in "${patterns[@]}"; do
    # shellcheck disable=SC2053
    [[ "$1:$2:$3" == $pattern ]] && return 0
  done
  return 1
}
peer() { want "$1" && ! skipped "$1" "$2" "$3"; }  # peer TOOL SCENARIO MS: run this peer's row
run_tools() {  # run_tools SCENARIO MS RUNS: every tool on the scenario's servers
  local scenario=$1 ms=$2 runs=$3 tag servers subset targets=() subset_targets=() ports o="$work/out/$1-$2"
  tag="$(process_of "$scenario")-$ms"
  case $scenario in
    s_server) servers=openssl-s_server ;; s_server-many) servers=openssl-s_server-many ;; nginx) servers=nginx ;;
    *) servers=$(names "$tag") ;;
  esac
  mapfile -t targets < <(addresses "$tag" "$servers")
  [ ${#targets[@]} -gt 0 ] || { echo "bench: no $scenario server at ${ms} ms; its rows are skipped" >&2; return; }
  ports=$(printf '%s\n' "${targets[@]##*:}" | paste -sd, -)
  mkdir -p "$work/out"
  echo "bench: $scenario servers, ${ms} ms RTT: ${#targets[@]} targets, $runs run(s) of atscheck, $PEER_RUNS of each peer" >&2
  measure "$scenario" "$ms" all atscheck "$runs" "$o-atscheck.json" "$servers" -- \
    bash -c 'out=$1; shift; exec "$@" > "$out"' _ "$o-atscheck.json" \
    "$BIN/atscheck" scan "${targets[@]}" --ca-file "$work/$tag.pem" --format json --fail-on never
  if [[ $scenario == demo || $scenario == nginx ]]; then
    # What the Apple client simulation and the two-segment ClientHello check cost (issue 36): the same scan
    # without them (8 connections fewer per endpoint).
    measure "$scenario" "$ms" all atscheck-nosim "$runs" "$o-atscheck-nosim.json" "$servers" -- \
      bash -c 'out=$1; shift; exec "$@" > "$out"' _ "$o-atscheck-nosim.json" \
      "$BIN/atscheck" scan "${targets[@]}" --ca-file "$work/$tag.pem" --format json --fail-on never --no-simulation
  fi
  if [[ $scenario == s_server* ]]; then
    # The serial floor: atscheck's strictly serial scan of the same server (one connection at a time, none
    # opened ahead): what a scan of a server that serves one connection at a time can cost at least, with
    # atscheck's own choice of handshakes.
    measure "$scenario" "$ms" all atscheck-serial "$runs" "$o-atscheck-serial.json" "$servers" -- \
      bash -c 'out=$1; shift; exec "$@" > "$out"' _ "$o-atscheck-serial.json" \
      "$BIN/atscheck" scan "${targets[@]}" --ca-file "$work/$tag.pem" --format json --fail-on never \
      --per-host 1 --no-preconnect
  fi
  if [ -n "$SSLYZE" ] && peer sslyze "$scenario" "$ms"; then
    measure "$scenario" "$ms" all sslyze "$PEER_RUNS" "$o-sslyze.json" "$servers" -- \
      "$SSLYZE" --quiet --sslv2 --sslv3 --tlsv1 --tlsv1_1 --tlsv1_2 --tlsv1_3 --certinfo --json_out="$o-sslyze.json" "${targets[@]}"
  fi
  if command -v sslscan >/dev/null && peer sslscan "$scenario" "$ms"; then  # one target at a time, as its users do: a loop
    measure "$scenario" "$ms" all sslscan "$PEER_RUNS" "$o-sslscan/" "$servers" -- bash -c \
      'd=$1; shift; for t; do sslscan --no-colour --show-certificate --xml="$d/${t##*:}.xml" "$t" > /dev/null; done' \
      _ "$o-sslscan" "${targets[@]}"
  fi
  if command -v nmap >/dev/null && peer nmap "$scenario" "$ms"; then
    measure "$scenario" "$ms" all nmap "$PEER_RUNS" "$o-nmap.xml" "$servers" -- \
      nmap -Pn -n -p "$ports" --script ssl-enum-ciphers,ssl-cert -oX "$o-nmap.xml" 127.0.0.1
  fi
  if command -v testssl >/dev/null && peer testssl.sh "$scenario" "$ms"; then
    # slow: one run, and on the demo servers only TESTSSL_SERVERS
    subset=$servers
    if [ "$scenario" = demo ]; then subset=$(echo $TESTSSL_SERVERS | tr ' ' ,); fi
    mapfile -t subset_targets < <(addresses "$tag" "$subset")
    local set=all; [ "$subset" = "$servers" ] || set=subset
    if [ "$set" = subset ]; then  # atscheck on the same servers, for a fair ratio
      measure "$scenario" "$ms" subset atscheck "$runs" "$o-atscheck-subset.json" "$subset" -- \
        bash -c 'out=$1; shift; exec "$@" > "$out"' _ "$o-atscheck-subset.json" \
        "$BIN/atscheck" scan "${subset_targets[@]}" --ca-file "$work/$tag.pem" --format json --fail-on never
    fi
    MEASURE_TIMEOUT=$((TESTSSL_TIMEOUT * ${#subset_targets[@]} + 30)) measure "$scenario" "$ms" "$set" testssl.sh 1 "$o-testssl/" "$subset" -- bash -c \
      'd=$1; limit=$2; shift 2; for t; do timeout "$limit" testssl --quiet --warnings off --color 0 --nodns none -p -E -S \
         --jsonfile "$d/${t##*:}.json" "$t" > /dev/null; done; true' _ "$o-testssl" "$TESTSSL_TIMEOUT" "${subset_targets[@]}"
  fi
}
for ms in "${latencies[@]}"; do
  runs=$RUNS; [ "$ms" -gt 0 ] && runs=$LATENCY_RUNS
  for scenario in demo many s_server s_server-many nginx; do run_tools "$scenario" "$ms" "$runs"; done
done

# ---- docs/benchmarks.md: the machine, the method, one table per scenario, then the batch-scale figures
version_of() { "$@" 2>&1 | sed 's/\x1b\[[0-9;]*m//g' | grep -Eo '[0-9]+\.[0-9]+(\.[0-9]+)?' | head -1; }
sslyze_version=$( [ -n "$SSLYZE" ] && "$(dirname "$SSLYZE")/python3" -c 'import importlib.metadata as m; print(m.version("sslyze"))' 2>/dev/null \
  || { [ -n "$SSLYZE" ] && version_of "$SSLYZE" --help; } || echo "not installed")
latency_note="- Latency: not emulated in this run (LATENCY=0)."
if [ "$LATENCY" -gt 0 ]; then
  latency_note="- Latency: this kernel has no netem, so \`atscheck-demo-servers --latency $LATENCY\` puts a relay in front
  of every server on loopback: it delays the accept by $LATENCY ms and every chunk by $((LATENCY / 2)) ms each way,
  so each TCP connect and each TLS flight costs a real round trip, for every tool alike (the connection
  counts are taken at the relay)."
fi
# The batch scale (Examples/scale.sh) runs before the header is written, so that the header can give the whole
# run's time. A batch report that misses an endpoint, or a fleet that does not start, stops make bench.
footer=""
: > "$work/footer.md"
if [ "$SCALE" != 0 ] && [ -f Examples/scale.sh ]; then
  echo "bench: Examples/scale.sh" >&2
  scale_sslyze=""; want sslyze && scale_sslyze=$SSLYZE
  { echo "## Batch scale"; echo; BIN="$BIN" SSLYZE="$scale_sslyze" bash Examples/scale.sh; } > "$work/footer.md" \
    || { echo "bench: Examples/scale.sh failed (exit $?); $OUT is left as it was" >&2; exit 1; }
  footer="--footer $work/footer.md"
fi
if [ -n "$EXPLAIN_SIZES" ] && [ -f scripts/plist-bench/explain_scale.py ]; then
  # --explain is linear in the exception domains (issue 32): 1,000 / 10,000 / 100,000 domains.
  echo "bench: scripts/plist-bench/explain_scale.py" >&2
  { echo; echo "## plist --explain"; echo
    python3 scripts/plist-bench/explain_scale.py --atscheck "$BIN/atscheck" --markdown $EXPLAIN_SIZES \
      || echo "(explain_scale.py failed: exit $?)"; } >> "$work/footer.md"
  footer="--footer $work/footer.md"
fi
read -r -a skip_patterns <<< "$SKIP"
skip_text=$(printf '`%s`, ' "${skip_patterns[@]}" | sed 's/, $//')
[ -n "$SKIP" ] || skip_text=""
cat > "$work/header.md" <<HEADER
# Benchmarks

Generated by \`make bench\` (Examples/bench.sh and Examples/bench_report.py) on $(date -u +%Y-%m-%d); every
figure below is measured by that run. Regenerate with \`make bench\` (or \`BIN=dir Examples/bench.sh\` with
prebuilt binaries). A benchmark, not a test: nothing here fails CI.

## Machine

| | |
| --- | --- |
| CPU | $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//') |
| kernel | $(uname -sr) |
| OpenSSL | $(openssl version) |
| atscheck | $("$BIN/atscheck" --version 2>&1 | head -1) |
| sslyze | ${sslyze_version:-not installed} (PyPI, in ${VENV}/ unless already on PATH) |
| sslscan | $(command -v sslscan >/dev/null && version_of sslscan --version || echo "not installed") (Debian) |
| testssl.sh | $(command -v testssl >/dev/null && version_of testssl --version || echo "not installed") (Debian) |
| nmap | $(command -v nmap >/dev/null && version_of nmap --version || echo "not installed") (Debian), ssl-enum-ciphers |

## Method

- Servers: \`atscheck-demo-servers\` runs the catalogue's OpenSSL servers on 127.0.0.1 (kernel-chosen ports,
  a PKI minted per run). Scenario *demo*: the 14 servers of Examples/demo-servers.json, every tool given
  all of them in one invocation, or a shell loop for the tools that take one target at a time (sslscan,
  testssl.sh), as their users would. Scenario *many*: the one server of Examples/bench-servers.json
  (TLS 1.0–1.2, 24 suites, server order). Scenarios *s_server*, *s_server-many* and *nginx*: servers this
  project did not write, with the settings of Examples/bench-external.json, each scanned alone: \`openssl
  s_server\` (the system OpenSSL's; it serves one connection at a time) with few suites (TLS 1.2–1.3) and with
  the many-suite server's 24 (TLS 1.0–1.2), and nginx (Debian's nginx-light, a private config under
  .build/bench-nginx/), each behind a relay of \`atscheck-demo-servers --front\` that counts its connections
  (and adds the latency).
- Commands: \`atscheck scan TARGETS --ca-file root.pem --format json --fail-on never\`;
  \`sslyze --sslv2 --sslv3 --tlsv1 --tlsv1_1 --tlsv1_2 --tlsv1_3 --certinfo --json_out=F TARGETS\`;
  \`sslscan --show-certificate --xml=F TARGET\` per target; \`nmap -Pn -n -p PORTS --script
  ssl-enum-ciphers,ssl-cert -oX F 127.0.0.1\`; \`testssl --nodns none -p -E -S --jsonfile F TARGET\` per
  target. Every tool enumerates each version's suites and reads the certificate.
- Serial floor (the *s_server* and *s_server-many* tables): beside the rows of a server that serves one
  connection at a time, \`atscheck scan … --per-host 1 --no-preconnect\`, atscheck's strictly serial scan
  of it (the row *atscheck-serial*: one connection at a time, none opened ahead, so nothing waits on a server
  that is busy).
  *vs serial* is each row's wall time over that row's, and the line under the table sets atscheck's scan
  against it: wall time and handshakes (from atscheck's JSON report, \`handshakes\` summed over the
  endpoints). Behind latency the round-trip floor is printed too: the serial scan's handshakes × 2 round
  trips (a TCP connect and a TLS flight each, one handshake after another; a scan that opens its next
  connection during a handshake, as atscheck's preconnect does, can go below it).
- Simulation cost (the *demo* and *nginx* tables): the row *atscheck-nosim* is the same scan with
  \`--no-simulation\` (no simulated Apple client, no two-segment ClientHello check: 8 connections fewer per
  endpoint); the line under the table gives what the simulation adds, in wall time and connections.
- testssl.sh takes 30 s or more a server even on loopback, so it runs once, and when it runs on the demo
  servers, only on ${TESTSSL_SERVERS// /, } (${TESTSSL_TIMEOUT} s limit per target; its ratio there is against
  atscheck scanning the same servers, the *subset* rows).
- Rows not run, to keep the whole run near 10 minutes (\`SKIP\`, as TOOL:SCENARIO:MS patterns; \`SKIP= make
  bench\` runs them all, in about 20 minutes):
  ${skip_text:-none}.
- Runs: atscheck's figures are the median of ${RUNS} runs on loopback and of ${LATENCY_RUNS} behind the emulated
  latency; each peer runs ${PEER_RUNS} time(s) per row (they are the slow part of the run); a run is cut at ${TIMEOUT} s.
  The tools run one after another, never at once; this whole \`make bench\` (after the release build) took $((SECONDS / 60)) min $((SECONDS % 60)) s.
- Wall: elapsed time of the invocation (or loop). CPU: user + system time of the tool and every process it
  waited for (\`getrusage(RUSAGE_CHILDREN)\` around the run). Connections: TCP connections the servers
  accepted during the run (\`atscheck-demo-servers\` prints its per-server counts on SIGUSR1; the count
  before is subtracted from the count after). Threads: the most OS threads the tool's processes had at once,
  sampled every 5 ms from \`/proc/PID/stat\` (a thread that lives less than 5 ms can be missed; one that
  waits on a handshake is seen; a prober with a thread per probe holds more of them at once when it gets less
  CPU, so on a machine shared with other work the figure varies from run to run). RSS: the peak resident set
  of the tool's largest process (\`ru_maxrss\`).
- Batch scale: Examples/scale.sh starts 1,000 TLS servers on 10 loopback addresses (4 configurations; a fifth
  behind the emulated latency) and gives one \`atscheck scan --targets\` invocation 1,000 and 10,000 endpoints
  of them (JSON and JSON Lines; 10,000 in JSON Lines only), then 300 and 2,000 at \`--concurrency 1000\` for
  the peak threads: endpoint *i* is server *i* mod 1,000 under a name of its own with \`resolve\` to the
  server's address, so 10,000 endpoints are 10 names a server, as virtual hosts behind one address. The
  names are not in the certificates (every verdict fails on the hostname); each endpoint is a full scan.
  Every report must list every endpoint of its list (checked; a missing one stops the run). The same
  1,000-endpoint list goes to sslyze's concurrent scanner, \`sslyze … --targets_in FILE\` with each line
  \`NAME:PORT{ADDRESS}\` (10 servers at once, 5 connections each: its defaults). It needs minutes for them, so
  its run is cut at \`PEER_TIMEOUT\` (default 120 s): its rate comes from the endpoints it finished by then
  (it prints each server's results as that scan completes), and *s for all* is the batch's time at that rate.
- Suites correct: for each server and each protocol version, the set of suites the tool reports accepted
  must equal the true set. The truth does not come from atscheck: OpenSSL's own
  \`openssl ciphers -s -tls1|-tls1_1|-tls1_2 'CIPHERS:@SECLEVEL=0'\` for the catalogue entry's cipher string
  (OpenSSL's DEFAULT when the entry has none), within its min/max version, kept to the suites the
  certificate's key type can serve (RSA or ECDSA; no PSK/SRP); TLS 1.3: the entry's suites or OpenSSL's
  default three. The first difference per tool is listed under its table. Order is not compared.
${latency_note}
HEADER
$HELPER report --records "$record" --header "$work/header.md" $footer --out "$OUT"
