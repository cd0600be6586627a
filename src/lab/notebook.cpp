#include "lab/notebook.h"

#include <algorithm>
#include <map>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "config/languages.h"
#include "io/messages.h"
#include "lab/config.h"
#include "lab/plan.h"

namespace wolab {

// scripts/notebook.tmpl and scripts/wolab_torch.py, embedded by the build
// (scripts/embed_notebook.cmake writes them into notebook_sources.cpp).
extern const char kNotebookTemplate[];
extern const char kTorchModule[];

namespace {

using json = nlohmann::json;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// `lines` without blank lines at either end, joined with '\n'.
std::string trimmed(const std::vector<std::string>& lines) {
  size_t begin = 0, end = lines.size();
  while (begin < end && lines[begin].find_first_not_of(" \t") == std::string::npos) ++begin;
  while (end > begin && lines[end - 1].find_first_not_of(" \t") == std::string::npos) --end;
  std::string out;
  for (size_t i = begin; i < end; ++i) out += (i > begin ? "\n" : "") + lines[i];
  return out;
}

// The sections of wolab_torch.py: a line "# %% [name]" starts one, which runs to the next.
std::map<std::string, std::string> torch_sections() {
  std::map<std::string, std::string> sections;
  std::string name;
  std::vector<std::string> body;
  auto close = [&] {
    if (!name.empty()) sections[name] = trimmed(body);
    body.clear();
  };
  for (const std::string& line : lines_of(kTorchModule)) {
    if (line.rfind("# %% [", 0) == 0 && line.back() == ']') {
      close();
      name = line.substr(6, line.size() - 7);
    } else {
      body.push_back(line);
    }
  }
  close();
  return sections;
}

// One cell of the template: its header's words, then its text.
struct TemplateCell {
  std::string type;                      // "markdown" or "code"
  std::map<std::string, std::string> if_;  // lang, experiment, task, keep: kept when each matches
  std::string include;                   // a section of wolab_torch.py in place of the text
  std::vector<std::string> lines;
};

std::vector<TemplateCell> template_cells() {
  std::vector<TemplateCell> cells;
  for (const std::string& line : lines_of(kNotebookTemplate)) {
    if (line.rfind("#%% ", 0) != 0) {
      if (!cells.empty()) cells.back().lines.push_back(line);
      continue;  // before the first cell: the template's own note
    }
    TemplateCell cell;
    std::istringstream words(line.substr(4));
    words >> cell.type;
    for (std::string w; words >> w;) {
      const size_t eq = w.find('=');
      if (eq == std::string::npos) cell.if_["lang"] = w;
      else if (w.compare(0, eq, "include") == 0) cell.include = w.substr(eq + 1);
      else cell.if_[w.substr(0, eq)] = w.substr(eq + 1);
    }
    cells.push_back(std::move(cell));
  }
  return cells;
}

// `text` with each {{name}} replaced by values[name]; a name without a value is a template bug.
std::string filled(const std::string& text, const std::map<std::string, std::string>& values) {
  std::string out;
  size_t pos = 0;
  for (size_t open; (open = text.find("{{", pos)) != std::string::npos;) {
    const size_t close = text.find("}}", open);
    const auto value = values.find(text.substr(open + 2, close - open - 2));
    if (close == std::string::npos || value == values.end())
      throw std::logic_error("notebook template: no value for " + text.substr(open, 40));
    out += text.substr(pos, open - pos) + value->second;
    pos = close + 2;
  }
  return out + text.substr(pos);
}

// A cell as nbformat stores it: its source as lines, each but the last ending in '\n'.
json nb_cell(const std::string& type, const std::string& text) {
  json source = json::array();
  for (size_t pos = 0; pos < text.size();) {
    const size_t end = std::min(text.find('\n', pos), text.size() - 1) + 1;
    source.push_back(text.substr(pos, end - pos));
    pos = end;
  }
  json cell = {{"cell_type", type}, {"metadata", json::object()}, {"source", source}};
  if (type == "code") {
    cell["execution_count"] = nullptr;
    cell["outputs"] = json::array();
  }
  return cell;
}

std::string joined(const std::vector<std::string>& items, const std::string& sep) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : sep) + s;
  return out;
}

}  // namespace

std::string notebook_results_name(const std::string& experiment) { return experiment + ".pytorch.json"; }

