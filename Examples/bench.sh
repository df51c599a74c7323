#!/usr/bin/env bash
# `make bench`: scan the same loopback servers with atscheck and the peers (sslyze, sslscan, testssl.sh,
# nmap ssl-enum-ciphers), time each, and print figures and ratios. Loopback only; nothing is asserted.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=.build/release
RUNS=${RUNS:-3}
SERVERS=${SERVERS:-"modern legacy-tls10 rsa-kx-only dhe-only ecdsa"}

need() {  # install a peer if it is missing (Debian packages; sslyze from PyPI)
  command -v "$1" >/dev/null 2>&1 && return 0
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  case "$1" in
    sslyze) python3 -m pip install --quiet sslyze ;;
    testssl) $SUDO apt-get install -y -qq testssl.sh >/dev/null ;;
    *) $SUDO apt-get install -y -qq "$1" >/dev/null ;;
  esac
}
for tool in sslscan nmap testssl sslyze; do need "$tool" || echo "bench: cannot install $tool; its row is skipped" >&2; done

work=$(mktemp -d)
"$BIN/atscheck-demo-servers" --no-stdin --config Examples/demo-servers.json --write-ca "$work/root.pem" > "$work/servers.log" 2>&1 &
servers_pid=$!
trap 'kill $servers_pid 2>/dev/null; wait $servers_pid 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 1 300); do grep -q '^ready' "$work/servers.log" && break; sleep 0.1; done

targets=(); ports=()
for name in $SERVERS; do
  address=$(awk -v n="$name" '$1 == n { print $2 }' "$work/servers.log")
  targets+=("$address"); ports+=("${address##*:}")
done
echo "bench: ${#targets[@]} loopback servers ($SERVERS), $RUNS runs each, median wall time"
echo "machine: $(nproc) cores; $(openssl version)"
echo

median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
time_runs() {  # time_runs NAME COMMAND...: median seconds over RUNS
  local name=$1; shift
  local times=()
  for _ in $(seq 1 "$RUNS"); do
    local start end
    start=$(date +%s.%N)
    timeout 600 "$@" > "$work/$name.out" 2> "$work/$name.err" || true
    end=$(date +%s.%N)
    times+=("$(echo "$end - $start" | bc)")
  done
  printf '%s\n' "${times[@]}" | median
}

declare -A result
result[atscheck]=$(time_runs atscheck "$BIN/atscheck" scan "${targets[@]}" --ca-file "$work/root.pem" --format json)
handshakes=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["summary"]["handshakes"])' "$work/atscheck.out" 2>/dev/null || echo "?")
result[atscheck-serial]=$(time_runs atscheck-serial "$BIN/atscheck" scan "${targets[@]}" --ca-file "$work/root.pem" --format json --concurrency 1 --per-host 1)
if command -v sslyze >/dev/null; then
  result[sslyze]=$(time_runs sslyze sslyze --quiet --sslv2 --sslv3 --tlsv1 --tlsv1_1 --tlsv1_2 --tlsv1_3 --certinfo "${targets[@]}")
fi
if command -v sslscan >/dev/null; then
  result[sslscan]=$(time_runs sslscan bash -c 'for t in "$@"; do sslscan --no-colour --show-certificate "$t"; done' _ "${targets[@]}")
fi
if command -v testssl >/dev/null; then
  result[testssl.sh]=$(time_runs testssl bash -c 'for t in "$@"; do testssl --quiet --warnings off --color 0 -p -E -S "$t"; done' _ "${targets[@]}")
fi
if command -v nmap >/dev/null; then
  result[nmap]=$(time_runs nmap nmap -Pn -n -p "$(IFS=,; echo "${ports[*]}")" --script ssl-enum-ciphers,ssl-cert 127.0.0.1)
fi

base=${result[atscheck]}
printf '%-18s %10s %12s  %s\n' tool seconds "vs atscheck" notes
for tool in atscheck atscheck-serial sslyze sslscan testssl.sh nmap; do
  [ -n "${result[$tool]:-}" ] || continue
  ratio=$(echo "scale=1; ${result[$tool]} / $base" | bc)
  note=""
  case $tool in
    atscheck) note="every version + suite + order + chain + ATS verdict; $handshakes handshakes" ;;
    atscheck-serial) note="--concurrency 1 --per-host 1" ;;
    sslyze) note="--sslv2..--tlsv1_3 --certinfo" ;;
    sslscan) note="one target at a time (its default)" ;;
    testssl.sh) note="-p -E -S (protocols, ciphers per protocol, server defaults)" ;;
    nmap) note="ssl-enum-ciphers + ssl-cert" ;;
  esac
  printf '%-18s %10.2f %11sx  %s\n' "$tool" "${result[$tool]}" "$ratio" "$note"
done
