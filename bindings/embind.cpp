// The JavaScript API of the core (docs/api.md; types and docs in wolab.d.ts).
// Only conversions live here: JSON text in and out, std::vector -> typed-array copies, and C++
// exceptions -> JS Errors. Everything a call does is the core's, exactly as the CLI runs it.
#include <cstdlib>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <emscripten.h>
#include <emscripten/bind.h>
#include <emscripten/val.h>
#include <nlohmann/json.hpp>

#include "analysis/analysis.h"
#include "analysis/words.h"
#include "io/json_input.h"
#include "lab/checkpoints.h"
#include "lab/config.h"
#include "lab/experiment.h"
#include "lab/notebook.h"
#include "lab/plan.h"
#include "lab/results.h"
#include "lab/status_json.h"
#include "lab/wo_files.h"
#include "io/cmudict.h"
#include "run/g2p.h"
#include "run/memory_estimate.h"
#include "run/probes.h"
#include "run/pronounce.h"
#include "run/trainer.h"

using emscripten::val;
using wolab::Trainer;

namespace {

// ---- errors ----

// A JS exception unwinds the wasm frames it crosses without running their destructors, so a
// JS Error may only be thrown when no frame between here and JS owns memory:
//  - it is thrown after the C++ exception is fully handled, its message kept in a global;
//  - text and bytes arrive as `val` handles (not std::string, whose copies Embind's invoker
//    would hold on both sides of the call) and are moved into the guarded call, which owns
//    and frees them (see text_of and bytes_of).
// So a failing call leaks nothing, however large its arguments (tested in errors.test.js).
// A results file's refusal carries its fault (wolab::fault_code) as the Error's `fault`, so that
// a page words each case; other errors have none.
EM_JS(void, throw_js_error, (const char* message, const char* fault), {
  const error = new Error(UTF8ToString(message));
  if (HEAPU8[fault]) error.fault = UTF8ToString(fault);
  throw error;
});

std::string error_message;
std::string error_fault;

// Runs f and turns any C++ exception (ConfigError, std::out_of_range, std::bad_alloc, ...) into
// a thrown JS Error carrying its message; the core is left as the exception left it, usable.
template <class F>
auto js_errors(F&& f) -> decltype(f()) {
  error_fault.clear();
  try {
    return f();
  } catch (const wolab::ResultsError& e) {
    error_message = e.what();
    error_fault = wolab::fault_code(e.fault);
  } catch (const std::exception& e) {
    error_message = e.what();
  } catch (...) {
    error_message = "unknown C++ exception";
  }
  throw_js_error(error_message.c_str(), error_fault.c_str());
  std::abort();  // not reached: throw_js_error throws
}

// ---- conversions ----

// A typed array that owns a copy of v: `new Float32Array(view)` copies at once, so the result
// survives the wasm memory growing later, which detaches views into it.
template <class T>
val typed_array_copy(const char* type, const std::vector<T>& v) {
  return val::global(type).new_(emscripten::typed_memory_view(v.size(), v.data()));
}

val float32_array(const std::vector<float>& v) { return typed_array_copy("Float32Array", v); }

val string_array(const std::vector<std::string>& v) {
  val out = val::array();
  for (const std::string& s : v) out.call<void>("push", s);
  return out;
}

val mean_std(const wolab::SiteStats& s) {
  val out = val::object();
  out.set("mean", s.mean);
  out.set("std", s.std);
  return out;
}

// The argument's handle moves into `arg`, so it is released here even if the call then fails.
std::string text_of(val& argument, const char* what) {
  const val arg = std::move(argument);
  const std::string type = arg.typeOf().as<std::string>();
  if (type != "string") throw wolab::ConfigError(std::string(what) + ": expected a string, got " + type);
  return arg.as<std::string>();
}

std::vector<uint8_t> bytes_of(val& argument, const char* what = "checkpoint") {
  const val arg = std::move(argument);
  if (!arg.instanceof(val::global("Uint8Array")))
    throw wolab::ConfigError(std::string(what) + ": expected the file's bytes as a Uint8Array");
  return emscripten::convertJSArrayToNumberVector<uint8_t>(arg);
}

// ---- module functions ----

val validate_config(val config) {
  return js_errors([&] { return string_array(wolab::config_problems(text_of(config, "config"))); });
}

// Bytes one run of `config` holds at its peak (estimate_bytes), also past the memory limit: a
// config is read field by field only. A double holds any such estimate exactly.
double memory_estimate(val config, bool wo_snapshots) {
  return js_errors([&] {
    std::vector<std::string> problems;
    const wolab::ExperimentConfig cfg = wolab::read_config_text(text_of(config, "config"), problems);
    if (!problems.empty()) throw wolab::ConfigError(problems.front());
    return static_cast<double>(wolab::estimate_bytes(cfg.base, wo_snapshots));
  });
}

std::string presets() {
  return js_errors([] { return wolab::presets().dump(); });
}

val preset_names() { return string_array(wolab::preset_names()); }

// The learning rates a config's experiment trains at (every experiment's for "all").
val learning_rates(val config) {
  return js_errors([&] {
    std::vector<std::string> problems;
    const wolab::ExperimentConfig cfg = wolab::read_config_text(text_of(config, "config"), problems);
    if (!problems.empty()) throw wolab::ConfigError(problems.front());
    // Each float as its shortest decimal (0.001), as the core's JSON writes it, not widened
    // (0.0010000000474974513).
    val out = val::array();
    for (float lr : wolab::learning_rates(cfg)) out.call<void>("push", wolab::decimal_float(lr));
    return out;
  });
}

std::string experiments() {
  return js_errors([] { return wolab::experiments_json().dump(); });
}

std::string settings() {
  return js_errors([] { return wolab::settings_json().dump(); });
}

std::string plan(val config, val names) {
  return js_errors([&] {
    const std::string config_text = text_of(config, "config");
    const nlohmann::json list = nlohmann::json::parse(text_of(names, "experiments"), nullptr, /*allow_exceptions=*/false);
    bool strings = list.is_array();
    for (const auto& name : list) strings = strings && name.is_string();
    if (!strings) throw wolab::ConfigError("experiments: expected a JSON array of experiment names");
    std::vector<std::string> problems;
    const wolab::ExperimentConfig cfg = wolab::read_config_text(config_text, problems);
    if (!problems.empty()) throw wolab::ConfigError(problems.front());
    return wolab::plan_json(wolab::plan_runs(cfg, list.get<std::vector<std::string>>())).dump();
  });
}

// The notebook of config's experiment in `lang` (lab/notebook.h), its lexicon cell naming the
// file the page serves.
std::string make_notebook(val config, val lang) {
  return js_errors([&] {
    std::vector<std::string> problems;
    const wolab::ExperimentConfig cfg = wolab::read_config_text(text_of(config, "config"), problems);
    if (!problems.empty()) throw wolab::ConfigError(problems.front());
    return wolab::make_notebook(cfg, text_of(lang, "lang"), "cmudict-g2p.txt");
  });
}

std::string version() { return wolab::kVersion; }

// wo_stem: null for records with their W_o matrices; otherwise the records come without them, and
// the runs name their wo files after it (lab/wo_files.h, name_wo_files).
std::string make_results_of(val experiment, val config, val runs, val* wo_stem) {
  return js_errors([&] {
    const std::string name = text_of(experiment, "experiment"), config_text = text_of(config, "config");
    nlohmann::json list = nlohmann::json::parse(text_of(runs, "runs"), nullptr, /*allow_exceptions=*/false);
    if (!list.is_array()) throw wolab::ConfigError("results: runs: expected a JSON array of runs");
    auto records = list.get<std::vector<nlohmann::json>>();
    if (wo_stem) {
      const std::string stem = text_of(*wo_stem, "woStem");
      if (stem.empty()) throw wolab::ConfigError("woStem: expected the stem of a file name, e.g. \"wolab-wo_heatmap\"");
      wolab::name_wo_files(records, stem);
    }
    return wolab::make_results(wolab::parse_experiment_config(config_text), name, std::move(records)).dump();
  });
}

std::string make_results(val experiment, val config, val runs) {
  return make_results_of(experiment, config, runs, nullptr);
}

std::string make_results_wo_apart(val experiment, val config, val runs, val wo_stem) {
  return make_results_of(experiment, config, runs, &wo_stem);
}

std::string parse_results(val results) {
  return js_errors([&] { return wolab::parse_results(text_of(results, "results")).dump(); });
}

std::string analyze(val results_array) {
  return js_errors([&] { return wolab::analyze_text(text_of(results_array, "results")).dump(); });
}

std::string codes() {
  return js_errors([] { return wolab::codes_json().dump(); });
}

// JSON text in, for the words of one language (src/analysis/words.h).
nlohmann::json json_of(val& argument, const char* what) {
  std::string problem;
  std::optional<nlohmann::json> parsed = wolab::parse_json(text_of(argument, what), problem);
  if (!parsed) throw wolab::ConfigError(std::string(what) + ": not valid JSON (" + problem + ")");
  return std::move(*parsed);
}

std::string analysis_words(val analysis, val lang) {
  return js_errors([&] {
    const nlohmann::json a = json_of(analysis, "analysis");
    return wolab::analysis_words(a, wolab::lang_from_code(text_of(lang, "lang"))).dump();
  });
}

std::string conclude(val analysis, val words_analysis) {
  return js_errors([&] {
    const nlohmann::json a = json_of(analysis, "analysis"), w = json_of(words_analysis, "words analysis");
    if (!a.contains("claims") || !w.contains("words_claims")) throw wolab::ConfigError("conclude: two analyses, as analyze gives them");
    return wolab::conclude(a, w).dump();
  });
}

std::string claim_words(val claim, val lang) {
  return js_errors([&] {
    const nlohmann::json c = json_of(claim, "claim");
    return wolab::claim_words(c, wolab::lang_from_code(text_of(lang, "lang"))).dump();
  });
}

std::string lead_words(val metric, val lang) {
  return js_errors([&] {
    const nlohmann::json m = json_of(metric, "metric");
    return wolab::lead_words(m, wolab::lang_from_code(text_of(lang, "lang")));
  });
}

std::string words_table() {
  return js_errors([] { return wolab::words_table_json().dump(); });
}

// ---- the g2p lexicon ----

// The lexicon and its split (run/g2p.h), read from the compact file's text (docs/g2p.md) and
// shared by every trainer made with it, which keeps it alive after JS deletes this handle.
struct JsLexicon {
  std::shared_ptr<const wolab::G2pData> data;
};

JsLexicon* make_lexicon(val text) {
  return js_errors([&] {
    auto lexicon = std::make_shared<const wolab::Lexicon>(wolab::parse_cmudict(text_of(text, "lexicon")));
    return new JsLexicon{std::make_shared<const wolab::G2pData>(wolab::split_lexicon(std::move(lexicon)))};
  });
}

int lexicon_words(const JsLexicon& l) { return static_cast<int>(l.data->lexicon->words.size()); }
int lexicon_heldout(const JsLexicon& l) { return static_cast<int>(l.data->heldout.size()); }

// {arpabet: "K AE T", ipa: "kæt", phonemes: ["K", "AE", "T"], ipaPhonemes: ["k", "æ", "t"]}
val pronunciation_object(const std::vector<uint8_t>& pron) {
  std::vector<std::string> arpabet, ipa;
  for (uint8_t p : pron) {
    arpabet.push_back(wolab::to_arpabet({p}));
    ipa.push_back(wolab::to_ipa({p}));
  }
  val out = val::object();
  out.set("arpabet", wolab::to_arpabet(pron));
  out.set("ipa", wolab::to_ipa(pron));
  out.set("phonemes", string_array(arpabet));
  out.set("ipaPhonemes", string_array(ipa));
  return out;
}

// {word, listed, heldout, pronunciations: [pronunciation_object]}
val entry_object(const wolab::Lexicon& lexicon, const std::string& word) {
  const wolab::LexiconEntry e = wolab::look_up(lexicon, word);
  val prons = val::array();
  for (const std::vector<uint8_t>& p : e.prons) prons.call<void>("push", pronunciation_object(p));
  val out = val::object();
  out.set("word", word);
  out.set("listed", e.listed);
  out.set("heldout", e.heldout);
  out.set("trainedLength", wolab::within_trained_lengths(word));
  out.set("pronunciations", prons);
  return out;
}

// {min, max}: the letters of the words a g2p run trains on (io/cmudict.h); a word over max is
// refused (g2p_word), one under min is read but no training shaped the answer.
val word_letters() {
  val out = val::object();
  out.set("min", wolab::kMinLetters);
  out.set("max", wolab::kMaxLetters);
  return out;
}

val look_up(const JsLexicon& l, val word) {
  return js_errors([&] { return entry_object(*l.data->lexicon, wolab::g2p_word(text_of(word, "word"))); });
}

// ---- Trainer ----

Trainer* make_trainer(val config) {
  return js_errors([&] { return new Trainer(wolab::parse_run_config(text_of(config, "config"))); });
}

Trainer* make_trainer_with(val config, const JsLexicon& lexicon) {
  return js_errors([&] { return new Trainer(wolab::parse_run_config(text_of(config, "config")), lexicon.data); });
}

// A wo file's matrices (lab/wo_files.h): {variant, seed, matrices: [{step, layer, rows, cols,
// offset}], data: Float32Array of them all, each at its offset}: one array, so that a worker
// hands it on without copying.
val read_wo_file(val bytes) {
  return js_errors([&] {
    const std::vector<uint8_t> b = bytes_of(bytes, "wo file");
    const wolab::WoSnapshots s = wolab::read_wo_file(b.data(), b.size());
    size_t total = 0;
    for (const wolab::WoMatrix& m : s.matrices) total += m.data.size();
    std::vector<float> data;
    data.reserve(total);
    val matrices = val::array();
    for (const wolab::WoMatrix& m : s.matrices) {
      val entry = val::object();
      entry.set("step", m.step);
      entry.set("layer", m.layer);
      entry.set("rows", m.rows);
      entry.set("cols", m.cols);
      entry.set("offset", static_cast<double>(data.size()));
      matrices.call<void>("push", entry);
      data.insert(data.end(), m.data.begin(), m.data.end());
    }
    val out = val::object();
    out.set("variant", s.variant);
    out.set("seed", static_cast<double>(s.seed));
    out.set("matrices", matrices);
    out.set("data", float32_array(data));
    return out;
  });
}

// (rows, heads) row-major: per row of a (rows, cols) row-major matrix, the norm of each head's
// block of its columns (head_block_norms of that row alone): how much each output of W_o draws
// from each head.
val row_head_norms(val matrix, int rows, int cols, int heads) {
  return js_errors([&] {
    const val arg = std::move(matrix);
    if (!arg.instanceof(val::global("Float32Array")))
      throw wolab::ConfigError("rowHeadNorms: expected the matrix as a Float32Array");
    const std::vector<float> w = emscripten::convertJSArrayToNumberVector<float>(arg);
    if (rows < 1 || cols < 1 || heads < 1 || cols % heads != 0 || w.size() != size_t(rows) * size_t(cols))
      throw wolab::ConfigError("rowHeadNorms: expected rows × cols values with cols divisible by heads, got " +
                               std::to_string(w.size()) + " values for " + std::to_string(rows) + " × " +
                               std::to_string(cols) + " and " + std::to_string(heads) + " heads");
    std::vector<float> out;
    out.reserve(size_t(rows) * heads);
    for (int r = 0; r < rows; r++) {
      const std::vector<float> n = wolab::head_block_norms(w.data() + size_t(r) * cols, 1, cols, heads);
      out.insert(out.end(), n.begin(), n.end());
    }
    return float32_array(out);
  });
}

Trainer from_checkpoint(val bytes) {
  return js_errors([&] { return wolab::load_checkpoint(bytes_of(bytes)); });
}

Trainer from_checkpoint_with(val bytes, const JsLexicon& lexicon) {
  return js_errors([&] { return wolab::load_checkpoint(bytes_of(bytes), lexicon.data); });
}

// A g2p model's pronunciation of a word (run/pronounce.h): pronunciation_object's fields and
// {word, eos, dictionary: entry_object, layers, heads, letters, attention: Float32Array
// (layers, heads, phonemes, letters)}.
val pronounce(Trainer& t, val word) {
  return js_errors([&] {
    const wolab::Pronunciation p = wolab::pronounce(t, text_of(word, "word"));
    val out = pronunciation_object(p.phonemes);
    out.set("word", p.word);
    out.set("eos", p.eos);
    out.set("dictionary", entry_object(*t.g2p_data()->lexicon, p.word));
    out.set("layers", p.layers);
    out.set("heads", p.heads);
    out.set("letters", static_cast<int>(p.word.size()));
    out.set("attention", float32_array(p.attention));
    return out;
  });
}

val step(Trainer& t, int n) {
  return js_errors([&] { return float32_array(t.step(n)); });
}

// {state, step?}: the results schema's status object (status_json).
val status(const Trainer& t) {
  const wolab::RunStatus& s = t.status();
  const nlohmann::json j = wolab::status_json(s);
  val out = val::object();
  out.set("state", j["state"].get<std::string>());
  if (j.contains("step")) out.set("step", s.step);
  return out;
}

void stop(Trainer& t) { t.stop(); }

val eval_object(const wolab::EvalResult& r) {
  val out = val::object();
  out.set("step", r.step);
  out.set("loss", r.loss);
  out.set("token_acc", r.token_acc);
  out.set("exact", r.exact);
  return out;
}

val evaluate(Trainer& t) {
  return js_errors([&] { return eval_object(t.evaluate()); });
}

// The held-out eval the trainer took at its latest probe step, or null before the first: free,
// unlike evaluate(), which runs the held-out set again.
val last_eval(const Trainer& t) {
  return js_errors([&] { return t.evals().empty() ? val::null() : eval_object(t.evals().back()); });
}

float greedy_exact(Trainer& t) {
  return js_errors([&] { return t.greedy_exact(); });
}

// The latest probe, or null before the first probe step.
val stats(const Trainer& t) {
  return js_errors([&] {
    if (t.probes().empty()) return val::null();
    const wolab::ProbeRecord& p = t.probes().back();
    val layers = val::array();
    for (const wolab::LayerStats& l : p.layers) {
      val layer = val::object();
      layer.set("concat", mean_std(l.concat));
      layer.set("wo_out", mean_std(l.wo_out));
      layer.set("residual", mean_std(l.residual));
      val norms = val::array();
      for (float x : l.head_grad_norm) norms.call<void>("push", x);
      layer.set("head_grad_norm", norms);
      layers.call<void>("push", layer);
    }
    val out = val::object();
    out.set("step", p.step);
    out.set("layers", layers);
    return out;
  });
}

val wo_weights(const Trainer& t, int layer) {
  return js_errors([&] { return float32_array(t.wo_weights(layer)); });
}

val wo_init(const Trainer& t, int layer) {
  return js_errors([&] { return float32_array(t.wo_init(layer)); });
}

val head_block_norms(const Trainer& t, int layer) {
  return js_errors([&] { return float32_array(t.head_block_norms(layer)); });
}

val ov_singular_values(const Trainer& t, int layer, int head) {
  return js_errors([&] { return float32_array(t.ov_singular_values(layer, head)); });
}

val attention(Trainer& t, int layer, int head, int example) {
  return js_errors([&] { return float32_array(t.attention(layer, head, example)); });
}

// int64 -> double: a JS number holds any parameter count the memory limit allows exactly.
double parameter_count(const Trainer& t) { return static_cast<double>(t.parameter_count()); }

void keep_stats(Trainer& t, bool keep) { t.keep_stats(keep); }

void record_wo_snapshots(Trainer& t, bool keep) {
  js_errors([&] { t.keep_wo_snapshots(keep); });
}

std::string probe_record_text(const Trainer& t, bool wo_data) {
  return js_errors([&] { return wolab::probe_record(t, wo_data).dump(); });
}
std::string probe_record_whole(const Trainer& t) { return probe_record_text(t, true); }

std::string record_text(Trainer& t, bool wo_data) {
  return js_errors([&] { return wolab::json_text(wolab::run_record(t, wo_data)); });
}
std::string record_whole(Trainer& t) { return record_text(t, true); }

// The matrix of the kept W_o snapshot at (step, layer): the "data" that record(false) and
// probeRecord(false) leave out of its entry.
val wo_snapshot(const Trainer& t, int step, int layer) {
  return js_errors([&] {
    for (const wolab::WoSnapshot& s : t.wo_snapshots())
      if (s.step == step && s.layer == layer) return float32_array(s.data);
    throw std::out_of_range("woSnapshot: no W_o snapshot of layer " + std::to_string(layer) + " at step " +
                            std::to_string(step));
  });
}

val checkpoint(const Trainer& t) {
  return js_errors([&] { return typed_array_copy("Uint8Array", wolab::save_checkpoint(t)); });
}

}  // namespace

