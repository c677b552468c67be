#!/usr/bin/env bash
# Runs the libFuzzer targets of a BANGC_FUZZ build (scripts/test-sanitize.sh
# makes one in build-asan/), each for SECONDS, from seeds gathered from the
# repository and made with the build. A crash, leak, sanitizer report or
# timeout stops that target with the input saved as
# build-asan/fuzz/work/TARGET/crash-*; the others still run; exit status 1.
#   scripts/fuzz.sh [SECONDS] [BUILD_DIR] [TARGET ...]
# TARGET: compile npy spec taskir cache args (default: all of them).
# See docs/testing.md.
set -euo pipefail
cd "$(dirname "$0")/.."
SECS=${1:-60}
BUILD=${2:-build-asan}
shift $(( $# > 2 ? 2 : $# ))
TARGETS=("$@")
ALL=(compile npy spec taskir cache args)
[ ${#TARGETS[@]} -eq 0 ] && TARGETS=("${ALL[@]}")
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

copy_kept() { # the seeds kept in the repository: fuzz/seeds/TARGET/
  local t=$1 dir=$2
  [ -d fuzz/seeds/"$t" ] && cp fuzz/seeds/"$t"/* "$dir"/ || true
}

seed_spec() {
  local dir=$1
  copy_kept spec "$dir"
  "$BUILD/bin/bangc-sim" device --list | while read -r d; do
    "$BUILD/bin/bangc-sim" device "$d" > "$dir/spec-$d.json" 2>/dev/null ||
      rm -f "$dir/spec-$d.json"
  done
}

seed_taskir() {
  local dir=$1
  repo_files '*.json' | grep -e '^examples/graphs/' -e '^graph/test/' | while read -r f; do
    cp "$f" "$dir/$(echo "$f" | tr / _)"
  done
  for g in examples/graphs/*.json; do
    "$BUILD/bin/bangc-graph" "$g" --write-binary "$dir/$(basename "$g" .json).pb" >/dev/null 2>&1 || true
  done
}

seed_npy() {
  local dir=$1
  repo_files '*.npy' | while read -r f; do cp "$f" "$dir/$(echo "$f" | tr / _)"; done
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

seed_cache() { # real manifests and entries: a few kernels compiled into a fresh cache
  local dir=$1 cache
  copy_kept cache "$dir"
  cache=$(mktemp -d)
  "$PY" -c "import numpy as np; np.save('$cache/a.npy', np.ones(16, np.float32))"
  for opt in -O2 -O0 --check; do
    BANGC_CACHE_DIR=$cache/c "$BUILD/bin/bangc-sim" run examples/vector_add.mlu \
      "$opt" --kernel vadd --arg in:"$cache/a.npy" --arg in:"$cache/a.npy" \
      --arg out:"$cache/c.npy":f32:16 --arg i32:16 >/dev/null 2>&1 || true
  done
  BANGC_CACHE_DIR=$cache/c "$BUILD/bin/bangc-sim" op tin_shift_forward --device tiny \
    --in input="$cache/a.npy" --in shifts="$cache/a.npy" --out output="$cache/o.npy" \
    >/dev/null 2>&1 || true
  find "$cache/c" -type f \( -name '*.manifest' -o -name '*.entry' \) |
    while read -r f; do cp "$f" "$dir/"; done
  rm -rf "$cache"
}

seed_args() { # the command lines of the lit tests, one argument per line
  local dir=$1
  copy_kept args "$dir"
  "$PY" - "$dir" <<'PYEOF'
import hashlib, os, re, shlex, sys
out, seen = sys.argv[1], set()
for root, _, files in os.walk("test/lit"):
    for name in sorted(files):
        with open(os.path.join(root, name), errors="replace") as f:
            lines = [l for l in f if "RUN:" in l and "bangc-sim " in l]
        for line in lines:
            try:
                toks = shlex.split(line.split("RUN:", 1)[1])
            except ValueError:
                continue
            if "bangc-sim" not in toks:
                continue
            args = []
            for a in toks[toks.index("bangc-sim") + 1:]:
                if a in ("|", "&&", ";", "||") or a.startswith((">", "2>", "<")):
                    break
                args.append(re.sub(r"%\{?(\w+)\}?", r"\1", a))
            data = "\n".join(args)
            if args and data not in seen:
                seen.add(data)
                with open(os.path.join(out, hashlib.sha1(data.encode()).hexdigest()[:12]), "w") as f:
                    f.write(data)
PYEOF
}

status=0
for t in "${TARGETS[@]}"; do
  bin=$BUILD/bin/bangc-fuzz-$t
  [ -x "$bin" ] || { echo "fuzz.sh: no $bin (configure with -DBANGC_FUZZ=ON)" >&2; exit 2; }
  rm -rf "$WORK/$t/seed"
  mkdir -p "$WORK/$t/seed" "$WORK/$t/corpus"
  "seed_$t" "$WORK/$t/seed" ||
    echo "fuzz.sh: making the seeds of $t failed; fuzzing from those made" >&2
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
