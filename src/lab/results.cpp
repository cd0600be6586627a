#include "lab/results.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <stdexcept>
#include <utility>

#include "io/json_input.h"
#include "lab/experiment.h"
#include "lab/loss_threshold.h"
#include "lab/results_checks.h"
#include "lab/spread.h"
#include "lab/status_json.h"
#include "lab/wo_files.h"
#include "run/probes.h"

namespace wolab {

using json = nlohmann::json;

namespace {

constexpr char kFormat[] = "wolab-results";
// What may have written a file (its optional "producer"): the lab, or a notebook of
// lab/notebook.h trained in PyTorch, whose runs are a second sample of the same plan.
const char* const kProducers[] = {"wolab", "pytorch-notebook"};

// ---- Building ----

// A float as JSON, or null when it is not finite (JSON has no NaN; a reader must see the gap).
json number(float x) { return std::isfinite(x) ? json(decimal_float(x)) : json(nullptr); }

bool finite(const std::vector<float>& xs) {
  for (float x : xs)
    if (!std::isfinite(x)) return false;
  return true;
}

bool finite(const EvalResult& e) {
  return std::isfinite(e.loss) && std::isfinite(e.token_acc) && std::isfinite(e.exact);
}

bool finite(const SiteStats& s) { return std::isfinite(s.mean) && std::isfinite(s.std); }

bool finite(const ProbeRecord& p) {
  for (const LayerStats& l : p.layers)
    if (!finite(l.concat) || !finite(l.wo_out) || !finite(l.residual) || !finite(l.head_grad_norm))
      return false;
  return true;
}

bool finite(const WoSnapshot& s) { return finite(s.data); }
bool finite(const OvSnapshot& s) { return finite(s.values); }

// How many entries of a series come before its first non-finite one: the record keeps those.
template <class T>
size_t finite_prefix(const std::vector<T>& series) {
  size_t n = 0;
  while (n < series.size() && finite(series[n])) ++n;
  return n;
}

// The entries of `step` at the end of a series' finite prefix (none if the prefix ends earlier).
template <class T>
std::vector<const T*> at_step(const std::vector<T>& series, int step) {
  const size_t n = finite_prefix(series);
  size_t first = n;
  while (first > 0 && series[first - 1].step == step) --first;
  std::vector<const T*> out;
  for (size_t i = first; i < n; ++i) out.push_back(&series[i]);
  return out;
}

json numbers(const std::vector<float>& xs) {
  json a = json::array();
  a.get_ref<json::array_t&>().reserve(xs.size());  // exactly: a W_o snapshot is d² of them
  for (float x : xs) a.push_back(number(x));
  return a;
}

// Counts the characters of a dump without storing them.
class CharacterCount : public nlohmann::detail::output_adapter_protocol<char> {
 public:
  void write_character(char) override { n++; }
  void write_characters(const char*, std::size_t length) override { n += length; }
  size_t n = 0;
};

json site(const SiteStats& s) { return {{"mean", number(s.mean)}, {"std", number(s.std)}}; }

// One probe's entries of "stats": one per layer.
void append_stats(json& stats, const ProbeRecord& p) {
  for (size_t layer = 0; layer < p.layers.size(); ++layer) {
    const LayerStats& l = p.layers[layer];
    stats.push_back({{"step", p.step},
                     {"layer", layer},
                     {"concat", site(l.concat)},
                     {"wo_out", site(l.wo_out)},
                     {"residual", site(l.residual)},
                     {"head_grad_norm", numbers(l.head_grad_norm)}});
  }
}

// A "wo" entry's figures (docs/results.md): head_norms of its W_o w (C,C), head_change_norms of
// w − w0, w0 (C,C) the layer's W_o at step 0 (null when the record has none), and what claim 5
// reads of it (run/probes.h, wo_figures), in double.
void set_wo_figures(json& entry, const float* w, const float* w0, int C, int H) {
  entry["head_norms"] = numbers(head_block_norms(w, C, C, H));
  entry["head_change_norms"] = w0 ? numbers(head_block_norms(w, C, C, H, w0)) : json(nullptr);
  const WoFigures f = wo_figures(w, w0, C);
  entry["dominant_rows"] = f.dominant_rows;
  entry["diagonal_energy"] = f.diagonal_energy;
  entry["change_from_init"] = w0 ? json(f.change_from_init) : json(nullptr);
}

// One of the trainer's snapshots as a "wo" entry. A trainer that keeps snapshots has step 0's of
// every layer (keep_wo_snapshots).
json wo_entry(const Trainer& t, const WoSnapshot& s, bool data) {
  json entry = {{"step", s.step}, {"layer", s.layer}, {"rows", s.rows}, {"cols", s.cols}};
  if (data) entry["data"] = numbers(s.data);
  const WoSnapshot* init = nullptr;
  for (const WoSnapshot& i : t.wo_snapshots())
    if (i.step == 0 && i.layer == s.layer) {
      init = &i;
      break;
    }
  set_wo_figures(entry, s.data.data(), init ? init->data.data() : nullptr, s.cols, t.config().model.heads);
  return entry;
}

// The figures of every entry of a checked record's "wo", recomputed from its data like the
// summary: a file's own are not trusted, and files written before they existed lack them. A
// record whose matrices lie in a file of their own (wo_file) keeps the figures it was written with.
void recompute_wo_figures(json& run, int heads) {
  if (run.contains("wo_file")) return;
  json& wo = run["wo"];
  auto floats = [](const json& data) {  // (rows·cols) as the trainer held them
    std::vector<float> out;
    out.reserve(data.size());
    for (const json& x : data) out.push_back(x.get<float>());
    return out;
  };
  std::map<int, std::vector<float>> init;  // layer -> its W_o at step 0 (C,C)
  for (const json& entry : wo)
    if (entry["step"] == 0) init.emplace(entry["layer"].get<int>(), floats(entry["data"]));
  for (json& entry : wo) {
    const std::vector<float> w = floats(entry["data"]);
    const auto i = init.find(entry["layer"].get<int>());
    set_wo_figures(entry, w.data(), i == init.end() ? nullptr : i->second.data(), entry["cols"].get<int>(), heads);
  }
}

json ov_entry(const OvSnapshot& s) {
  return {{"step", s.step}, {"layer", s.layer}, {"head", s.head}, {"values", numbers(s.values)}};
}

// A probe step's eval; with `words` (g2p) also the greedy PER and WER on the same words.
json eval_entry(const EvalResult& e, const G2pScores* words = nullptr) {
  json out = {{"loss", number(e.loss)}, {"token_acc", number(e.token_acc)}, {"exact", number(e.exact)}};
  if (words) {
    out["per"] = number(words->per);
    out["wer"] = number(words->wer);
  }
  return out;
}

// The eval columns of a run: g2p's also have per and wer.
std::vector<const char*> eval_columns(bool g2p) {
  std::vector<const char*> out = {"loss", "token_acc", "exact"};
  if (g2p) out.insert(out.end(), {"per", "wer"});
  return out;
}

// final.heldout_words of a g2p run: its scores on every held-out word.
json heldout_words_entry(const G2pScores& s) {
  return {{"words", s.words}, {"loss", number(s.loss)}, {"token_acc", number(s.token_acc)},
          {"per", number(s.per)}, {"wer", number(s.wer)}};
}

// The latest step of the trainer's probes (evals, stats, snapshots); 0 before the first.
int latest_probe_step(const Trainer& t) {
  int step = 0;
  if (!t.evals().empty()) step = std::max(step, t.evals().back().step);
  if (!t.probes().empty()) step = std::max(step, t.probes().back().step);
  if (!t.wo_snapshots().empty()) step = std::max(step, t.wo_snapshots().back().step);
  return step;
}

// {"mean", "std"}: the sample std, null for one run (lab/spread.h); both null for none.
json mean_std(const std::vector<double>& xs) {
  const std::optional<Spread> s = spread_of(xs);
  if (!s) return {{"mean", nullptr}, {"std", nullptr}};
  return {{"mean", s->mean}, {"std", s->sd ? json(*s->sd) : json(nullptr)}};
}

// Per (variant, learning rate), in the experiment's order: runs that diverged or were stopped
// are counted, not averaged (a stopped run trained fewer steps than the others).
// g2p's groups also average PER and WER on every held-out word (final.heldout_words).
json summarize(const ExperimentInfo& exp, const ExperimentConfig& cfg, const std::vector<json>& runs) {
  const bool g2p = run_config(exp, cfg).task.kind == TaskKind::g2p;
  const int window = threshold_window(run_config(exp, cfg).train.steps);
  json summary = json::array();
  for (WoMode v : exp.variants) {
    for (float lr : learning_rates(exp, cfg)) {
      std::vector<const json*> group;
      for (const json& r : runs)
        if (r["variant"] == to_string(v) && static_cast<float>(r["lr"].get<double>()) == lr) group.push_back(&r);
      if (group.empty()) continue;
      std::vector<double> token_acc, exact, greedy, loss, steps, per, wer;
      int diverged = 0, stopped = 0;
      for (const json* r : group) {
        const RunStatus status = *status_from_json((*r)["status"]);
        diverged += status.state == RunStatus::State::diverged;
        stopped += status.state == RunStatus::State::stopped;
        if (status.state != RunStatus::State::done) continue;
        const json& f = (*r)["final"];
        token_acc.push_back(f["token_acc"].get<double>());
        exact.push_back(f["exact"].get<double>());
        greedy.push_back(f["greedy_exact"].get<double>());
        loss.push_back(f["loss"].get<double>());
        // On the loss's trailing mean, as the analysis reads it, not the record's one-step figure.
        if (const auto s = steps_to_loss_threshold((*r)["curve"], window)) steps.push_back(*s);
        if (g2p) {
          per.push_back(f["heldout_words"]["per"].get<double>());
          wer.push_back(f["heldout_words"]["wer"].get<double>());
        }
      }
      json reached = mean_std(steps);
      reached["reached"] = steps.size();
      summary.push_back({{"variant", to_string(v)},
                         {"lr", decimal_float(lr)},
                         {"n", group.size()},
                         {"token_acc", mean_std(token_acc)},
                         {"exact", mean_std(exact)},
                         {"greedy_exact", mean_std(greedy)},
                         {"loss", mean_std(loss)},
                         {"steps_to_loss_0_1", reached},
                         {"parameters", (*group.front())["parameters"]},
                         {"diverged", diverged},
                         {"stopped", stopped}});
      if (g2p) {
        summary.back()["per"] = mean_std(per);
        summary.back()["wer"] = mean_std(wer);
      }
    }
  }
  return summary;
}

// ---- Checking: every failure names the place, e.g. "results: runs[2].curve.loss[7]: ..." ----

using namespace results_checks;

void check_wo_file_name(const json& v, const std::string& where) {
  if (!v.is_string() || !is_wo_file_name(v.get<std::string>()))
    bad(where, "expected the name of a .safetensors file beside the results file (letters, digits, . _ -)");
}

void check_site(const json& run, const std::string& where) {
  check_number(field(run, where, "mean"), where + ".mean");
  check_number(field(run, where, "std"), where + ".std", 0);
}

// The run's status, which must be one a saved run can have.
RunStatus check_status(const json& v, const std::string& where, int steps) {
  const auto status = status_from_json(v);
  if (!status)
    bad(where, "expected {\"state\": \"done\"}, {\"state\": \"stopped\", \"step\": N} or "
               "{\"state\": \"diverged\", \"step\": N}");
  if (status->state == RunStatus::State::running) bad(where, "the run is still running; stop it or let it finish");
  if (status->step > steps || (status->state == RunStatus::State::diverged && status->step < 1))
    bad(where + ".step", std::to_string(status->step) + " is out of range " +
                             (status->state == RunStatus::State::diverged ? "1.." : "0..") + std::to_string(steps));
  return *status;
}

// Which of the plan's runs `run` is: a variant of the experiment, a seed, and a learning rate
// (and, with `clip`, the clip) the experiment trains at, so that the summary's groups are the
// experiment's.
void check_identity(const json& run, const std::string& w, const ExperimentConfig& exp_cfg, const ExperimentInfo& exp,
                    bool clip) {
  if (!run.is_object()) bad(w, "expected an object");
  const json& variant = field(run, w, "variant");
  bool known = false;
  for (WoMode v : exp.variants) known = known || variant == to_string(v);
  if (!known) bad(w + ".variant", variant.dump() + " is not a variant of " + exp.name);
  check_integer(field(run, w, "seed"), w + ".seed", 0, 9007199254740992.0 + 100);
  const std::vector<float> lrs = learning_rates(exp, exp_cfg);
  const float lr = static_cast<float>(check_number(field(run, w, "lr"), w + ".lr", 0, 1));
  if (std::find(lrs.begin(), lrs.end(), lr) == lrs.end())
    bad(w + ".lr", format_number(decimal_float(lr)) + " is not a learning rate of " + exp.name +
                       (exp.lr_sweep ? " (lr_stability.lrs)" : " (train.lr)"));
  if (!clip) return;
  const float expected = gradient_clip(exp, exp_cfg);
  if (static_cast<float>(check_number(field(run, w, "clip"), w + ".clip", 0)) != expected)
    bad(w + ".clip", "expected " + format_number(decimal_float(expected)) + ", the clip of " + exp.name +
                         (exp.lr_sweep ? " (lr_stability.clip)" : " (train.clip)"));
}

// A run that could not train (docs/results.md, "Failed runs"): {variant, seed, lr, error}, the
// error the message that ended it, at most kMaxFailureText characters.
constexpr size_t kMaxFailureText = 2000;
json checked_failure(const json& entry, const std::string& w, const ExperimentConfig& cfg, const ExperimentInfo& exp) {
  check_identity(entry, w, cfg, exp, /*clip=*/false);
  const json& error = field(entry, w, "error");
  if (!error.is_string()) bad(w + ".error", "expected a string");
  return {{"variant", entry["variant"]}, {"seed", entry["seed"]}, {"lr", entry["lr"]},
          {"error", error.get<std::string>().substr(0, kMaxFailureText)}};
}

void check_run(const json& run, const std::string& w, const ExperimentConfig& exp_cfg, const ExperimentInfo& exp) {
  const RunConfig cfg = run_config(exp, exp_cfg);
  const bool g2p = cfg.task.kind == TaskKind::g2p;
  const double steps = cfg.train.steps, layers = cfg.model.layers;
  const size_t d = static_cast<size_t>(cfg.model.d_model), heads = static_cast<size_t>(cfg.model.heads);
  check_identity(run, w, exp_cfg, exp, /*clip=*/true);
  check_integer(field(run, w, "parameters"), w + ".parameters", 1, 1e12);

  const RunStatus status = check_status(field(run, w, "status"), w + ".status", cfg.train.steps);
  const bool diverged = status.state == RunStatus::State::diverged;

  const json& wo_sv = field(run, w, "wo_sv");
  if (!wo_sv.is_null()) {
    check_array(wo_sv, w + ".wo_sv");
    if (wo_sv.size() != static_cast<size_t>(layers))
      bad(w + ".wo_sv", "has " + std::to_string(wo_sv.size()) + " entries, expected " + format_number(layers));
    for (size_t l = 0; l < wo_sv.size(); ++l) check_numbers(wo_sv[l], w + ".wo_sv[" + std::to_string(l) + "]", d, 0);
  }

  std::string c = w + ".curve";
  const json& curve = field(run, w, "curve");
  auto curve_steps = check_numbers(field(curve, c, "step"), c + ".step", field(curve, c, "step").size(), 1, steps);
  check_steps(curve_steps, c + ".step", 1);
  check_numbers(field(curve, c, "loss"), c + ".loss", curve_steps.size());

  std::string e = w + ".eval";
  const json& ev = field(run, w, "eval");
  auto eval_steps = check_numbers(field(ev, e, "step"), e + ".step", field(ev, e, "step").size(), 0, steps);
  check_steps(eval_steps, e + ".step", 0);
  check_numbers(field(ev, e, "loss"), e + ".loss", eval_steps.size(), 0);
  check_numbers(field(ev, e, "token_acc"), e + ".token_acc", eval_steps.size(), 0, 1);
  check_numbers(field(ev, e, "exact"), e + ".exact", eval_steps.size(), 0, 1);
  if (g2p) {
    check_numbers(field(ev, e, "per"), e + ".per", eval_steps.size(), 0);
    check_numbers(field(ev, e, "wer"), e + ".wer", eval_steps.size(), 0, 1);
  }

  const json& stats = check_array(field(run, w, "stats"), w + ".stats");
  for (size_t i = 0; i < stats.size(); ++i) {
    std::string p = w + ".stats[" + std::to_string(i) + "]";
    check_integer(field(stats[i], p, "step"), p + ".step", 0, steps);
    check_integer(field(stats[i], p, "layer"), p + ".layer", 0, layers - 1);
    for (const char* site : {"concat", "wo_out", "residual"})
      check_site(field(stats[i], p, site), p + "." + site);
    check_numbers(field(stats[i], p, "head_grad_norm"), p + ".head_grad_norm", heads, 0);
  }

  // With wo_file (lab/wo_files.h) the matrices lie in that file, and the entries carry their
  // figures instead; without it every entry carries its matrix, and its figures are recomputed.
  const bool wo_apart = run.contains("wo_file");
  if (wo_apart) check_wo_file_name(run["wo_file"], w + ".wo_file");
  const json& wo = check_array(field(run, w, "wo"), w + ".wo");
  for (size_t i = 0; i < wo.size(); ++i) {
    std::string p = w + ".wo[" + std::to_string(i) + "]";
    check_integer(field(wo[i], p, "step"), p + ".step", 0, steps);
    check_integer(field(wo[i], p, "layer"), p + ".layer", 0, layers - 1);
    check_integer(field(wo[i], p, "rows"), p + ".rows", d, d);
    check_integer(field(wo[i], p, "cols"), p + ".cols", d, d);
    if (!wo_apart) {
      check_numbers(field(wo[i], p, "data"), p + ".data", d * d);
      continue;
    }
    if (wo[i].contains("data")) bad(p + ".data", "present, but the run's matrices are in its wo_file");
    check_numbers(field(wo[i], p, "head_norms"), p + ".head_norms", heads, 0);
    const json& change = field(wo[i], p, "head_change_norms");
    if (!change.is_null()) check_numbers(change, p + ".head_change_norms", heads, 0);
    check_number(field(wo[i], p, "dominant_rows"), p + ".dominant_rows", 0, 1);
    check_number(field(wo[i], p, "diagonal_energy"), p + ".diagonal_energy", 0, d);
    const json& moved = field(wo[i], p, "change_from_init");
    if (!moved.is_null()) check_number(moved, p + ".change_from_init", 0);
  }

  const json& ov = check_array(field(run, w, "ov"), w + ".ov");
  for (size_t i = 0; i < ov.size(); ++i) {
    std::string p = w + ".ov[" + std::to_string(i) + "]";
    check_integer(field(ov[i], p, "step"), p + ".step", 0, steps);
    check_integer(field(ov[i], p, "layer"), p + ".layer", 0, layers - 1);
    check_integer(field(ov[i], p, "head"), p + ".head", 0, static_cast<double>(heads) - 1);
    check_numbers(field(ov[i], p, "values"), p + ".values", d / heads, 0);
  }

  std::string f = w + ".final";
  const json& fin = field(run, w, "final");
  const std::pair<const char*, double> metrics[] = {{"loss", HUGE_VAL}, {"token_acc", 1}, {"exact", 1}, {"greedy_exact", 1}};
  for (const auto& [name, hi] : metrics) {
    const json& v = field(fin, f, name);
    if (!(diverged && v.is_null())) check_number(v, f + "." + name, 0, hi);
  }
  const json& reached = field(fin, f, "steps_to_loss_0_1");
  if (!reached.is_null()) check_integer(reached, f + ".steps_to_loss_0_1", 1, steps);
  if (!g2p) return;
  const std::string h = f + ".heldout_words";
  const json& words = field(fin, f, "heldout_words");
  if (diverged && words.is_null()) return;
  check_integer(field(words, h, "words"), h + ".words", 1, 1e9);
  const std::pair<const char*, double> scores[] = {{"loss", HUGE_VAL}, {"token_acc", 1}, {"per", HUGE_VAL}, {"wer", 1}};
  for (const auto& [name, hi] : scores) check_number(field(words, h, name), h + "." + name, 0, hi);
}

const ExperimentInfo& experiment_info(const std::string& name, const std::string& where) {
  const ExperimentInfo* exp = find_experiment(name);
  if (!exp) {
    std::string list;
    for (const auto& x : experiments()) list += (list.empty() ? "" : ", ") + x.name;
    bad(where, "unknown experiment " + json(name).dump() + "; expected one of " + list);
  }
  return *exp;
}

// `producer`: null for the lab's own files, which carry none, else the file's (kProducers).
json build(const ExperimentConfig& cfg, const std::string& experiment, std::vector<json> runs,
           const std::vector<json>& failed, const std::string& created_by, const json& producer = nullptr) {
  const ExperimentInfo& exp = experiment_info(experiment, "experiment");
  auto problems = validate(cfg);
  if (!problems.empty()) throw ResultsError(ResultsFault::damaged, "results: config." + problems.front());
  for (size_t i = 0; i < runs.size(); ++i) {
    check_run(runs[i], "runs[" + std::to_string(i) + "]", cfg, exp);
    for (const std::string& part : record_parts_not_kept(exp)) runs[i][part] = json::array();
    recompute_wo_figures(runs[i], run_config(exp, cfg).model.heads);
  }
  ExperimentConfig named = cfg;
  named.experiment = experiment;  // under "all", each results object names its own experiment
  json summary = summarize(exp, cfg, runs);
  json out = {{"format", kFormat},
              {"version", kResultsVersion},
              {"created_by", created_by},
              {"experiment", experiment},
              {"config", config_json(named)},
              {"runs", std::move(runs)},
              {"summary", std::move(summary)}};
  if (!producer.is_null()) out["producer"] = producer;
  if (!failed.empty()) {
    json& list = out["failed"] = json::array();
    for (size_t i = 0; i < failed.size(); ++i)
      list.push_back(checked_failure(failed[i], "failed[" + std::to_string(i) + "]", cfg, exp));
  }
  return out;
}

// A version 1 run as version 2 writes it: its status as an object, the lr and clip of the
// config (version 1 had no learning-rate sweeps), no OV values and unknown wo_sv. Anything
// else is left to check_run.
void upgrade_v1_run(json& run, const std::string& where, const RunConfig& cfg) {
  if (!run.is_object()) return;
  const json& status = field(run, where, "status");
  const auto parsed = status.is_string() ? status_from_description(status.get<std::string>()) : std::nullopt;
  if (!parsed || !parsed->trained_to_end())  // version 1 recorded no stopped runs
    bad(where + ".status", "expected \"done\" or \"diverged at step N\"");
  run["status"] = status_json(*parsed);
  run["lr"] = decimal_float(cfg.train.lr);
  run["clip"] = decimal_float(cfg.train.clip);
  run["wo_sv"] = nullptr;
  run["ov"] = json::array();
}

}  // namespace

json loss_curve(const std::vector<float>& loss, int every) {
  json steps = json::array(), losses = json::array();
  size_t finite = 0;
  while (finite < loss.size() && std::isfinite(loss[finite])) ++finite;
  const size_t n = static_cast<size_t>(std::max(1, every));
  for (size_t begin = 0; begin < finite; begin += n) {
    const size_t end = std::min(finite, begin + n);
    if (end - begin == 1) {
      losses.push_back(decimal_float(loss[begin]));  // as trained, not through a double
    } else {
      double sum = 0;
      for (size_t i = begin; i < end; ++i) sum += loss[i];
      losses.push_back(decimal_float(static_cast<float>(sum / static_cast<double>(end - begin))));
    }
    steps.push_back(end);
  }
  return {{"step", std::move(steps)}, {"loss", std::move(losses)}};
}

json run_record(Trainer& trainer, bool wo_data) {
  const RunStatus status = trainer.status();
  const RunConfig& cfg = trainer.config();

  json reached = nullptr;
  const std::vector<float>& loss = trainer.losses();
  for (size_t i = 0; i < loss.size() && std::isfinite(loss[i]); ++i)
    if (loss[i] < 0.1f) {
      reached = i + 1;
      break;
    }

  const std::vector<EvalResult>& evals = trainer.evals();
  const size_t finite_evals = finite_prefix(evals);
  const bool g2p = cfg.task.kind == TaskKind::g2p;  // g2p_evals() has an entry per eval
  json fin = nullptr;
  if (status.finished()) {
    fin = {{"loss", nullptr}, {"token_acc", nullptr}, {"exact", nullptr}, {"greedy_exact", nullptr},
           {"steps_to_loss_0_1", reached}};
    auto set_final = [&fin](const EvalResult& e) {
      fin["loss"] = number(e.loss);
      fin["token_acc"] = number(e.token_acc);
      fin["exact"] = number(e.exact);
    };
    if (status.state != RunStatus::State::diverged) {
      set_final(!evals.empty() && evals.back().step == trainer.steps_done() ? evals.back() : trainer.evaluate());
      fin["greedy_exact"] = number(trainer.greedy_exact());
      if (g2p) fin["heldout_words"] = heldout_words_entry(trainer.g2p_scores(/*all=*/true));
    } else if (finite_evals > 0) {
      set_final(evals[finite_evals - 1]);
    }
    if (g2p && !fin.contains("heldout_words")) fin["heldout_words"] = nullptr;
  }

  json ev = {{"step", json::array()}};
  for (const char* key : eval_columns(g2p)) ev[key] = json::array();
  for (size_t i = 0; i < finite_evals; ++i) {
    const json e = eval_entry(evals[i], g2p ? &trainer.g2p_evals()[i] : nullptr);
    ev["step"].push_back(evals[i].step);
    for (const char* key : eval_columns(g2p)) ev[key].push_back(e[key]);
  }

  json stats = json::array();
  for (size_t i = 0, n = finite_prefix(trainer.probes()); i < n; ++i) append_stats(stats, trainer.probes()[i]);
  json wo = json::array();
  for (size_t i = 0, n = finite_prefix(trainer.wo_snapshots()); i < n; ++i) wo.push_back(wo_entry(trainer, trainer.wo_snapshots()[i], wo_data));
  json ov = json::array();
  for (size_t i = 0, n = finite_prefix(trainer.ov_snapshots()); i < n; ++i) ov.push_back(ov_entry(trainer.ov_snapshots()[i]));

  // W_o at step 0 in every mode (the identity's are all 1): for the frozen modes, the matrix
  // the run trains with.
  json wo_sv = json::array();
  for (int l = 0; l < cfg.model.layers; ++l)
    wo_sv.push_back(numbers(singular_values(trainer.wo_init(l).data(), cfg.model.d_model)));

  return {{"variant", to_string(cfg.model.wo)},
          {"seed", cfg.train.seed},
          {"lr", decimal_float(cfg.train.lr)},
          {"clip", decimal_float(cfg.train.clip)},
          {"parameters", trainer.parameter_count()},
          {"wo_sv", std::move(wo_sv)},  // moved, not copied: a record may be mostly W_o
          {"curve", loss_curve(loss, cfg.train.loss_every)},
          {"eval", std::move(ev)},
          {"stats", std::move(stats)},
          {"wo", std::move(wo)},
          {"ov", std::move(ov)},
          {"final", fin},
          {"status", status_json(status)}};
}

json probe_record(const Trainer& trainer, bool wo_data) {
  const int step = latest_probe_step(trainer);
  json out = {{"step", step}, {"eval", nullptr}, {"stats", json::array()}, {"wo", json::array()}, {"ov", json::array()}};
  const bool g2p = trainer.config().task.kind == TaskKind::g2p;  // g2p_evals() has an entry per eval
  for (const EvalResult* e : at_step(trainer.evals(), step))
    out["eval"] = eval_entry(*e, g2p ? &trainer.g2p_evals()[e - trainer.evals().data()] : nullptr);
  for (const ProbeRecord* p : at_step(trainer.probes(), step)) append_stats(out["stats"], *p);
  for (const WoSnapshot* s : at_step(trainer.wo_snapshots(), step)) out["wo"].push_back(wo_entry(trainer, *s, wo_data));
  for (const OvSnapshot* s : at_step(trainer.ov_snapshots(), step)) out["ov"].push_back(ov_entry(*s));
  return out;
}

const char* fault_code(ResultsFault fault) {
  switch (fault) {
    case ResultsFault::not_json: return "not_json";
    case ResultsFault::truncated: return "truncated";
    case ResultsFault::not_results: return "not_results";
    case ResultsFault::version: return "version";
    case ResultsFault::damaged: break;
  }
  return "damaged";
}

json make_results(const ExperimentConfig& cfg, const std::string& experiment, std::vector<json> runs) {
  std::vector<json> records, failed;
  for (json& r : runs) {
    const bool failure = r.is_object() && r.contains("status") && r["status"].is_object() &&
                         r["status"].value("state", "") == kFailedState;
    (failure ? failed : records).push_back(std::move(r));
  }
  return build(cfg, experiment, std::move(records), failed, std::string("wolab ") + kVersion);
}

void check_record(const ExperimentConfig& cfg, const std::string& experiment, const json& run,
                  const std::string& where) {
  check_run(run, where, cfg, experiment_info(experiment, "experiment"));
}

json parse_results(const std::string& text) {
  std::string problem;
  const std::optional<json> parsed = parse_json(text, problem);
  // A text that is JSON as far as it goes is a file cut short, not some other kind of file.
  if (!parsed && ends_early(text))
    throw ResultsError(ResultsFault::truncated, "results: truncated: the file ends before its JSON does (" + problem +
                                                    "); save or copy the whole file again");
  if (!parsed)
    throw ResultsError(ResultsFault::not_json,
                       "results: not valid JSON (" + problem + "); choose a results file written by wolab or the page");
  return results_from_json(*parsed);
}

namespace {

json checked_results(const json& j) {
  if (!j.is_object() || !j.contains("format") || j["format"] != kFormat)
    throw ResultsError(ResultsFault::not_results, "results: not a W_o Lab results file (no \"format\": \"wolab-results\")");
  const json& version = field(j, "", "version");
  if (version != 1 && version != kResultsVersion)
    throw ResultsError(ResultsFault::version, "results: version: " + version.dump() +
                                                  " is not supported; this build reads versions 1 and " +
                                                  std::to_string(kResultsVersion));
  const json& created_by = field(j, "", "created_by");
  if (!created_by.is_string()) bad("created_by", "expected a string");
  const json& experiment = field(j, "", "experiment");
  if (!experiment.is_string()) bad("experiment", "expected a string");
  const json producer = j.contains("producer") ? j["producer"] : json(nullptr);
  if (!producer.is_null() && std::none_of(std::begin(kProducers), std::end(kProducers),
                                          [&](const char* p) { return producer == p; }))
    bad("producer", "expected \"wolab\" or \"pytorch-notebook\"");

  const json& config = field(j, "", "config");
  if (!config.is_object()) bad("config", "expected an object");
  std::vector<std::string> problems;
  ExperimentConfig cfg = read_config(config, problems);
  if (!problems.empty()) throw ResultsError(ResultsFault::damaged, "results: config." + problems.front());

  std::vector<json> runs = check_array(field(j, "", "runs"), "runs").get<std::vector<json>>();
  check_array(field(j, "", "summary"), "summary");  // recomputed from the runs below
  if (version == 1)
    for (size_t i = 0; i < runs.size(); ++i) upgrade_v1_run(runs[i], "runs[" + std::to_string(i) + "]", cfg.base);
  std::vector<json> failed;
  if (j.contains("failed")) failed = check_array(j["failed"], "failed").get<std::vector<json>>();
  return build(cfg, experiment.get<std::string>(), std::move(runs), failed, created_by.get<std::string>(), producer);
}

}  // namespace

// Whatever a check deeper down throws (an unknown experiment, a run its plan would not train)
// is a damaged results file too.
json results_from_json(const json& j) {
  try {
    return checked_results(j);
  } catch (const ResultsError&) {
    throw;
  } catch (const ConfigError& e) {
    throw ResultsError(ResultsFault::damaged, e.what());
  }
}

std::string json_text(const json& j) {
  using Serializer = nlohmann::detail::serializer<json>;
  auto count = std::make_shared<CharacterCount>();
  Serializer(count, ' ').dump(j, false, false, 0);
  std::string text;
  text.reserve(count->n);
  Serializer(nlohmann::detail::output_adapter<char>(text), ' ').dump(j, false, false, 0);
  return text;
}

}  // namespace wolab
