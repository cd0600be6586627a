#include "run/trainer.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "io/messages.h"
#include "nn/adam.h"
#include "nn/layers.h"
#include "nn/model.h"
#include "nn/rng.h"
#include "run/memory_estimate.h"
#include "run/g2p.h"
#include "run/probes.h"
#include "run/tasks.h"

namespace wolab {
namespace {

void check_index(const char* what, int i, int n) {
  if (i < 0 || i >= n)
    throw std::out_of_range(std::string(what) + " " + std::to_string(i) + " is out of range; 0.." +
                            std::to_string(n - 1));
}

// block_diagonal's W_o keeps to its heads' blocks only if it and its Adam moments are 0 between
// them: nothing ever moves those entries, so a file's nonzero ones would stay, and mix the heads.
void check_zero_between_heads(const std::string& name, const float* v, int C, int H) {
  std::vector<float> blocks(v, v + static_cast<size_t>(C) * C);
  zero_between_heads(blocks.data(), C, H);
  if (!std::equal(blocks.begin(), blocks.end(), v))
    throw ConfigError("checkpoint: tensor " + name + " is not 0 between the heads' blocks, as block_diagonal's W_o is");
}

}  // namespace

struct Trainer::Impl {
  RunConfig cfg;
  Model<float> model;
  Adam adam;
  Rng data_rng;
  std::shared_ptr<const G2pData> g2p;  // the task g2p's words; null for the toy tasks
  Batch batch;    // the current training batch, refilled every step
  Batch heldout;  // fixed per (task, alphabet, length); g2p: the probe subset of held-out words
  std::vector<float> wo_init;  // (layers, C, C)
  std::vector<float> losses;
  std::vector<EvalResult> evals;
  std::vector<G2pScores> g2p_evals;  // g2p: at every probe step, on the probe subset
  std::vector<ProbeRecord> probes;
  std::vector<WoSnapshot> snapshots;
  std::vector<OvSnapshot> ov_snapshots;
  bool keep_snapshots = false;
  bool keep_stats = true;
  RunStatus status;

  Impl(const RunConfig& c, std::shared_ptr<const G2pData> data)
      : cfg(c), model(c.model, c.train.batch), adam(c.train, model.params.size()),
        data_rng(stream_seed(c.train.seed, "data")), g2p(std::move(data)),
        batch(g2p ? alloc_g2p_batch(c.train.batch) : alloc_batch(c.task, c.train.batch)),
        heldout(g2p ? g2p_batch(*g2p->lexicon, g2p->heldout, 0,
                                std::min<int>(c.task.heldout, static_cast<int>(g2p->heldout.size())))
                    : heldout_set(c.task, c.task.heldout)) {
    losses.reserve(c.train.steps);  // so that steps append without allocating
  }

  int steps_done() const { return static_cast<int>(adam.t); }

  // (C,C) W_o as a matrix: the identity without one, scalar_gain's gain times the identity
  std::vector<float> wo_matrix(int l) const {
    const int C = cfg.model.d_model;
    const float* wo = model.wo(l);
    std::vector<float> out(static_cast<size_t>(C) * C, 0.0f);
    if (wo)
      std::copy_n(wo, out.size(), out.begin());
    else
      for (int i = 0; i < C; i++) out[i * C + i] = model.wo_gain(l);
    return out;
  }

  void snapshot(int step) {
    const int C = cfg.model.d_model;
    for (int l = 0; l < cfg.model.layers; l++) snapshots.push_back({step, l, C, C, wo_matrix(l)});
    snapshot_ov(step);
  }

  void snapshot_ov(int step) {
    const int C = cfg.model.d_model, H = cfg.model.heads;
    for (int l = 0; l < cfg.model.layers; l++) {
      const std::vector<float> wo = wo_matrix(l);
      for (int h = 0; h < H; h++)
        ov_snapshots.push_back({step, l, h, wolab::ov_singular_values(wo.data(), model.wv(l), C, H, h)});
    }
  }

