#!/usr/bin/env bash
# The committed long runs (recorded/converged/, scripts/record-converged.sh): every file is the
# one the manifest hashes (sha256) and the manifest lists every file; `wolab report --json` of
# each preset's committed results is its committed analysis, byte for byte. The first steps of
# a run trained again are checked by tests/native/test_recorded.cpp.
# Usage: tests/shell/recorded.sh WOLAB   (ctest runs it: CMakeLists.txt)
set -euo pipefail
wolab=$(realpath "$1")
folder="$(dirname "$0")/../../recorded/converged"
fail() { echo "FAIL: $*" >&2; exit 1; }
rerecord="if the core's numbers changed on purpose, record again: scripts/record-converged.sh (docs/sweeps.md)"
cd "$folder" || fail "no recorded/converged/"
[[ -f manifest.json ]] || fail "no manifest.json"
listed=$(node -e 'for (const f of Object.keys(require("./manifest.json").files)) console.log(f)' 2>/dev/null ||
         python3 -c 'import json; print("\n".join(json.load(open("manifest.json"))["files"]))')
[[ $(echo "$listed" | sort) == $(find . -type f ! -name manifest.json | sed 's|^\./||' | sort) ]] ||
  fail "the files are not the manifest's: $(diff <(echo "$listed" | sort) <(find . -type f ! -name manifest.json | sed 's|^\./||' | sort) | tr '\n' ' ')"
while read -r f; do
  want=$(grep -o "\"$f\": \"[0-9a-f]*\"" manifest.json | sed 's/.*: "//; s/"$//')
  got=$(sha256sum "$f" | cut -d' ' -f1)
  [[ $want == "$got" ]] || fail "$f: sha256 $got, the manifest says $want"
done <<<"$listed"
for results in */results.real_words.json; do
  dir=$(dirname "$results")
  (cd "$dir" && "$wolab" report --json results.real_words.json) | cmp -s - "$dir/analysis.json" ||
    fail "$dir: wolab report --json differs from the committed analysis.json; $rerecord"
done
echo "recorded/converged: $(echo "$listed" | wc -l) files as the manifest hashes them, analyses reproduced"
