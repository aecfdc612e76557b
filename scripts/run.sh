#!/usr/bin/env bash
# Installs what is missing, builds tensorlens (release) and opens the GUI on the
# seed example. Extra arguments go to tensorlens instead (e.g. `scripts/run.sh run FILE.json`).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
# Only the application: the test suites are scripts/test.sh's job.
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DTL_BUILD_TESTS=OFF > /dev/null
cmake --build build -j"$(nproc)"
if [ $# -gt 0 ]; then
  exec ./build/app/tensorlens "$@"
fi
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
  echo "No display: opening the GUI under xvfb-run (use a desktop session to see it)." >&2
  exec xvfb-run -a ./build/app/tensorlens --example seed_rop
fi
exec ./build/app/tensorlens --example seed_rop
