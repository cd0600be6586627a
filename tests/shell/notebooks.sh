#!/usr/bin/env bash
# Every experiment's notebook (`wolab notebook`, docs/notebooks.md) at tiny settings, executed
# headless by nbclient (tests/shell/run_notebook.py), two at a time: each must write its results
# file, which `wolab report` must read and say was trained in PyTorch. A notebook of a bad config
# must be refused with the very line `wolab run` prints. The results files stay in OUT_DIR for
# tests/wasm/notebook.test.js, which imports them as the page does.
# Usage: tests/shell/notebooks.sh WOLAB OUT_DIR     prints "notebooks: N passed, N failed" last
set -uo pipefail
wolab=$(realpath "$1")
out=$2
rm -rf "$out" && mkdir -p "$out"
out=$(realpath "$out")
here=$(dirname "$(realpath "$0")")
passed=0
failed=0
pass() { passed=$((passed + 1)); echo "ok: $*"; }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }

# A tiny model: every run trains in well under a second; real_words reads every 200th word of
# the build's lexicon (about 570 words, 30 held out), so the notebook's word scoring is quick.
flags=(--d-model 8 --heads 2 --layers 1 --d-ff 16 --alphabet 4 --length 3 --batch 8 --heldout 32
       --steps 20 --probe-every 5 --seeds 2 --lrs 0.003,0.03
       --words-d-model 8 --words-heads 2 --words-layers 1 --words-d-ff 16 --words-steps 10 --words-batch 8
       --words-probe-every 5 --words-heldout 16)
awk '!/^;/ && !/\(/ && ++n % 200 == 0' "$(dirname "$wolab")/data/cmudict-g2p.txt" >"$out/words.txt"

# One notebook: made, executed, its results file read back.
notebook() {  # experiment, language
  local e=$1 lang=$2 data=()
  [[ $e == real_words ]] && data=(--data "$out/words.txt")
  local nb="$out/$e.ipynb" log="$out/$e.log"
  if ! "$wolab" notebook "${flags[@]}" "${data[@]}" --experiment "$e" --lang "$lang" --out "$nb" >"$log" 2>&1; then
    echo "$e: wolab notebook: $(tail -1 "$log")"; return 1
  fi
  if ! /usr/bin/python3 "$here/run_notebook.py" "$nb" 600 >>"$log" 2>&1; then
    echo "$e: $(tail -1 "$log")"; return 1
  fi
  local results="$out/$e.pytorch.json"
  [[ -s $results ]] || { echo "$e: the notebook wrote no $results"; return 1; }
  if ! "$wolab" report "$results" >"$out/$e.report.txt" 2>>"$log"; then
    echo "$e: wolab report: $(tail -1 "$log")"; return 1
  fi
  grep -q "Trained in PyTorch" "$out/$e.report.txt" || { echo "$e: the report does not say PyTorch"; return 1; }
  grep -q "^$e: " "$out/$e.report.txt" || { echo "$e: the report has no section for it"; return 1; }
}
experiments=(remove_wo freeze_wo wo_heatmap activation_stats gain_vs_learning lr_stability real_words)
languages=(en zh en zh en zh en)
pids=()
for i in "${!experiments[@]}"; do
  # two at a time: each kernel takes one core
  while (($(jobs -rp | wc -l) >= 2)); do wait -n; done
  (notebook "${experiments[$i]}" "${languages[$i]}" >"$out/${experiments[$i]}.result" 2>&1; echo $? >>"$out/${experiments[$i]}.result") &
  pids+=($!)
done
wait "${pids[@]}"
for e in "${experiments[@]}"; do
  status=$(tail -1 "$out/$e.result")
  if [[ $status == 0 ]]; then pass "$e: executed, its results read by wolab report"; else fail "$(head -1 "$out/$e.result")"; fi
done

# A bad config: the same line as wolab run, and exit status 2; so is a notebook of every experiment.
for bad in "--heads 3" "--steps 0" "--experiment bogus" "--preset nope"; do
  # shellcheck disable=SC2086
  "$wolab" run $bad --out "$out/x.json" 2>"$out/run.err" >/dev/null; run_status=$?
  # shellcheck disable=SC2086
  "$wolab" notebook $bad --out "$out/x.ipynb" 2>"$out/nb.err" >/dev/null; nb_status=$?
  if [[ $run_status == 2 && $nb_status == 2 && $(wc -l <"$out/nb.err") == 1 ]] && cmp -s "$out/run.err" "$out/nb.err" &&
     [[ ! -e $out/x.ipynb ]]; then
    pass "$bad: refused as wolab run refuses it: $(cat "$out/nb.err")"
  else
    fail "$bad: wolab run said '$(cat "$out/run.err")' ($run_status), wolab notebook '$(cat "$out/nb.err")' ($nb_status)"
  fi
done
"$wolab" notebook --experiment all --out "$out/x.ipynb" 2>"$out/nb.err" >/dev/null; nb_status=$?
if [[ $nb_status == 2 ]] && grep -q "one experiment" "$out/nb.err" && [[ ! -e $out/x.ipynb ]]; then
  pass "--experiment all: refused ($(cat "$out/nb.err"))"
else
  fail "--experiment all: '$(cat "$out/nb.err")' ($nb_status)"
fi
echo "notebooks: $passed passed, $failed failed"
((failed == 0))
