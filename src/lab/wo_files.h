// W_o snapshots kept apart from their results file. At the Article preset a wo_heatmap results
// file holds 2.4 million W_o values, 29 MB as JSON text, which every reader of that experiment
// downloaded. Split, the results file keeps each snapshot's step, layer, shape and figures (head
// norms and what claim 5 reads: run/probes.h, wo_figures), so that the analysis reads the same
// figures as from the whole file, and each run's matrices go to a safetensors file of its own
// beside it (io/safetensors.h), in float16, which a page fetches only to draw that run.
//
// A wo file: safetensors, metadata {"format": "wolab-wo-snapshots", "version": "1", "variant",
// "seed"}, one F16 tensor (rows, cols) per snapshot named "step.<s>.layers.<l>.attn.W_o.weight",
// W_o in PyTorch's (out, in) layout, each value rounded to the nearest float16 (ties to even).
// The results file's run names it in "wo_file" (docs/results.md).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace wolab {

// A plain file name (letters, digits, '.', '_', '-'; not starting with '.') ending in
// ".safetensors": what a run's wo_file may name, so that a reader resolves it beside the results.
bool is_wo_file_name(const std::string& name);

// The wo file of run (variant, seed) of the results file that starts with `stem`:
// "<stem>.<variant>.seed<seed>.safetensors".
std::string wo_file_name(const std::string& stem, const std::string& variant, uint64_t seed);

// The runs of a page's finished experiment, its records sent without their W_o matrices (each
// "wo" entry keeps the figures the trainer computed from its matrix, run/probes.h), as runs
// whose matrices lie apart: each with wo entries names the file split_wo_snapshots would write
// them to, so that make_results takes its figures as they are. The page keeps the matrices (its
// heatmap draws them) and makes the whole document only to export it. Anything malformed is left
// for make_results to refuse.
void name_wo_files(std::vector<nlohmann::json>& runs, const std::string& stem);

struct WoFile {
  std::string name;  // is_wo_file_name
  std::vector<uint8_t> bytes;
};

struct WoSplit {
  nlohmann::json results;     // each run with snapshots names its wo_file; no "data" left in it
  std::vector<WoFile> files;  // one per such run
};

// Splits a checked results object (parse_results or make_results, its matrices inline). stem:
// what the files' names start with, e.g. "results.wo_heatmap" for
// "results.wo_heatmap.learned.seed1.safetensors". Throws ConfigError("wo file: ...") when a value
// does not fit a float16 (|x| >= 65520) or two runs would share a name.
WoSplit split_wo_snapshots(nlohmann::json results, const std::string& stem);

struct WoMatrix {
  int step = 0, layer = 0, rows = 0, cols = 0;
  std::vector<float> data;  // (rows, cols) row-major, each value a float16's exactly
};

struct WoSnapshots {
  std::string variant;
  uint64_t seed = 0;
  std::vector<WoMatrix> matrices;  // by step, then layer
};

// Reads a wo file. Throws ConfigError("wo file: <what is wrong>") on anything malformed: not
// safetensors (short, truncated, a bad header), another format or version, a tensor that is not
// F16 or 2-D, or a name not of the form above.
WoSnapshots read_wo_file(const uint8_t* bytes, size_t size);

}  // namespace wolab