  // Stats of this step's forward and backward, before the update changes the weights.
  void probe(int step) {
    const int N = model.batch() * model.positions(), C = cfg.model.d_model;
    const size_t n = static_cast<size_t>(N) * C;
    ProbeRecord rec;
    rec.step = step;
    for (int l = 0; l < cfg.model.layers; l++)
      rec.layers.push_back({mean_std(model.concat(l), n), mean_std(model.wo_out(l), n),
                            mean_std(model.residual(l), n),
                            wolab::head_block_norms(model.dconcat(l), N, C, cfg.model.heads)});
    probes.push_back(std::move(rec));
  }

  bool is_probe_step(int step) const {
    return step % cfg.train.probe_every == 0 || step == cfg.train.steps;
  }

  void train_step() {
    const int step = steps_done() + 1;
    if (g2p)
      fill_g2p_batch(batch, *g2p, data_rng);
    else
      fill_batch(batch, cfg.task, data_rng);
    const float loss = model.forward(batch.input.data(), batch.target.data(), batch.size, batch.seq_len);
    if (!std::isfinite(loss)) {
      status = {RunStatus::State::diverged, step};
      return;
    }
    model.backward();
    if (keep_stats && is_probe_step(step)) probe(step);
    adam.step(model.params, model.grads, model.param_info());
    losses.push_back(loss);
    if (is_probe_step(step)) {
      if (keep_snapshots) snapshot(step);
      evals.push_back(evaluate());
      if (g2p) g2p_evals.push_back(g2p_scores(false));
      // Weights that give a non-finite held-out loss have diverged, even if this step's
      // training loss, computed before the update, was finite.
      if (!std::isfinite(evals.back().loss)) {
        status = {RunStatus::State::diverged, step};
        return;
      }
    }
    if (step == cfg.train.steps) status = {RunStatus::State::done, 0};
  }

  EvalResult evaluate() { return evaluate_on(heldout); }

  // Teacher-forced metrics on `set`. The toy tasks' loss is the mean of each chunk's mean over
  // its sequences (all have `length` answer tokens); g2p's, whose words differ in length, the
  // mean over every answer token.
  EvalResult evaluate_on(const Batch& set) {
    const int T = set.seq_len, V = cfg.model.vocab;
    EvalResult r;
    r.step = steps_done();
    double loss = 0;
    int tokens = 0, right = 0, exact = 0;
    for (int start = 0; start < set.size; start += cfg.train.batch) {
      const int B = std::min(cfg.train.batch, set.size - start);
      const int* target = set.target.data() + start * T;
      // logits (scored, V): only the rows with a target, in (b,t) order
      const double chunk = model.forward_scored(set.input.data() + start * T, target, B, T);
      const int before = tokens;
      for (int b = 0; b < B; b++) {
        bool all = true;
        for (int t = 0; t < T; t++) {
          if (target[b * T + t] < 0) continue;
          const float* z = model.logits() + (tokens - before) * V;
          const bool ok = std::max_element(z, z + V) - z == target[b * T + t];
          tokens++;
          right += ok;
          all = all && ok;
        }
        exact += all;
      }
      loss += chunk * (g2p ? tokens - before : B);
    }
    r.loss = static_cast<float>(loss / (g2p ? std::max(tokens, 1) : set.size));
    r.token_acc = tokens ? float(right) / tokens : 0.0f;
    r.exact = float(exact) / set.size;
    return r;
  }

  // g2p: greedy decoding of B ≤ train.batch words (1..kMaxLetters letters a-z) at once: each
  // is fed [BOS] letters [SEP], then its own predictions, through the model's cache of keys and
  // values as greedy_exact does, until it predicts EOS or reaches the model's last position (at
  // most 26 - letters phonemes, ≥ kMaxPhonemes); each word's prompt has its own length, so a word
  // starts predicting at its own [SEP]. out[b] gets the tokens predicted before EOS.
  void decode_words(const std::string* const* words, int B, G2pGuess* out) {
    const int V = cfg.model.vocab;
    std::vector<int> tokens(B), sep(B);  // (B) fed at position t; [SEP]'s position
    int first_sep = cfg.model.seq_len, last_sep = 0;
    for (int b = 0; b < B; b++) {
      sep[b] = 1 + static_cast<int>(words[b]->size());
      first_sep = std::min(first_sep, sep[b]);
      last_sep = std::max(last_sep, sep[b]);
      out[b] = {};
    }
    for (int t = 0; t < cfg.model.seq_len; t++) {
      for (int b = 0; b < B; b++)
        if (t <= sep[b]) tokens[b] = t == 0 ? kG2pBos : t == sep[b] ? kG2pSep : kLetterToken + ((*words[b])[t - 1] - 'a');
      const float* logits = model.decode(tokens.data(), t, B, t >= first_sep);  // (B,V)
      bool pending = t < last_sep;
      for (int b = 0; b < B; b++) {
        if (t < sep[b] || out[b].eos) continue;
        const float* z = logits + b * V;
        tokens[b] = static_cast<int>(std::max_element(z, z + V) - z);
        if (tokens[b] == kG2pEos) {
          out[b].eos = true;
          continue;
        }
        out[b].tokens.push_back(tokens[b]);
        pending = true;
      }
      if (!pending) break;
    }
  }

