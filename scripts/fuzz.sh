#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan + UBSan) and runs each for a while.
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]
#
# SECONDS per target (default 60); TARGETs among fuzz_json_graph, fuzz_trace,
# fuzz_dprint_import (default: all three). The build goes to $TL_FUZZ_BUILD_DIR
# (default: ../build-fuzz beside the checkout). Seed corpora come from the
# examples, the golden graphs and listings, the checked-in traces and every
# regression input (tests/fuzz/regressions/<target>/). A crash leaves its input
# in <build>/fuzz-artifacts/ and makes the script exit 1: add that file to
# tests/fuzz/regressions/<target>/ (tst_fuzz_regressions replays them all).
# See docs/fuzzing.md.
set -euo pipefail

secs=${1:-60}
if [ $# -gt 0 ]; then shift; fi
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then targets=(fuzz_json_graph fuzz_trace fuzz_dprint_import); fi

root=$(cd "$(dirname "$0")/.." && pwd)
build=${TL_FUZZ_BUILD_DIR:-$root/../build-fuzz}
jobs=${TL_FUZZ_JOBS:-2}

cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DTL_BUILD_GUI=OFF -DTL_BUILD_FUZZ=ON > "$build.configure.log" 2>&1 || { cat "$build.configure.log"; exit 2; }
cmake --build "$build" -j"$jobs" --target "${targets[@]}"

corpus=$build/fuzz-corpus
artifacts=$build/fuzz-artifacts
mkdir -p "$artifacts"
seed() {  # seed TARGET FILES...
  local dir=$corpus/$1
  shift
  mkdir -p "$dir"
  for f in "$@"; do [ -f "$f" ] && cp "$f" "$dir/" || true; done
}
seed json_graph "$root"/resources/examples/*.json "$root"/tests/golden/dprint/*.json "$root"/tests/golden/every_op_kind.json \
  "$root"/tests/fuzz/regressions/json_graph/*
seed trace "$root"/tests/fuzz/seeds/*.trace.json "$root"/tests/fuzz/regressions/trace/*
seed dprint_import "$root"/tests/golden/dprint/*.txt "$root"/tests/fuzz/regressions/dprint_import/*
# The reference cases' listings (tests/oracle/<case>/expected.json).
if command -v python3 > /dev/null; then
  python3 - "$root/tests/oracle" "$corpus/dprint_import" <<'PY'
import json, os, sys
src, dst = sys.argv[1], sys.argv[2]
for case in sorted(os.listdir(src)):
    p = os.path.join(src, case, "expected.json")
    if not os.path.isfile(p):
        continue
    d = json.load(open(p))
    for key in ("dprint_fast_run", "dprint_no_prealloc"):
        if key in d:
            open(os.path.join(dst, f"{case}.{key}.txt"), "w").write(d[key])
PY
fi

status=0
for t in "${targets[@]}"; do
  name=${t#fuzz_}
  echo "== $t: ${secs}s"
  if ! "$build/tests/fuzz/$t" -max_total_time="$secs" -timeout=20 -rss_limit_mb=4096 -print_final_stats=1 \
      -artifact_prefix="$artifacts/$name-" "$corpus/$name" 2>&1 | tail -n 25; then
    status=1
  fi
done
ls "$artifacts" | head -n 20
exit $status
