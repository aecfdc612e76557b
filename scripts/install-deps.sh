#!/usr/bin/env bash
# Installs what tensorlens needs to build, test and run on Debian 12 (as root,
# or with sudo). Skips apt entirely when everything is already there.
set -euo pipefail
packages=(cmake ninja-build g++ pkg-config git ccache
          qt6-base-dev qt6-svg-dev libgl-dev
          libgraphviz-dev graphviz nlohmann-json3-dev libbenchmark-dev
          libopenblas-dev liblapacke-dev libeigen3-dev libboost-math-dev libsleef-dev libjemalloc-dev
          xvfb xauth)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "Installing: ${missing[*]}"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