  // g2p: each held-out word decoded greedily (decode_words) and scored against its closest
  // listed pronunciation, with the teacher-forced metrics of the same words, chunk by chunk.
  G2pScores g2p_scores(bool all) {
    const Lexicon& lex = *g2p->lexicon;
    const std::vector<int>& ids = g2p->heldout;
    const int n = all ? static_cast<int>(ids.size()) : heldout.size;
    const int max_b = cfg.train.batch;
    std::vector<const std::string*> words(max_b);
    std::vector<G2pGuess> guess(max_b);
    double loss = 0;
    long long answer_tokens = 0, right_tokens = 0, edits = 0, reference = 0;
    int wrong = 0;
    for (int start = 0; start < n; start += max_b) {
      const int B = std::min(max_b, n - start);
      const Batch chunk = g2p_batch(lex, ids, start, B);
      const EvalResult tf = evaluate_on(chunk);
      const long long chunk_tokens = std::count_if(chunk.target.begin(), chunk.target.end(), [](int t) { return t >= 0; });
      loss += double(tf.loss) * chunk_tokens;
      right_tokens += std::llround(double(tf.token_acc) * chunk_tokens);
      answer_tokens += chunk_tokens;
      for (int b = 0; b < B; b++) words[b] = &lex.words[ids[start + b]].word;
      decode_words(words.data(), B, guess.data());
      for (int b = 0; b < B; b++) {
        // a word that never predicted EOS is wrong even if its phonemes are right
        const PronunciationScore s = score_pronunciation(guess_phonemes(guess[b].tokens), lex.words[ids[start + b]]);
        const bool eos = guess[b].eos;
        edits += s.edits + !eos;
        reference += s.reference;
        wrong += s.edits > 0 || !eos;
      }
    }
    G2pScores s;
    s.step = steps_done();
    s.words = n;
    s.per = reference ? float(double(edits) / reference) : 0.0f;
    s.wer = n ? float(wrong) / n : 0.0f;
    s.token_acc = answer_tokens ? float(double(right_tokens) / answer_tokens) : 0.0f;
    s.loss = answer_tokens ? float(loss / answer_tokens) : 0.0f;
    return s;
  }

