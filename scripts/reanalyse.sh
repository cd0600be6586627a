#!/usr/bin/env bash
# Writes the analysis of committed runs again with today's core, for a change of the analysis
# alone (the rules or words of docs/claims.md; the drift guard still passes, so the runs stand):
# in each preset folder of each FOLDER (recorded/presets, recorded/converged), analysis.json
# (`wolab report --json results.*.json`) and report.txt (`wolab report results.*.json`), then the
# folder's manifest anew (scripts/write-manifest.sh): the sha256 of every file, its record of the
# training kept as it was, and a note naming the core that analysed them again.
# Usage: scripts/reanalyse.sh FOLDER...   (WOLAB_BIN: the wolab CLI, default build/wolab)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(realpath "${WOLAB_BIN:-build/wolab}")
commit=$(git rev-parse --short HEAD)
dirty=$(git status --porcelain -- src bindings CMakeLists.txt | wc -l)
for folder in "$@"; do
  folder=${folder%/}
  for analysis in "$folder"/*/analysis.json; do
    (cd "$(dirname "$analysis")" && "$bin" report --json results.*.json > analysis.json && "$bin" report results.*.json > report.txt)
  done
  # The manifest's own fields, as the environment of write-manifest.sh; its other fields (the
  # presets, the sweep's commands) as MANIFEST_EXTRA's lines.
  eval "$(node -e '
    const m = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    const own = ["format", "version", "command", "wolab_version", "core_commit", "core_dirty_files", "note", "machine", "cpu_seconds", "wall_seconds", "files"];
    const q = (s) => `'"'"'${String(s).replace(/'"'"'/g, `'"'"'\\'"'"''"'"'`)}'"'"'`;
    const extra = Object.keys(m).filter((k) => !own.includes(k)).map((k) => `${JSON.stringify(k)}: ${JSON.stringify(m[k])},`).join("\n");
    const note = [m.note, process.argv[2]].filter(Boolean).join(" ");
    console.log(`MANIFEST_COMMAND=${q(m.command)} MANIFEST_COMMIT=${q(m.core_commit)} MANIFEST_DIRTY=${q(m.core_dirty_files)}`);
    console.log(`MANIFEST_CPU=${q(m.cpu_seconds)} MANIFEST_WALL=${q(m.wall_seconds)} MANIFEST_NOTE=${q(note)} MANIFEST_EXTRA=${q(extra)}`);
  ' "$folder/manifest.json" "The analyses were written again by scripts/reanalyse.sh with core $commit ($dirty source files changed).")"
  WOLAB_BIN=$bin MANIFEST_COMMAND=$MANIFEST_COMMAND MANIFEST_COMMIT=$MANIFEST_COMMIT MANIFEST_DIRTY=$MANIFEST_DIRTY \
    MANIFEST_CPU=$MANIFEST_CPU MANIFEST_WALL=$MANIFEST_WALL MANIFEST_NOTE=$MANIFEST_NOTE MANIFEST_EXTRA=$MANIFEST_EXTRA \
    bash scripts/write-manifest.sh "$folder"
  echo "reanalyse: $folder"
done
