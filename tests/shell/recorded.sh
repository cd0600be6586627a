#!/usr/bin/env bash
# The committed runs, real words trained to the end (recorded/converged/, scripts/
# record-converged.sh), the page's presets (recorded/presets/, scripts/record.sh) and what W_o is
# for (recorded/purpose/, scripts/record-purpose.sh): every file
# is the one its manifest hashes (sha256) and the manifest lists every file
# (scripts/check-manifest.sh); `wolab report --json` of each preset's committed results is its
# committed analysis, every number to within 1e-9 of it (libm's last bit differs by machine, as
# tests/native/test_recorded.cpp says), the rest to the letter. The first steps of runs trained
# again are checked by tests/native/test_recorded.cpp.
# Usage: tests/shell/recorded.sh WOLAB   (ctest runs it: CMakeLists.txt)
set -euo pipefail
wolab=$(realpath "$1")
root="$(cd "$(dirname "$0")/../.." && pwd)"
fail() { echo "FAIL: $*" >&2; exit 1; }
for name in converged presets purpose; do
  folder=$root/recorded/$name
  bash "$root/scripts/check-manifest.sh" "$folder" || fail "recorded/$name does not match its manifest"
  n=0
  for analysis in "$folder"/*/analysis.json; do
    dir=$(dirname "$analysis")
    (cd "$dir" && "$wolab" report --json results.*.json) | node -e '
      const fs = require("fs");
      const near = (a, b) => (typeof a === "number" && typeof b === "number"
        ? Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b))
        : a !== null && b !== null && typeof a === "object" && typeof b === "object"
          ? Array.isArray(a) === Array.isArray(b) && Object.keys(a).length === Object.keys(b).length
            && Object.keys(b).every((k) => k in a && near(a[k], b[k]))
          : a === b);
      process.exit(near(JSON.parse(fs.readFileSync(0, "utf8")), JSON.parse(fs.readFileSync(process.argv[1], "utf8"))) ? 0 : 1);
    ' "$analysis" ||
      fail "recorded/$name/$(basename "$dir"): wolab report --json differs from the committed analysis.json; if the core's numbers changed on purpose, record again (docs/sweeps.md)"
    n=$((n + 1))
  done
  ((n > 0)) || fail "recorded/$name has no analysis.json"
  echo "recorded/$name: every file as the manifest hashes it, $n analyses reproduced"
done
