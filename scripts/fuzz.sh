#!/usr/bin/env bash
# Runs the libFuzzer targets of a BANGC_FUZZ build (scripts/test-sanitize.sh
# makes one in build-asan/), each for SECONDS, from seeds gathered from the
# repository. A crash, leak, sanitizer report or timeout stops the run with
# the input saved as build-asan/fuzz/work/TARGET/crash-*; exit status 1.
#   scripts/fuzz.sh [SECONDS] [BUILD_DIR] [compile|files ...]
# See docs/testing.md.
set -euo pipefail
cd "$(dirname "$0")/.."
SECS=${1:-60}
BUILD=${2:-build-asan}
shift $(( $# > 2 ? 2 : $# ))
TARGETS=("$@")
[ ${#TARGETS[@]} -eq 0 ] && TARGETS=(compile files)
PY=/usr/bin/python3
WORK=$BUILD/fuzz/work

repo_files() { # tracked files matching a glob, or all on disk if not a clone
  git ls-files "$1" 2>/dev/null ||
    find . -path ./build\* -prune -o -name "$1" -print
}

seed_compile() {
  local dir=$1
  repo_files '*.mlu' | while read -r f; do cp "$f" "$dir/$(echo "$f" | tr / _)"; done
}

seed_files() {
  local dir=$1
  repo_files '*.json' | grep -v -e '^\.' -e 'bench/results' | while read -r f; do
    cp "$f" "$dir/$(echo "$f" | tr / _)"
  done
  for g in examples/graphs/*.json; do
    "$BUILD/bin/bangc-graph" "$g" --write-binary "$dir/$(basename "$g" .json).pb" >/dev/null 2>&1 || true
  done
  for d in mlu270 mlu370 tiny; do
    "$BUILD/bin/bangc-sim" device "$d" > "$dir/spec-$d.json"
  done
  "$PY" - "$dir" <<'PYEOF'
import sys, numpy as np
d = sys.argv[1]
arrays = {
    "f32": np.arange(12, dtype=np.float32).reshape(3, 4),
    "f16": np.array([0.5, -2, np.inf, np.nan], dtype=np.float16),
    "i8": np.arange(-4, 4, dtype=np.int8),
    "u8": np.arange(6, dtype=np.uint8).reshape(1, 2, 3),
    "i32be": np.arange(5, dtype=">i4"),
    "f64": np.linspace(0, 1, 5),
    "bool": np.array([True, False]),
    "fortran": np.asfortranarray(np.arange(6, dtype=np.float32).reshape(2, 3)),
    "scalar": np.array(3.5, dtype=np.float32),
    "empty": np.zeros((0, 4), dtype=np.float32),
}
for name, a in arrays.items():
    np.save(f"{d}/{name}.npy", a)
with open(f"{d}/v2.npy", "wb") as f:
    np.lib.format.write_array(f, np.arange(4, dtype=np.int16), version=(2, 0))
PYEOF
}

status=0
for t in "${TARGETS[@]}"; do
  bin=$BUILD/bin/bangc-fuzz-$t
  [ -x "$bin" ] || { echo "fuzz.sh: no $bin (configure with -DBANGC_FUZZ=ON)" >&2; exit 2; }
  rm -rf "$WORK/$t/seed"
  mkdir -p "$WORK/$t/seed" "$WORK/$t/corpus"
  "seed_$t" "$WORK/$t/seed"
  dict=() regressions=()
  [ "$t" = compile ] && dict=(-dict="$BUILD/fuzz/mlu.dict")
  [ -d fuzz/regressions/"$t" ] && regressions=(fuzz/regressions/"$t")
  echo "== fuzzing $t for ${SECS}s ($(ls "$WORK/$t/seed" | wc -l) seeds)" >&2
  if ! "$bin" -max_total_time="$SECS" -timeout=60 -print_final_stats=1 \
      -artifact_prefix="$WORK/$t/" "${dict[@]}" \
      "$WORK/$t/corpus" "$WORK/$t/seed" "${regressions[@]}" \
      > "$WORK/$t/log" 2>&1; then
    status=1
    echo "fuzz.sh: $t found a problem; input and report in $WORK/$t/" >&2
    grep -a -E "ERROR|SUMMARY|Test unit written" "$WORK/$t/log" >&2 || true
  fi
  grep -a -E "stat::number_of_executed_units|stat::peak_rss_mb|cov: .*DONE|^Done" "$WORK/$t/log" >&2 || true
done
exit $status
