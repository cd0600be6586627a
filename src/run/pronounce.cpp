#include "run/pronounce.h"

#include <algorithm>
#include <string>

#include "run/g2p.h"

namespace wolab {
namespace {

const std::string kAllowed = "; give 1 to " + std::to_string(kMaxLetters) + " letters a-z";

// The character of `text` at byte i: one byte, or a UTF-8 sequence's lead byte and its
// continuation bytes.
std::string character_at(const std::string& text, size_t i) {
  size_t end = i + 1;
  if (static_cast<unsigned char>(text[i]) >= 0xC0)
    while (end < text.size() && end < i + 4 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) end++;
  return text.substr(i, end - i);
}

}  // namespace

std::string g2p_word(const std::string& text) {
  const std::string quoted = "word " + in_quotes(text) + ": ";
  if (text.empty()) throw ConfigError(quoted + "empty" + kAllowed);
  std::string word = text;
  for (size_t i = 0; i < word.size(); i++) {
    char& c = word[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c < 'a' || c > 'z') throw ConfigError(quoted + in_quotes(character_at(text, i)) + " is not a letter a-z" + kAllowed);
  }
  if (static_cast<int>(word.size()) > kMaxLetters)
    throw ConfigError(quoted + std::to_string(word.size()) + " letters, over the " + std::to_string(kMaxLetters) +
                      " a model reads" + kAllowed);
  return word;
}

bool within_trained_lengths(const std::string& word) { return static_cast<int>(word.size()) >= kMinLetters; }

Pronunciation pronounce(Trainer& model, const std::string& text) {
  const TaskKind task = model.config().task.kind;
  if (task != TaskKind::g2p)
    throw ConfigError(std::string("the model is not a g2p model: its task is ") + to_string(task) +
                      "; give a model trained on the task g2p");
  Pronunciation p;
  p.word = g2p_word(text);
  p.trained_length = within_trained_lengths(p.word);
  const G2pGuess guess = model.g2p_decode({p.word}).front();
  p.phonemes = guess_phonemes(guess.tokens);
  p.eos = guess.eos;
  p.layers = model.config().model.layers;
  p.heads = model.config().model.heads;
  const int letters = static_cast<int>(p.word.size()), sep = letters + 1, rows = static_cast<int>(p.phonemes.size());
  if (rows == 0) return p;
  // [BOS] letters [SEP] and the predictions but the last: the positions that predicted them
  std::vector<int> seq{kG2pBos};
  for (char c : p.word) seq.push_back(kLetterToken + (c - 'a'));
  seq.push_back(kG2pSep);
  seq.insert(seq.end(), guess.tokens.begin(), guess.tokens.end() - 1);
  const std::vector<float> maps = model.attention_maps(seq);  // (layers, heads, T, T)
  const int T = static_cast<int>(seq.size());
  p.attention.reserve(static_cast<size_t>(p.layers) * p.heads * rows * letters);
  for (int lh = 0; lh < p.layers * p.heads; lh++)
    for (int r = 0; r < rows; r++) {
      const float* row = maps.data() + (static_cast<size_t>(lh) * T + sep + r) * T;  // (T) position sep + r
      p.attention.insert(p.attention.end(), row + 1, row + 1 + letters);
    }
  return p;
}

LexiconEntry look_up(const Lexicon& lexicon, const std::string& word) {
  LexiconEntry e;
  const auto it = std::find_if(lexicon.words.begin(), lexicon.words.end(),
                               [&](const LexiconWord& w) { return w.word == word; });
  if (it == lexicon.words.end()) return e;
  e.listed = true;
  e.heldout = is_heldout_word(word);
  e.prons = it->prons;
  return e;
}

}  // namespace wolab
