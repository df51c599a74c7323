#!/usr/bin/env bash
# `make try`: start the demo servers on loopback and leave them running, with the demo PKI, a pin set and a demo
# .ipa kept in .demo/, and write .demo/try.env with this run's targets, so the README's commands can be tried by
# hand. `make try-stop` (Examples/try.sh stop) stops the servers. Everything stays on 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-.build/release}
dir=.demo/try
pidfile=$dir/servers.pid

stop() {
  if [ -f "$pidfile" ]; then
    # The servers run in their own session: stop the whole group (the servers and the process holding their stdin).
    pgid=$(cat "$pidfile")
    kill -- -"$pgid" 2>/dev/null || true
    rm -f "$pidfile"
    echo "demo servers stopped"
  else
    echo "no demo servers running (no $pidfile)"
  fi
}

case "${1:-start}" in
  stop) stop; exit 0 ;;
  start) ;;
  *) echo "usage: Examples/try.sh [start|stop]" >&2; exit 64 ;;
esac

stop > /dev/null
mkdir -p "$dir"
rm -f "$dir/servers.log"
# The servers run until their stdin closes; `sleep infinity` holds it open until `make try-stop`.
setsid bash -c "sleep infinity | exec '$BIN/atscheck-demo-servers' --config Examples/demo-servers.json \
  --write-targets '$dir/targets.txt' --write-ca .demo/demo-root.pem > '$dir/servers.log' 2>&1" \
  < /dev/null > /dev/null 2>&1 &   # nothing of this shell's: a pipe into `make try` still ends
echo $! > "$pidfile"
for _ in $(seq 1 300); do grep -q '^ready' "$dir/servers.log" 2>/dev/null && break; sleep 0.1; done
grep -q '^ready' "$dir/servers.log" || { cat "$dir/servers.log" >&2; stop; echo "demo servers did not start" >&2; exit 1; }

targets=(); resolves=(); app_ports=(); app_resolves=()
{
  echo "# written by make try: source it (. .demo/try.env) to use this run's demo servers"
  while read -r name address; do
    [ "$name" = ready ] && continue
    port=${address##*:}
    var=$(echo "$name" | tr 'a-z-' 'A-Z_')
    echo "${var}=$name.demo.atscheck.test:$port"
    echo "${var}_RESOLVE=--resolve=$name.demo.atscheck.test:$port:${address%:*}"
    targets+=("https://$name.demo.atscheck.test:$port")
    resolves+=("--resolve=$name.demo.atscheck.test:$port:${address%:*}")
    case "$name" in modern|legacy-tls10|rsa-kx-only|tls13-only)
      app_ports+=("$name=$port")
      app_resolves+=("--resolve=$name.demo.atscheck.test:$port:${address%:*}") ;;
    esac
  done < "$dir/servers.log"
  echo "TARGETS=\"${targets[*]}\""
  echo "RESOLVE=\"${resolves[*]}\""
  echo "APP_RESOLVE=\"${app_resolves[*]}\""
} > .demo/try.env
"$BIN/atscheck-make-demo-app" .demo/app .demo/demo-root.pem "${app_ports[@]}" --minimum-os 12.0 > /dev/null

echo "demo servers running (loopback only); their names and ports are in .demo/try.env:"
grep -v '^ready' "$dir/servers.log" | sed 's/^/  /'
cat <<'EOF'

Try (after `. .demo/try.env`):
  atscheck scan $TARGETS $RESOLVE --ca-file .demo/demo-root.pem
  atscheck diagnose https://$LEGACY_TLS10 $LEGACY_TLS10_RESOLVE --ca-file .demo/demo-root.pem
  atscheck app .demo/app/Demo.ipa $APP_RESOLVE --ca-file .demo/demo-root.pem --report html=.demo/app.html
  atscheck pins extract $MODERN $MODERN_RESOLVE --ca-file .demo/demo-root.pem --format trustkit
Stop them with: make try-stop
EOF
