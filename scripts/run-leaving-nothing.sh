#!/usr/bin/env bash
# Runs a command (CI: `make test`) as a test run that must leave nothing behind (issue 33), and fails when it does.
#
# The run gets a temporary folder of its own (TMPDIR, which Foundation's temporaryDirectory, NSTemporaryDirectory,
# Python's tempfile and OpenSSL's callers follow) and a random mark in its environment (ATSCHECK_TEST_RUN), which
# every process it starts inherits. Other test runs on the same machine have their own folder and mark, so neither
# the machine's /tmp nor its other processes are counted. After the command: every `atscheck-*` entry left in the
# folder, and every process still carrying the mark (found through /proc/*/environ), is printed and fails the run;
# the leftover processes are then killed by pid and the folder removed, so a failed run does not leave them either.
#
#   scripts/run-leaving-nothing.sh make test
set -uo pipefail

if [ $# -eq 0 ]; then
  echo "usage: $0 COMMAND [ARGUMENT...]" >&2
  exit 2
fi

mark="$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"
folder="$(mktemp -d "${TMPDIR:-/tmp}/ci-test-run.XXXXXX")"

# Pids of the live processes whose environment carries this run's mark (zombies have no environment left).
marked() {
  local entry pid
  for entry in /proc/[0-9]*; do
    pid="${entry#/proc/}"
    tr '\0' '\n' 2>/dev/null <"$entry/environ" | grep -qx "ATSCHECK_TEST_RUN=$mark" && echo "$pid"
  done
}

# The `atscheck-*` entries in the run's folder.
entries() {
  find "$folder" -mindepth 1 -maxdepth 1 -name 'atscheck-*' 2>/dev/null | sort
}

echo "== test run $mark: TMPDIR=$folder"
echo "== before: $(entries | wc -l) atscheck-* entries in TMPDIR, $(marked | wc -l) processes of the run"
ATSCHECK_TEST_RUN="$mark" TMPDIR="$folder" "$@"
status=$?

# A child being killed as the run ends may take a moment to exit: look again for up to 3 s before naming it.
for _ in $(seq 30); do
  [ -z "$(marked)" ] && break
  sleep 0.1
done
left_processes="$(marked)"
left_entries="$(entries)"
others="$(find "$folder" -mindepth 1 -maxdepth 1 ! -name 'atscheck-*' 2>/dev/null | sort)"
process_count=$(printf '%s' "$left_processes" | grep -c . || true)
entry_count=$(printf '%s' "$left_entries" | grep -c . || true)
echo "== after: $entry_count atscheck-* entries in TMPDIR, $process_count processes of the run (command exit $status)"

if [ -n "$left_entries" ]; then
  echo "error: the test run left these in its temporary folder:" >&2
  printf '%s\n' "$left_entries" | sed "s|^$folder/|  |" | head -200 >&2
fi
if [ -n "$others" ]; then
  echo "note: other entries in the run's temporary folder (not atscheck's):" >&2
  printf '%s\n' "$others" | sed "s|^$folder/|  |" | head -50 >&2
fi
if [ -n "$left_processes" ]; then
  echo "error: the test run left these processes running:" >&2
  for pid in $left_processes; do
    printf '  pid %s: %s\n' "$pid" "$(tr '\0' ' ' 2>/dev/null <"/proc/$pid/cmdline")" >&2
  done
  # Ours (they carry this run's mark): killed by pid, so the next run starts clean.
  for pid in $left_processes; do kill -KILL "$pid" 2>/dev/null || true; done
fi
rm -rf "$folder"

[ "$status" -ne 0 ] && exit "$status"
[ -n "$left_entries$left_processes" ] && exit 1
exit 0