std::string make_notebook(const ExperimentConfig& cfg, const std::string& lang, const std::string& lexicon) {
  if (!lang_of(lang))
    throw ConfigError("lang: " + in_quotes(lang) + " is not a language of the notebooks; use " + lang_choices());
  const std::vector<std::string> problems = validate(cfg);
  if (!problems.empty()) throw ConfigError(problems.front());
  const ExperimentInfo* exp = find_experiment(cfg.experiment);
  if (!exp) {
    std::vector<std::string> names;
    for (const ExperimentInfo& e : experiments()) names.push_back(e.name);
    throw ConfigError("experiment: a notebook holds one experiment, not " + in_quotes(cfg.experiment) + "; use " +
                      joined(names, ", "));
  }

  const std::vector<PlannedRun> plan = plan_runs(cfg, {exp->name});
  const json runs = plan_json(plan);
  // What every run shares: its config but the variant, seed, lr and clip, which each run sets.
  auto shared = [](json c) {
    c["model"].erase("wo");
    for (const char* key : {"seed", "lr", "clip"}) c["train"].erase(key);
    return c;
  };
  const json shared_config = shared(runs.front()["config"]);
  std::string plan_lines;
  bool keep_wo = false, keep_stats = false;
  std::string first_seed;
  for (const json& r : runs) {
    if (shared(r["config"]) != shared_config) throw std::logic_error("notebook: the plan's runs differ in more than W_o, seed, lr and clip");
    plan_lines += json({{"variant", r["variant"]}, {"seed", r["seed"]}, {"lr", r["lr"]}, {"clip", r["clip"]},
                        {"keep", r["keep"]}}).dump() + "\n";
    keep_stats = keep_stats || r["keep"]["stats"].get<bool>();
    if (r["keep"]["wo"].get<bool>() && !keep_wo) first_seed = r["seed"].dump();
    keep_wo = keep_wo || r["keep"]["wo"].get<bool>();
  }
  const RunConfig rc = run_config(*exp, cfg);
  const bool g2p = rc.task.kind == TaskKind::g2p;
  ExperimentConfig named = cfg;
  named.experiment = exp->name;

  std::vector<std::string> variants;
  for (WoMode v : exp->variants) variants.push_back(std::string("`") + to_string(v) + "`");
  std::string variant_text = joined(variants, ", ");
  if (exp->lr_sweep) {
    std::vector<std::string> lrs;
    for (float lr : learning_rates(*exp, cfg)) lrs.push_back(format_number(decimal_float(lr)));
    variant_text += " × lr " + joined(lrs, ", ") + ", clip " + format_number(decimal_float(gradient_clip(*exp, cfg)));
  }
  const std::map<std::string, std::string> values = {
      {"experiment", exp->name},
      {"config", config_json(named).dump()},
      {"run_config", shared_config.dump()},
      {"plan", trimmed(lines_of(plan_lines))},
      {"results_file", notebook_results_name(exp->name)},
      {"lexicon", json(lexicon).dump()},
      {"lexicon_arg", g2p ? "LEXICON" : "None"},
      {"variants", variant_text},
      {"seeds", std::to_string(cfg.seeds)},
      {"runs", std::to_string(plan.size())},
      {"steps", std::to_string(rc.train.steps)},
      {"task", g2p ? std::string("g2p (CMUdict)")
                   : std::string(to_string(rc.task.kind)) + " (alphabet " + std::to_string(rc.task.alphabet) +
                         ", length " + std::to_string(rc.task.length) + ")"},
      {"d_model", std::to_string(rc.model.d_model)},
      {"heads", std::to_string(rc.model.heads)},
      {"layers", std::to_string(rc.model.layers)},
      {"d_ff", std::to_string(rc.model.d_ff)},
      {"ln", to_string(rc.model.ln)},
      {"first_seed", first_seed},
  };

  const std::map<std::string, std::string> sections = torch_sections();
  auto matches = [&](const TemplateCell& c) {
    for (const auto& [key, want] : c.if_) {
      if (key == "lang" && want != lang) return false;
      if (key == "task" && want != (g2p ? "g2p" : "toy")) return false;
      if (key == "keep" && !(want == "wo" ? keep_wo : keep_stats)) return false;
      if (key == "experiment") {
        std::vector<std::string> names;
        std::istringstream list(want);
        for (std::string n; std::getline(list, n, ',');) names.push_back(n);
        if (std::find(names.begin(), names.end(), exp->name) == names.end()) return false;
      }
    }
    return true;
  };
  json cells = json::array();
  for (const TemplateCell& c : template_cells()) {
    if (!matches(c)) continue;
    const auto section = c.include.empty() ? sections.end() : sections.find(c.include);
    if (!c.include.empty() && section == sections.end())
      throw std::logic_error("notebook template: no section " + c.include + " in wolab_torch.py");
    cells.push_back(nb_cell(c.type, c.include.empty() ? filled(trimmed(c.lines), values) : section->second));
  }
  const json notebook = {
      {"cells", cells},
      {"metadata",
       {{"kernelspec", {{"display_name", "Python 3"}, {"language", "python"}, {"name", "python3"}}},
        {"language_info", {{"name", "python"}}},
        {"wolab", {{"experiment", exp->name}, {"lang", lang}, {"created_by", std::string("wolab ") + kVersion}}}}},
      {"nbformat", 4},
      {"nbformat_minor", 4}};
  return notebook.dump(1) + "\n";
}

}  // namespace wolab