EMSCRIPTEN_BINDINGS(wolab) {
  using emscripten::allow_raw_pointers;
  using emscripten::function;

  function("validateConfig", &validate_config);
  function("memoryEstimate", &memory_estimate);
  function("presets", &presets);
  function("presetNames", &preset_names);
  function("learningRates", &learning_rates);
  function("experiments", &experiments);
  function("settings", &settings);
  function("plan", &plan);
  function("version", &version);
  function("makeNotebook", &make_notebook);
  function("makeResults", &make_results);
  function("makeResultsWoApart", &make_results_wo_apart);
  function("parseResults", &parse_results);
  function("readWoFile", &read_wo_file);
  function("rowHeadNorms", &row_head_norms);
  function("analyze", &analyze);
  function("codes", &codes);
  function("wordLetters", &word_letters);
  function("analysisWords", &analysis_words);
  function("conclude", &conclude);
  function("claimWords", &claim_words);
  function("leadWords", &lead_words);
  function("wordsTable", &words_table);

  emscripten::class_<JsLexicon>("Lexicon")
      .constructor(&make_lexicon, allow_raw_pointers())
      .function("words", &lexicon_words)
      .function("heldoutWords", &lexicon_heldout)
      .function("lookUp", &look_up);

  emscripten::class_<Trainer>("Trainer")
      .constructor(&make_trainer, allow_raw_pointers())
      .constructor(&make_trainer_with, allow_raw_pointers())
      .class_function("fromCheckpoint", &from_checkpoint)
      .class_function("fromCheckpoint", &from_checkpoint_with)
      .function("step", &step)
      .function("stepsDone", &Trainer::steps_done)
      .function("nextProbeStep", &Trainer::next_probe_step)
      .function("finished", &Trainer::finished)
      .function("status", &status)
      .function("stop", &stop)
      .function("evaluate", &evaluate)
      .function("lastEval", &last_eval)
      .function("greedyExact", &greedy_exact)
      .function("stats", &stats)
      .function("woWeights", &wo_weights)
      .function("woInit", &wo_init)
      .function("headBlockNorms", &head_block_norms)
      .function("ovSingularValues", &ov_singular_values)
      .function("attention", &attention)
      .function("pronounce", &pronounce)
      .function("parameterCount", &parameter_count)
      .function("keepStats", &keep_stats)
      .function("recordWoSnapshots", &record_wo_snapshots)
      .function("probeRecord", &probe_record_whole)
      .function("probeRecord", &probe_record_text)
      .function("record", &record_whole)
      .function("record", &record_text)
      .function("woSnapshot", &wo_snapshot)
      .function("checkpoint", &checkpoint);
}
