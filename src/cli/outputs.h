// Where the wolab commands write, checked before any training starts and written all or nothing.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "cli/args.h"
#include "lab/experiment.h"

namespace wolab::cli {

// `path` with `part` before its extension: results.json -> results.remove_wo.json (part
// ".remove_wo").
std::string output_path(const std::string& path, const std::string& part);

// The results files of a plan whose config is cfg: --out itself for one experiment, one per
// experiment for "all".
std::vector<std::string> results_paths(const ExperimentConfig& cfg, const std::string& out);

// Slice K of N's shard file: results.json -> results-shard-K-of-N.json, which a glob of the
// results files, results.*.json, does not match.
std::string shard_path(const std::string& out, const ShardSpec& s);

// Fails now, not after hours of training, when an output could not be written.
void check_writable(const std::string& flag, const std::string& path);

// Every file in `paths` gets its text(i), or none does. One text at a time: a results file with
// W_o snapshots may be hundreds of megabytes.
void write_all(const std::vector<std::string>& paths, const std::function<std::string(size_t)>& text);

}  // namespace wolab::cli
