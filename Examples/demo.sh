#!/usr/bin/env bash
# `make demo`: start the bundled example TLS servers on loopback, scan them with atscheck,
# print the report, and stop the servers. Everything stays on 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-.build/release}   # BIN=.build/debug Examples/demo.sh after a debug build
work=$(mktemp -d)
# The per-run PKI stays in .demo/ (gitignored) until the next `make demo`, so the README's commands can use
# .demo/demo-root.pem after the demo ends.
pki=.demo
rm -rf "$pki" && mkdir -p "$pki"
cleanup() {
  [ -n "${servers_pid:-}" ] && kill "$servers_pid" 2>/dev/null && wait "$servers_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# The servers run until their stdin closes: keep a pipe open for them.
mkfifo "$work/stdin"
"$BIN/atscheck-demo-servers" --config Examples/demo-servers.json --write-targets "$work/targets.txt" \
  --write-ca "$pki/demo-root.pem" < "$work/stdin" > "$work/servers.log" 2>&1 &
servers_pid=$!
exec 3> "$work/stdin"
for _ in $(seq 1 300); do grep -q '^ready' "$work/servers.log" 2>/dev/null && break; sleep 0.1; done
grep -q '^ready' "$work/servers.log" || { cat "$work/servers.log" >&2; echo "demo servers did not start" >&2; exit 1; }

echo "== Example servers (loopback only) =="
grep -v '^ready' "$work/servers.log"
echo
# Each server gets a name under .test (never resolved: --resolve pins it to the loopback port), so
# ATS judges it as a public host would be judged; `localhost` would be exempt on iOS 10+.
targets=(); resolves=()
while read -r name address; do
  [ "$name" = ready ] && continue
  port=${address##*:}
  targets+=("https://$name.demo.atscheck.test:$port")
  resolves+=(--resolve "$name.demo.atscheck.test:$port:${address%:*}")
done < "$work/servers.log"

echo "== atscheck scan (the demo PKI's root is passed as --ca-file: a user/MDM-installed root to Apple) =="
set +e
"$BIN/atscheck" scan "${targets[@]}" "${resolves[@]}" --ca-file "$pki/demo-root.pem" --format text
status=$?
set -e
echo "(atscheck scan exited with $status: 0 all pass, 1 a policy failure, 2 an endpoint could not be scanned)"
echo

# The audit: an app's Info.plist against the endpoints it talks to (an endpoint list in YAML, with
# per-endpoint --resolve to the loopback ports of this run). The modern server is also pin-checked against a pin
# set extracted from this run's server (a CA pin plus a backup), as NSPinnedDomains CA identities: TrustKit would
# refuse to pin a name under .test at launch (its public suffix list has no such TLD), and the audit would stop
# there with exit 65.
modern=$(awk '$1=="modern"{print $2}' "$work/servers.log")
"$BIN/atscheck" pins extract "modern.demo.atscheck.test:${modern##*:}" \
  --resolve "modern.demo.atscheck.test:${modern##*:}:${modern%:*}" --ca-file "$pki/demo-root.pem" \
  --out "$work/modern-pins" --format json > /dev/null
{
  echo "endpoints:"
  while read -r name address; do
    case "$name" in modern|legacy-tls10|rsa-kx-only|tls13-only) ;; *) continue ;; esac
    echo "  - url: https://$name.demo.atscheck.test:${address##*:}"
    echo "    resolve: ${address%:*}"
    if [ "$name" = modern ]; then
      echo "    pins: modern-pins          # relative to this list"
      echo "    library: nspinneddomains"
    fi
  done < "$work/servers.log"
  echo "  - url: http://cdn.demo.atscheck.test/assets/logo.png   # cleartext: never scanned, judged by ATS"
} > "$work/endpoints.yaml"
echo "== atscheck audit --plist Examples/demo-app/Info.plist --endpoints endpoints.yaml =="
set +e
"$BIN/atscheck" audit --plist Examples/demo-app/Info.plist --endpoints "$work/endpoints.yaml" \
  --ca-file "$pki/demo-root.pem" --format text --report html="$pki/audit-report.html"
status=$?
set -e
echo "(atscheck audit exited with $status; the same run as a page for a browser: $pki/audit-report.html)"
echo

