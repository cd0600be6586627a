#include "run/g2p.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace wolab {

uint64_t fnv1a64(const std::string& text) {
  uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a's 64-bit offset basis and prime
  for (unsigned char c : text) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

namespace {

// The model input length of `w`'s first pronunciation: [BOS] letters [SEP] phonemes.
int input_length(const LexiconWord& w) { return static_cast<int>(w.word.size() + w.prons[0].size()) + 2; }

}  // namespace

G2pData split_lexicon(std::shared_ptr<const Lexicon> lexicon) {
  G2pData data;
  for (int i = 0; i < static_cast<int>(lexicon->words.size()); i++)
    (is_heldout_word(lexicon->words[i].word) ? data.heldout : data.train).push_back(i);
  const auto length = [&](int i) { return input_length(lexicon->words[i]); };
  std::stable_sort(data.train.begin(), data.train.end(), [&](int a, int b) { return length(a) < length(b); });
  const int n = static_cast<int>(data.train.size());
  for (int begin = 0, end = 0; end < n;) {
    const int len = length(data.train[end]);
    while (end < n && length(data.train[end]) == len) end++;  // every word of this length
    if (end - begin >= kMinG2pBucket || end == n) {
      data.bucket_ends.push_back(end);
      begin = end;
    }
  }
  const size_t buckets = data.bucket_ends.size();  // a last bucket under the minimum joins the one before
  if (buckets > 1 && data.bucket_ends[buckets - 1] - data.bucket_ends[buckets - 2] < kMinG2pBucket)
    data.bucket_ends.erase(data.bucket_ends.end() - 2);
  std::vector<std::pair<uint64_t, int>> by_hash;
  for (int i : data.heldout) by_hash.push_back({fnv1a64(lexicon->words[i].word), i});
  std::sort(by_hash.begin(), by_hash.end());
  for (size_t k = 0; k < by_hash.size(); k++) data.heldout[k] = by_hash[k].second;
  data.lexicon = std::move(lexicon);
  return data;
}

Batch alloc_g2p_batch(int size) {
  Batch batch;
  batch.size = size;
  batch.seq_len = kG2pSeqLen;
  batch.input.resize(static_cast<size_t>(size) * kG2pSeqLen);
  batch.target.resize(batch.input.size());
  return batch;
}

namespace {

// Writes `w` into one row of T ≥ input_length(w) positions: in (T), tg (T).
void encode(int* in, int* tg, const LexiconWord& w, int T) {
  int seq[kG2pSeqLen + 1];  // [BOS] letters [SEP] phonemes [EOS]
  int n = 0;
  seq[n++] = kG2pBos;
  for (char c : w.word) seq[n++] = kLetterToken + (c - 'a');
  const int sep = n;
  seq[n++] = kG2pSep;
  for (uint8_t p : w.prons[0]) seq[n++] = kPhonemeToken + p;
  seq[n++] = kG2pEos;
  for (int t = 0; t < T; t++) {
    const bool real = t + 1 < n;
    in[t] = real ? seq[t] : kG2pEos;
    tg[t] = real && t >= sep ? seq[t + 1] : -1;
  }
}

void fill(Batch& batch, const Lexicon& lexicon, const int* indices) {
  int T = 1;
  for (int b = 0; b < batch.size; b++) T = std::max(T, input_length(lexicon.words[indices[b]]));
  batch.seq_len = T;
  for (int b = 0; b < batch.size; b++)
    encode(&batch.input[b * T], &batch.target[b * T], lexicon.words[indices[b]], T);
}

}  // namespace

void fill_g2p_batch(Batch& batch, const G2pData& data, Rng& rng) {
  int picks[kMaxG2pBatch];
  if (batch.size > kMaxG2pBatch) throw std::invalid_argument("fill_g2p_batch: batch over 1024");
  // the bucket of a word drawn uniformly: each bucket with probability size / train.size()
  const int first = rng.below(static_cast<int>(data.train.size()));
  const auto end = std::upper_bound(data.bucket_ends.begin(), data.bucket_ends.end(), first);
  const int begin = end == data.bucket_ends.begin() ? 0 : *(end - 1);
  for (int b = 0; b < batch.size; b++) picks[b] = data.train[begin + rng.below(*end - begin)];
  fill(batch, *data.lexicon, picks);
}

Batch g2p_batch(const Lexicon& lexicon, const std::vector<int>& indices, int first, int count) {
  Batch batch = alloc_g2p_batch(count);
  fill(batch, lexicon, indices.data() + first);
  batch.input.resize(static_cast<size_t>(count) * batch.seq_len);
  batch.target.resize(batch.input.size());
  return batch;
}

std::vector<uint8_t> guess_phonemes(const std::vector<int>& tokens) {
  std::vector<uint8_t> out;
  for (int t : tokens) {
    const bool phoneme = t >= kPhonemeToken && t < kPhonemeToken + kPhonemeCount;
    out.push_back(phoneme ? static_cast<uint8_t>(t - kPhonemeToken) : kNotPhoneme);
  }
  return out;
}

int edit_distance(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b) {
  std::vector<int> row(b.size() + 1);  // distances of a[0..i) to b[0..j)
  for (size_t j = 0; j <= b.size(); j++) row[j] = static_cast<int>(j);
  for (size_t i = 1; i <= a.size(); i++) {
    int diagonal = row[0];
    row[0] = static_cast<int>(i);
    for (size_t j = 1; j <= b.size(); j++) {
      const int up = row[j];
      row[j] = std::min({up + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
      diagonal = up;
    }
  }
  return row[b.size()];
}

PronunciationScore score_pronunciation(const std::vector<uint8_t>& guess, const LexiconWord& w) {
  PronunciationScore best{-1, 0};
  for (const std::vector<uint8_t>& p : w.prons) {
    const int d = edit_distance(guess, p);
    if (best.edits < 0 || d < best.edits) best = {d, static_cast<int>(p.size())};
  }
  return best;
}

}  // namespace wolab
