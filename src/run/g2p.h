// The task g2p: a word's letters in, its pronunciation out, from the CMUdict lexicon
// (io/cmudict.h, docs/g2p.md). A sequence is [BOS] l1..ln [SEP] p1..pm [EOS]; as in the toy
// tasks the model reads it without its last token, and only the positions from [SEP] on carry
// a target (the phonemes, then EOS). Examples differ in length: a batch is padded at the end
// to its longest example, pads have target -1 (no loss, metric or gradient), and since
// attention is causal a real token never sees a pad.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "io/cmudict.h"
#include "nn/rng.h"
#include "run/tasks.h"

namespace wolab {

// Tokens: letters a-z, then the phonemes (kPhonemes' order), then the three marks.
inline constexpr int kLetterToken = 0;
inline constexpr int kPhonemeToken = 26;
inline constexpr int kG2pBos = kPhonemeToken + kPhonemeCount;
inline constexpr int kG2pSep = kG2pBos + 1;
inline constexpr int kG2pEos = kG2pBos + 2;  // also the input of a pad position
inline constexpr int kG2pVocab = kG2pBos + 3;
// Model input positions of the longest example: [BOS], letters, [SEP], phonemes.
inline constexpr int kG2pSeqLen = kMaxLetters + kMaxPhonemes + 2;

// 64-bit FNV-1a of `text`: a hash written out here, so the split is the same in every build
// and on every platform (std::hash is neither).
uint64_t fnv1a64(const std::string& text);
// Whether `word` is held out: about 1 word in 20 (kHeldoutPerMille of every thousand hash
// values), the same for every run and seed.
inline constexpr uint64_t kHeldoutPerMille = 50;
inline bool is_heldout_word(const std::string& word) { return fnv1a64(word) % 1000 < kHeldoutPerMille; }

// A bucket of training words holds at least this many (docs/g2p.md): a batch drawn from it
// repeats few words, while its words' lengths differ by little.
inline constexpr int kMinG2pBucket = 4096;

// The lexicon and its fixed split: indices into lexicon->words.
struct G2pData {
  std::shared_ptr<const Lexicon> lexicon;
  // By input length (letters + phonemes + 2), then the lexicon's order, and cut into buckets of
  // consecutive lengths: bucket k is train[bucket_ends[k - 1] .. bucket_ends[k]) (from 0 for
  // k = 0). Lengths join the bucket before them, shortest first, until it holds kMinG2pBucket
  // words; a last bucket smaller than that joins the one before it.
  std::vector<int> train;
  std::vector<int> bucket_ends;
  // By hash, then index: its first N are the fixed probe subset (task.heldout), spread over the
  // alphabet rather than the words that start with "a".
  std::vector<int> heldout;
};
G2pData split_lexicon(std::shared_ptr<const Lexicon> lexicon);

// Room for `size` examples of kG2pSeqLen positions, not yet filled.
Batch alloc_g2p_batch(int size);
inline constexpr int kMaxG2pBatch = 1024;
// Fills `batch` (at most kMaxG2pBatch examples, train.batch's limit) with batch.size training
// words from `rng`, each with its first pronunciation, padded to the longest: batch.seq_len is
// that length and the layout (size, seq_len). The words come from one bucket, chosen with
// probability proportional to its size, and are drawn uniformly from it, so each slot of the
// batch is every training word with the same chance, 1 / train.size().
void fill_g2p_batch(Batch& batch, const G2pData& data, Rng& rng);
// The words words[first..first+count) of lexicon (indices), in order, as fill_g2p_batch lays
// them out.
Batch g2p_batch(const Lexicon& lexicon, const std::vector<int>& indices, int first, int count);

// ---- Scoring a greedy pronunciation

// A decoded token that is not a phoneme (a letter or mark before EOS): it matches nothing.
inline constexpr uint8_t kNotPhoneme = 0xff;

// One word decoded greedily (Trainer::g2p_decode): the tokens predicted after its [SEP] and
// before EOS, and whether EOS came before the model's last position.
struct G2pGuess {
  std::vector<int> tokens;
  bool eos = false;
};
// `tokens` as phoneme ids, kNotPhoneme for a letter or mark.
std::vector<uint8_t> guess_phonemes(const std::vector<int>& tokens);

// Levenshtein distance: insertions, deletions and substitutions, each 1.
int edit_distance(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b);

struct PronunciationScore {
  int edits = 0;       // to the closest listed pronunciation
  int reference = 0;   // that pronunciation's phonemes
};
// `guess` against the closest of `w`'s pronunciations: the fewest edits, the first listed on a tie.
PronunciationScore score_pronunciation(const std::vector<uint8_t>& guess, const LexiconWord& w);

// Held-out metrics of a g2p run at one step, over `words` held-out words.
struct G2pScores {
  int step = 0;
  int words = 0;
  float per = 0;        // phoneme error rate: edits / reference phonemes, summed over the words
  float wer = 0;        // word error rate: share of words whose guess is no listed pronunciation
  float token_acc = 0;  // teacher forced: share of answer tokens (phonemes and EOS) right
  float loss = 0;       // teacher forced: mean over answer tokens
};

}  // namespace wolab