# Before a renewed certificate is deployed: the chain file is judged as iOS and the app's pins would judge it once
# served. The modern server's chain (fetched with openssl s_client) stands in for the renewal; the self-signed staging
# server's certificate stands in for a renewal from another CA, which the app's pins reject. The pins are checked as
# NSPinnedDomains CA identities: TrustKit would refuse the demo's .test names at launch.
served_chain() {  # NAME ADDRESS FILE: the chain a demo server sends, as PEM
  openssl s_client -connect "$2" -servername "$1.demo.atscheck.test" -showcerts < /dev/null 2> /dev/null \
    | awk '/-----BEGIN CERTIFICATE-----/,/-----END CERTIFICATE-----/' > "$3"
}
cp -r "$work/modern-pins" "$pki/modern-pins"   # kept with the chains, for the README's command
served_chain modern "$modern" "$pki/modern-fullchain.pem"
served_chain self-signed "$(awk '$1=="self-signed"{print $2}' "$work/servers.log")" "$pki/other-ca.pem"
echo "== atscheck cert .demo/modern-fullchain.pem --host modern.demo.atscheck.test --pins .demo/modern-pins --library nspinneddomains =="
set +e
"$BIN/atscheck" cert "$pki/modern-fullchain.pem" --host modern.demo.atscheck.test --ca-file "$pki/demo-root.pem" \
  --pins "$pki/modern-pins" --library nspinneddomains --format text
status=$?
echo "(atscheck cert exited with $status: 0 = safe to deploy)"
echo
echo "== atscheck cert .demo/other-ca.pem --host modern.demo.atscheck.test --pins .demo/modern-pins --library nspinneddomains (a renewal from another CA) =="
"$BIN/atscheck" cert "$pki/other-ca.pem" --host modern.demo.atscheck.test --ca-file "$pki/demo-root.pem" \
  --pins "$pki/modern-pins" --library nspinneddomains --format text
status=$?
set -e
echo "(atscheck cert exited with $status: 1 = deploying it would break the app)"
echo

# Pins: the self-signed staging server, pinned the way a typical app pins it (AFNetworking Certificate mode with
# the .cer bundled). `pins extract` writes the .cer for this run's server (Pins/demo holds the same material from
# an earlier run, as a worked example); the release policy rejects the server, the DEBUG relaxations accept it.
staging=$(awk '$1=="self-signed"{print $2}' "$work/servers.log")
staging_target="self-signed.demo.atscheck.test:${staging##*:}"
staging_resolve=(--resolve "$staging_target:${staging%:*}")
echo "== atscheck pins extract $staging_target --format afnetworking =="
"$BIN/atscheck" pins extract "$staging_target" "${staging_resolve[@]}" --out "$work/pins" --format afnetworking
echo
echo "== atscheck pins check (release: AFSSLPinningModeCertificate, nothing relaxed) =="
set +e
"$BIN/atscheck" pins check "$staging_target" "${staging_resolve[@]}" --pins "$work/pins" --library afnetworking \
  --mode certificate --format text
status=$?
set -e
echo "(atscheck pins check exited with $status: 1 = the release build rejects the staging server)"
echo
echo "== atscheck pins check --allow-invalid-certificates --no-validate-domain-name (debug, next to release) =="
set +e
"$BIN/atscheck" pins check "$staging_target" "${staging_resolve[@]}" --pins "$work/pins" --library afnetworking \
  --mode certificate --allow-invalid-certificates --no-validate-domain-name --format text
status=$?
set -e
echo "(atscheck pins check exited with $status: 0 = the debug build accepts it)"
echo

# The build: a demo .ipa (binary Info.plist, AFNetworking 4 pinning this run's demo root as demo-ca.cer, a Mach-O
# executable and a main.jsbundle naming the servers) audited live. Its URLs carry this run's ports, and each
# harvested name is mapped to its loopback server with --resolve, as a staging build's names would be mapped
# through /etc/hosts. MinimumOSVersion 12.0, so the verdicts cover iOS 12 to the newest.
app_ports=(); app_resolves=()
while read -r name address; do
  case "$name" in modern|legacy-tls10|rsa-kx-only|tls13-only) ;; *) continue ;; esac
  app_ports+=("$name=${address##*:}")
  app_resolves+=(--resolve "$name.demo.atscheck.test:${address##*:}:${address%:*}")
done < "$work/servers.log"
"$BIN/atscheck-make-demo-app" "$work/app" "$pki/demo-root.pem" "${app_ports[@]}" --minimum-os 12.0 > /dev/null
echo "== atscheck app Demo.ipa (harvested endpoints, judged per OS era; bundled pins against the live paths) =="
set +e
"$BIN/atscheck" app "$work/app/Demo.ipa" "${app_resolves[@]}" --ca-file "$pki/demo-root.pem" --format text \
  --report html="$pki/app-report.html"
status=$?
set -e
echo "(atscheck app exited with $status: 1 = an endpoint of this build fails ATS on an OS it supports)"
echo "(the release report, endpoints × OS era, for a browser: $pki/app-report.html, file://$PWD/$pki/app-report.html)"
echo

echo "== atscheck plist Examples/broken-app/Info.plist (typos, wrong types, bad domain keys, a bad pin) =="
set +e
"$BIN/atscheck" plist Examples/broken-app/Info.plist --format text
status=$?
set -e
echo "(atscheck plist exited with $status)"
exec 3>&-
