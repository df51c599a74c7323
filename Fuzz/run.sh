#!/bin/bash
# Builds the libFuzzer targets with AddressSanitizer and runs each for FUZZ_SECONDS (default 30).
# FuzzZip and FuzzMachO start from seeds Fuzz/make-seeds.py writes into .build-fuzz/seeds/ (no binary committed).
# A crash stops the run and leaves the input in .build-fuzz/artifacts/; commit it under
# Tests/Fixtures/fuzz-regressions/<target>/ so the normal test suite replays it (FuzzRegressionTests).
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
SECONDS_EACH=${FUZZ_SECONDS:-30}
TARGETS=${FUZZ_TARGETS:-"FuzzPlist FuzzEndpoints FuzzBaseline FuzzProfiles FuzzCertificate FuzzZip FuzzMachO FuzzMerge"}
SCRATCH=.build-fuzz
(cd Fuzz && "$SWIFT" build --scratch-path "../$SCRATCH" -Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing)
BIN=$("$SWIFT" build --package-path Fuzz --scratch-path "$SCRATCH" -Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing --show-bin-path)
mkdir -p "$SCRATCH/artifacts"
python3 Fuzz/make-seeds.py "$SCRATCH/seeds"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/Fuzz/lsan-suppressions.txt:print_suppressions=0}
status=0
for target in $TARGETS; do
  work="$SCRATCH/corpus/$target"  # grows between runs; the committed seeds stay as they are
  mkdir -p "$work"
  seeds=()
  for folder in "Fuzz/corpus/$target" "$SCRATCH/seeds/$target" "Tests/Fixtures/fuzz-regressions/$target"; do
    [ -d "$folder" ] && seeds+=("$folder")
  done
  echo "== $target: ${SECONDS_EACH}s, seeds ${seeds[*]}"
  if ! "$BIN/$target" "$work" "${seeds[@]}" \
      -max_total_time="$SECONDS_EACH" -max_len=65536 -rss_limit_mb=4096 -timeout=20 -print_final_stats=1 \
      -artifact_prefix="$SCRATCH/artifacts/$target-" 2> "$SCRATCH/$target.log"; then
    echo "!! $target found a problem; see $SCRATCH/$target.log and $SCRATCH/artifacts/"
    grep -E "ERROR|SUMMARY|Test unit written" "$SCRATCH/$target.log" | head -5
    status=1
  else
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$SCRATCH/$target.log" | tr '\n' ' '; echo
  fi
done
exit $status
