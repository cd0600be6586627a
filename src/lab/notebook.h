// The notebook of one experiment (nbformat 4, docs/notebooks.md): the experiment in plain
// PyTorch, with the plan the lab makes of a config, whose last cell writes a results file the
// lab reads back. `wolab notebook` and the page (Embind makeNotebook) both call make_notebook,
// so one template gives the same notebook for the same settings everywhere. Its text comes from
// scripts/notebook.tmpl and its code from the sections of scripts/wolab_torch.py, the Python
// source scripts/make_reference.py also imports, both embedded in the core at build time.
#pragma once

#include <string>

#include "lab/experiment.h"

namespace wolab {

// The file a notebook's last cell writes, beside it: "<experiment>.pytorch.json".
std::string notebook_results_name(const std::string& experiment);

// The notebook of cfg.experiment in `lang`, as nbformat 4 JSON text: the fully defaulted config,
// the runs plan_runs makes of it (variant, seed, lr, clip, what each keeps) and, for an
// experiment on the task g2p, `lexicon` as the path its lexicon cell reads. Throws ConfigError
// with one line: validate()'s first problem for an invalid cfg, "experiment: ..." for "all"
// (a notebook holds one experiment), "lang: ..." for a language not in kLangCodes (config/languages.h).
std::string make_notebook(const ExperimentConfig& cfg, const std::string& lang, const std::string& lexicon);

}  // namespace wolab
