#!/usr/bin/env bash
# Writes DIR/manifest.json for a folder of committed runs (recorded/presets/ by scripts/record.sh,
# recorded/converged/ by scripts/record-converged.sh): the command that made it, the wolab
# version, the core's commit (and how many source files differed from it), the machine, the CPU
# and wall time, and the sha256 of every other file of the folder, which tests/shell/recorded.sh
# checks. Usage: scripts/write-manifest.sh DIR, with
#   WOLAB_BIN         the wolab CLI that recorded the runs (default build/wolab)
#   MANIFEST_COMMAND  the script that recorded them
#   MANIFEST_EXTRA    more fields, each a line '"key": value,' (default none)
#   MANIFEST_COMMIT, MANIFEST_DIRTY  the core's commit and its changed files when the runs began
#   MANIFEST_NOTE     a line: how the runs were made, if not by the command alone (default empty)
#   MANIFEST_CPU, MANIFEST_WALL      the seconds the runs took
set -euo pipefail
dir=${1%/}
bin=$(realpath "${WOLAB_BIN:-build/wolab}")
{
  printf '{"format": "wolab-recorded", "version": 1,\n'
  printf ' "command": "%s",\n' "$MANIFEST_COMMAND"
  [[ -z ${MANIFEST_EXTRA:-} ]] || printf '%s\n' "$MANIFEST_EXTRA" | sed 's/^/ /'
  printf ' "wolab_version": "%s", "core_commit": "%s", "core_dirty_files": %s,\n' \
    "$("$bin" --version | awk '{ print $2 }')" "$MANIFEST_COMMIT" "$MANIFEST_DIRTY"
  printf ' "note": "%s",\n' "${MANIFEST_NOTE:-}"
  printf ' "machine": "%s, %s cores", "cpu_seconds": %s, "wall_seconds": %s,\n' \
    "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //; s/"//g')" "$(nproc)" "$MANIFEST_CPU" "$MANIFEST_WALL"
  printf ' "files": {'
  sep=''
  (cd "$dir" && find . -type f ! -name manifest.json | sed 's|^\./||' | LC_ALL=C sort) | while read -r f; do
    printf '%s\n  "%s": "%s"' "$sep" "$f" "$(sha256sum "$dir/$f" | cut -d' ' -f1)"
    sep=','
  done
  printf '}}\n'
} > "$dir/../.manifest.json.tmp"
mv "$dir/../.manifest.json.tmp" "$dir/manifest.json"