  // Feeds each held-out sequence's [BOS] x [SEP], then its own predictions, one position at a
  // time through the model's cache of keys and values (Model::decode): the same answers as
  // rerunning forward() for every answer token, at the cost of one forward.
  float greedy_exact() {
    // g2p: the last probe step's WER on the probe subset when it is this step's (it usually is)
    if (g2p) return 1.0f - (!g2p_evals.empty() && g2p_evals.back().step == steps_done() ? g2p_evals.back() : g2p_scores(false)).wer;
    const int T = cfg.model.seq_len, V = cfg.model.vocab, first = first_answer_position(cfg.task);
    std::vector<int> tokens(cfg.train.batch);  // (B) fed at position t
    std::vector<char> right(cfg.train.batch);  // (B) every answer token so far right
    int exact = 0;
    for (int start = 0; start < heldout.size; start += cfg.train.batch) {
      const int B = std::min(cfg.train.batch, heldout.size - start);
      const int* input = heldout.input.data() + start * T;    // (B,T)
      const int* target = heldout.target.data() + start * T;  // (B,T)
      std::fill_n(right.begin(), B, 1);
      for (int t = 0; t < T; t++) {
        // the prompt up to [SEP] at `first`, then the prediction made at t - 1
        if (t <= first)
          for (int b = 0; b < B; b++) tokens[b] = input[b * T + t];
        const float* logits = model.decode(tokens.data(), t, B, t >= first);  // (B,V)
        if (t < first) continue;
        for (int b = 0; b < B; b++) {
          const float* z = logits + b * V;
          tokens[b] = static_cast<int>(std::max_element(z, z + V) - z);
          right[b] = right[b] && tokens[b] == target[b * T + t];
        }
      }
      exact += static_cast<int>(std::count(right.begin(), right.begin() + B, 1));
    }
    return float(exact) / heldout.size;
  }
};

Trainer::Trainer(const RunConfig& cfg, std::shared_ptr<const G2pData> g2p) {
  RunConfig c = cfg;
  derive(c);
  if (c.task.kind != TaskKind::g2p)
    g2p = nullptr;
  else if (!g2p || g2p->train.empty() || g2p->heldout.empty())
    throw ConfigError("task.name: g2p needs the CMUdict lexicon (docs/g2p.md), which was not loaded");
  impl_ = std::make_unique<Impl>(c, std::move(g2p));
  impl_->model.init(c.train.seed);
  impl_->wo_init.reserve(static_cast<size_t>(c.model.layers) * c.model.d_model * c.model.d_model);
  for (int l = 0; l < c.model.layers; l++) {
    const std::vector<float> wo = impl_->wo_matrix(l);
    impl_->wo_init.insert(impl_->wo_init.end(), wo.begin(), wo.end());
  }
}

Trainer::Trainer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Trainer::~Trainer() = default;
Trainer::Trainer(Trainer&&) noexcept = default;
Trainer& Trainer::operator=(Trainer&&) noexcept = default;

const RunConfig& Trainer::config() const { return impl_->cfg; }
const std::shared_ptr<const G2pData>& Trainer::g2p_data() const { return impl_->g2p; }

std::vector<float> Trainer::step(int n) {
  // The call's one allocation: the steps themselves allocate nothing (test_alloc.cpp).
  std::vector<float> out;
  out.reserve(std::max(0, std::min(n, impl_->cfg.train.steps - steps_done())));
  for (int i = 0; i < n && !finished(); i++) {
    const size_t before = impl_->losses.size();
    impl_->train_step();
    if (impl_->losses.size() > before) out.push_back(impl_->losses.back());  // none if not finite
  }
  return out;
}

int Trainer::steps_done() const { return impl_->steps_done(); }
int Trainer::next_probe_step() const {
  const int done = steps_done(), every = impl_->cfg.train.probe_every;
  return finished() ? done : std::min(impl_->cfg.train.steps, (done / every + 1) * every);
}
bool Trainer::finished() const { return impl_->status.finished(); }
const RunStatus& Trainer::status() const { return impl_->status; }

void Trainer::stop() {
  if (!finished()) impl_->status = {RunStatus::State::stopped, steps_done()};
}

void Trainer::keep_stats(bool keep) {
  impl_->keep_stats = keep;
  if (!keep) impl_->probes.clear();
}

EvalResult Trainer::evaluate() { return impl_->evaluate(); }
float Trainer::greedy_exact() { return impl_->greedy_exact(); }
G2pScores Trainer::g2p_scores(bool all) {
  if (!impl_->g2p) throw ConfigError("task.name: g2p scores need the task g2p");
  return impl_->g2p_scores(all);
}
std::vector<G2pGuess> Trainer::g2p_decode(const std::vector<std::string>& words) {
  if (!impl_->g2p) throw ConfigError("task.name: g2p decoding needs the task g2p");
  std::vector<const std::string*> ptrs;
  for (const std::string& w : words) {
    const bool ok = !w.empty() && static_cast<int>(w.size()) <= kMaxLetters &&
                    std::all_of(w.begin(), w.end(), [](char c) { return c >= 'a' && c <= 'z'; });
    if (!ok) throw std::invalid_argument("g2p_decode: a word is 1 to 12 letters a-z");
    ptrs.push_back(&w);
  }
  std::vector<G2pGuess> out(words.size());
  const int n = static_cast<int>(words.size()), max_b = impl_->cfg.train.batch;
  for (int start = 0; start < n; start += max_b)
    impl_->decode_words(ptrs.data() + start, std::min(max_b, n - start), out.data() + start);
  return out;
}
const std::vector<G2pScores>& Trainer::g2p_evals() const { return impl_->g2p_evals; }
const std::vector<float>& Trainer::losses() const { return impl_->losses; }
const std::vector<EvalResult>& Trainer::evals() const { return impl_->evals; }
const std::vector<ProbeRecord>& Trainer::probes() const { return impl_->probes; }
const std::vector<WoSnapshot>& Trainer::wo_snapshots() const { return impl_->snapshots; }
const std::vector<OvSnapshot>& Trainer::ov_snapshots() const { return impl_->ov_snapshots; }
int64_t Trainer::parameter_count() const { return impl_->model.trainable_count(); }
const std::vector<int>& Trainer::last_batch() const { return impl_->batch.input; }
const std::vector<int>& Trainer::heldout_inputs() const { return impl_->heldout.input; }

void Trainer::keep_wo_snapshots(bool keep) {
  Impl& m = *impl_;
  const uint64_t bytes = keep ? estimate_bytes(m.cfg, /*wo_snapshots=*/true) : 0;
  if (bytes > kMaxRunBytes)
    throw ConfigError("train.probe_every: keeping W_o every " +
                      std::to_string(m.cfg.train.probe_every) + " steps needs about " +
                      std::to_string(bytes >> 20) +
                      " MiB, over the 512 MiB limit; probe less often or train fewer steps");
  m.keep_snapshots = keep;
  if (!keep) {
    m.snapshots.clear();
    m.ov_snapshots.clear();
    return;
  }
  if (!m.snapshots.empty()) return;
  const int C = m.cfg.model.d_model;
  const size_t n = static_cast<size_t>(C) * C;
  for (int l = 0; l < m.cfg.model.layers; l++)
    m.snapshots.push_back({0, l, C, C, {m.wo_init.begin() + l * n, m.wo_init.begin() + (l + 1) * n}});
  if (m.steps_done() == 0) m.snapshot_ov(0);  // W_v has moved since step 0 otherwise
}

std::vector<float> Trainer::wo_weights(int layer) const {
  check_index("layer", layer, impl_->cfg.model.layers);
  return impl_->wo_matrix(layer);
}

std::vector<float> Trainer::wo_init(int layer) const {
  check_index("layer", layer, impl_->cfg.model.layers);
  const size_t n = static_cast<size_t>(impl_->cfg.model.d_model) * impl_->cfg.model.d_model;
  return {impl_->wo_init.begin() + layer * n, impl_->wo_init.begin() + (layer + 1) * n};
}

std::vector<float> Trainer::head_block_norms(int layer) const {
  check_index("layer", layer, impl_->cfg.model.layers);
  const int C = impl_->cfg.model.d_model;
  return wolab::head_block_norms(impl_->wo_matrix(layer).data(), C, C, impl_->cfg.model.heads);
}

std::vector<float> Trainer::ov_singular_values(int layer, int head) const {
  check_index("layer", layer, impl_->cfg.model.layers);
  check_index("head", head, impl_->cfg.model.heads);
  return wolab::ov_singular_values(impl_->wo_matrix(layer).data(), impl_->model.wv(layer),
                                   impl_->cfg.model.d_model, impl_->cfg.model.heads, head);
}

std::vector<float> Trainer::attention(int layer, int head, int example) {
  Impl& m = *impl_;
  check_index("layer", layer, m.cfg.model.layers);
  check_index("head", head, m.cfg.model.heads);
  check_index("example", example, m.heldout.size);
  const int T = m.heldout.seq_len;
  m.model.forward(m.heldout.input.data() + example * T, m.heldout.target.data() + example * T, 1, T);
  return m.model.attention(layer, 0, head);
}

std::vector<float> Trainer::attention_maps(const std::vector<int>& tokens) {
  Impl& m = *impl_;
  const int T = static_cast<int>(tokens.size()), L = m.cfg.model.layers, H = m.cfg.model.heads;
  if (T < 1 || T > m.cfg.model.seq_len)
    throw std::invalid_argument("attention_maps: 1 to " + std::to_string(m.cfg.model.seq_len) + " tokens");
  for (int tok : tokens)
    if (tok < 0 || tok >= m.cfg.model.vocab) throw std::invalid_argument("attention_maps: a token outside the vocabulary");
  const std::vector<int> no_target(T, -1);
  m.model.forward(tokens.data(), no_target.data(), 1, T);
  std::vector<float> out;
  out.reserve(static_cast<size_t>(L) * H * T * T);
  for (int l = 0; l < L; l++)
    for (int h = 0; h < H; h++) {
      const std::vector<float> att = m.model.attention(l, 0, h);  // (T,T)
      out.insert(out.end(), att.begin(), att.end());
    }
  return out;
}

RunCheckpoint Trainer::checkpoint(bool optimizer) const {
  const Impl& m = *impl_;
  RunCheckpoint c;
  c.step = static_cast<uint64_t>(m.steps_done());
  c.data_rng = m.data_rng.state();
  c.status = m.status;
  c.optimizer = optimizer;
  SafeTensors& st = c.tensors;
  for (const ParamInfo& p : m.model.param_info()) {
    auto slice = [&](const std::vector<float>& v) {
      return Tensor<float>{p.shape, {v.begin() + p.offset, v.begin() + p.offset + p.size}};
    };
    st.f32[p.name] = slice(m.model.params);
    if (!p.trainable || !optimizer) continue;
    st.f32["adam.m." + p.name] = slice(m.adam.m);
    st.f32["adam.v." + p.name] = slice(m.adam.v);
  }
  const int64_t C = m.cfg.model.d_model;
  for (int l = 0; l < m.cfg.model.layers; l++)
    st.f32["init.layers." + std::to_string(l) + ".attn.W_o.weight"] = {{C, C}, wo_init(l)};
  st.f32["history.loss"] = {{static_cast<int64_t>(m.losses.size())}, m.losses};
  return c;
}

Trainer Trainer::from_checkpoint(const RunConfig& cfg, const RunCheckpoint& c, std::shared_ptr<const G2pData> g2p) {
  Trainer t(cfg, std::move(g2p));
  Impl& m = *t.impl_;
  check_step_and_status(c, m.cfg.train.steps);
  for (const ParamInfo& p : m.model.param_info()) {
    take_tensor(c.tensors, p.name, p.shape, m.model.params.data() + p.offset);
    if (!p.trainable || !c.optimizer) continue;  // a model file's moments stay zero
    take_tensor(c.tensors, "adam.m." + p.name, p.shape, m.adam.m.data() + p.offset);
    // Adam's second moments are averages of squares: a negative one would make the next
    // update NaN, and the run look as if it had diverged.
    take_tensor(c.tensors, "adam.v." + p.name, p.shape, m.adam.v.data() + p.offset, /*non_negative=*/true);
  }
  if (m.cfg.model.wo == WoMode::block_diagonal)
    for (const ParamInfo& p : m.model.param_info()) {
      if (p.name.find("attn.W_o.weight") == std::string::npos) continue;
      const int C = m.cfg.model.d_model, H = m.cfg.model.heads;
      check_zero_between_heads(p.name, m.model.params.data() + p.offset, C, H);
      check_zero_between_heads("adam.m." + p.name, m.adam.m.data() + p.offset, C, H);
      check_zero_between_heads("adam.v." + p.name, m.adam.v.data() + p.offset, C, H);
    }
  const int64_t C = m.cfg.model.d_model;
  for (int l = 0; l < m.cfg.model.layers; l++)
    take_tensor(c.tensors, "init.layers." + std::to_string(l) + ".attn.W_o.weight", {C, C}, m.wo_init.data() + l * C * C);
  m.losses.resize(c.step);
  take_tensor(c.tensors, "history.loss", {static_cast<int64_t>(c.step)}, m.losses.data());
  m.adam.t = static_cast<int64_t>(c.step);
  m.data_rng = Rng(c.data_rng);
  m.status = c.status;
  return t;
}

}  // namespace wolab
