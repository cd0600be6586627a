#!/usr/bin/env bash
# Checks a folder of committed runs against its manifest.json (scripts/write-manifest.sh): the
# manifest lists every other file of the folder, and each has the sha256 it names. Quick (a
# few MB hashed), so scripts/assemble-dist.sh and npm start check the recordings they serve, and
# tests/shell/recorded.sh checks both folders.
# Usage: scripts/check-manifest.sh DIR. Exit status: 0 matches; 1 does not (the first
# difference on stderr).
set -euo pipefail
dir=${1%/}
fail() { echo "check-manifest: $dir: $*" >&2; exit 1; }
[[ -f $dir/manifest.json ]] || fail "no manifest.json"
listed=$(node -e 'for (const f of Object.keys(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).files)) console.log(f)' \
  "$dir/manifest.json" | LC_ALL=C sort) || fail "manifest.json is not a manifest"
present=$(cd "$dir" && find . -type f ! -name manifest.json | sed 's|^\./||' | LC_ALL=C sort)
[[ $listed == "$present" ]] ||
  fail "the files are not the manifest's: $(diff <(echo "$listed") <(echo "$present") | grep '^[<>]' | tr '\n' ' ')"
while read -r f; do
  want=$(grep -o "\"$f\": \"[0-9a-f]*\"" "$dir/manifest.json" | sed 's/.*: "//; s/"$//')
  got=$(sha256sum "$dir/$f" | cut -d' ' -f1)
  [[ $want == "$got" ]] || fail "$f: sha256 $got, the manifest says $want"
done <<<"$listed"
