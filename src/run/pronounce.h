// Pronouncing one word with a trained g2p model (run/g2p.h, docs/g2p.md): the word checked as
// a user typed it, its greedy pronunciation, each output phoneme's attention over the word's
// letters, and what the lexicon lists for it. `wolab pronounce` and the page's "try a word"
// both read it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "io/cmudict.h"
#include "run/trainer.h"

namespace wolab {

// The word a model reads for `text`: upper case folded to lower case, as the lexicon folds it.
// Throws ConfigError, one line, for an empty word, one of more than kMaxLetters letters, or a
// character outside a-z (naming the first such character).
std::string g2p_word(const std::string& text);

// Whether the models can have learned to read `word` (g2p_word's form): false for a word of fewer
// than kMinLetters letters, shorter than every word a run trains on (the lexicon's word set), so
// that a model's answer to it is a guess no training shaped.
bool within_trained_lengths(const std::string& word);

struct Pronunciation {
  std::string word;               // g2p_word(text)
  bool trained_length = true;     // within_trained_lengths(word)
  std::vector<uint8_t> phonemes;  // ids into kPhonemes; kNotPhoneme for a predicted letter or mark
  bool eos = false;               // false: cut at the model's last position without an EOS
  int layers = 0, heads = 0;
  // (layers, heads, phonemes, letters): the weight each output phoneme's position (the one that
  // predicts it: [SEP], then the phoneme before) gives each letter. A row's weights over the
  // letters sum to at most 1: the rest went to [BOS], [SEP] and the phonemes before.
  std::vector<float> attention;
};

// `text`'s greedy pronunciation by `model`, a g2p trainer (else ConfigError), with its
// attention maps. Throws ConfigError for a bad word (g2p_word).
Pronunciation pronounce(Trainer& model, const std::string& text);

// What the lexicon lists for a word (g2p_word's form).
struct LexiconEntry {
  bool listed = false;
  bool heldout = false;  // listed and held out of training (is_heldout_word), so never trained on
  std::vector<std::vector<uint8_t>> prons;  // as listed; prons[0] is the one a run trains on
};
LexiconEntry look_up(const Lexicon& lexicon, const std::string& word);

}  // namespace wolab
