// Pronouncing one word (run/pronounce.h): a typed word checked and folded, or refused with one
// line naming what is wrong; a trained model's pronunciation of each probe word scores as the
// run's own held-out scoring does; the attention maps are the rows of the positions that
// predicted each phoneme, restricted to the letters; the lexicon's entry and split.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "helpers.h"
#include "run/pronounce.h"

namespace wolab {
namespace {

std::string refusal(const std::string& text) {
  try {
    g2p_word(text);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "accepted";
}

TEST(PronounceWord, FoldsCaseOrSaysWhatIsWrong) {
  EXPECT_EQ(g2p_word("Cat"), "cat");
  EXPECT_EQ(g2p_word("a"), "a");
  EXPECT_EQ(g2p_word("ABCDEFGHIJKL"), "abcdefghijkl");
  EXPECT_EQ(refusal(""), "word \"\": empty; give 1 to 12 letters a-z");
  EXPECT_EQ(refusal("don't"), "word \"don't\": \"'\" is not a letter a-z; give 1 to 12 letters a-z");
  EXPECT_EQ(refusal("caf\xc3\xa9"), "word \"caf\xc3\xa9\": \"\xc3\xa9\" is not a letter a-z; give 1 to 12 letters a-z");
  EXPECT_EQ(refusal("b4"), "word \"b4\": \"4\" is not a letter a-z; give 1 to 12 letters a-z");
  EXPECT_EQ(refusal("two words"), "word \"two words\": \" \" is not a letter a-z; give 1 to 12 letters a-z");
  EXPECT_EQ(refusal("a\nb"), "word \"a\\nb\": \"\\n\" is not a letter a-z; give 1 to 12 letters a-z");
  EXPECT_EQ(refusal("abcdefghijklm"), "word \"abcdefghijklm\": 13 letters, over the 12 a model reads; give 1 to 12 letters a-z");
}

TEST(PronounceWord, ArpabetAndIpa) {
  const std::vector<uint8_t> cat = {19, 1, 30};  // K AE T
  EXPECT_EQ(to_arpabet(cat), "K AE T");
  EXPECT_EQ(to_ipa(cat), "kæt");
  EXPECT_EQ(to_arpabet({19, kNotPhoneme}), "K ?");
  EXPECT_EQ(to_arpabet({}), "");
}

// The probe words, pronounced one at a time, give the run's own held-out word error rate and
// phoneme error rate, which g2p_scores computes decoding them 16 at a time.
TEST(PronounceModel, OneWordAtATimeScoresAsTheRunDoes) {
  Trainer t(g2p_config(), small_lexicon());
  t.step(30);
  const Lexicon& lex = *small_lexicon()->lexicon;
  const G2pScores s = t.g2p_scores(false);
  int wrong = 0, edits = 0, reference = 0;
  for (int i = 0; i < s.words; i++) {
    const LexiconWord& w = lex.words[small_lexicon()->heldout[i]];
    const Pronunciation p = pronounce(t, w.word);
    const PronunciationScore score = score_pronunciation(p.phonemes, w);
    wrong += score.edits > 0 || !p.eos;
    edits += score.edits + !p.eos;
    reference += score.reference;
  }
  EXPECT_FLOAT_EQ(s.wer, float(wrong) / s.words);
  EXPECT_FLOAT_EQ(s.per, float(double(edits) / reference));
  EXPECT_EQ(pronounce(t, "STRENGTH").phonemes, pronounce(t, "strength").phonemes);
}

TEST(PronounceModel, AttentionOfEachPhonemeOverTheLetters) {
  Trainer t(g2p_config(), small_lexicon());
  t.step(30);
  const Pronunciation p = pronounce(t, "Strength");
  EXPECT_EQ(p.word, "strength");
  ASSERT_FALSE(p.phonemes.empty());
  const int L = 2, H = 4, rows = static_cast<int>(p.phonemes.size()), letters = 8;
  ASSERT_EQ(p.layers, L);
  ASSERT_EQ(p.heads, H);
  ASSERT_EQ(p.attention.size(), static_cast<size_t>(L * H * rows * letters));
  // the same rows of the whole sequence's maps: [BOS] letters [SEP] and the predictions
  const std::vector<G2pGuess> guess = t.g2p_decode({"strength"});
  std::vector<int> seq{kG2pBos};
  for (char c : std::string("strength")) seq.push_back(kLetterToken + (c - 'a'));
  seq.push_back(kG2pSep);
  seq.insert(seq.end(), guess[0].tokens.begin(), guess[0].tokens.end());
  const int T = static_cast<int>(seq.size());
  const std::vector<float> maps = t.attention_maps(seq);
  ASSERT_EQ(maps.size(), static_cast<size_t>(L * H * T * T));
  for (int lh = 0; lh < L * H; lh++)
    for (int r = 0; r < rows; r++) {
      const float* full = &maps[(static_cast<size_t>(lh) * T + 1 + letters + r) * T];
      float sum = 0, letter_sum = 0;
      for (int j = 0; j < T; j++) sum += full[j];
      for (int j = 0; j < letters; j++) {
        const float a = p.attention[(static_cast<size_t>(lh) * rows + r) * letters + j];
        EXPECT_NEAR(a, full[1 + j], 1e-6);  // one position more changes the rounding
        letter_sum += a;
      }
      EXPECT_NEAR(sum, 1.0f, 1e-5);  // a softmax row over positions 0..sep + r
      EXPECT_LE(letter_sum, 1.0f + 1e-5f);
    }
  // a held-out example's maps are the trainer's own attention() of it (causal: the padding after
  // it changes no row of its own)
  const std::vector<int>& in = t.heldout_inputs();
  const int probed = std::min(40, static_cast<int>(small_lexicon()->heldout.size()));  // its 34
  const int padded = static_cast<int>(in.size()) / probed;
  const std::vector<int> first(in.begin(), in.begin() + 6);
  const std::vector<float> six = t.attention_maps(first);
  const std::vector<float> att = t.attention(1, 2, 0);  // (padded, padded)
  for (int i = 0; i < 6; i++)
    for (int j = 0; j < 6; j++) EXPECT_NEAR(six[((1 * H + 2) * 6 + i) * 6 + j], att[i * padded + j], 1e-6);
}

TEST(PronounceModel, RefusesAModelOfAnotherTaskAndABadWord) {
  Trainer copy(tiny());
  try {
    pronounce(copy, "cat");
    FAIL() << "a copy model pronounced a word";
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()), "the model is not a g2p model: its task is copy; give a model trained on the task g2p");
  }
  Trainer t(g2p_config(), small_lexicon());
  EXPECT_THROW(pronounce(t, "x-ray"), ConfigError);
  EXPECT_THROW(t.g2p_decode({"X"}), std::invalid_argument);
  EXPECT_THROW(t.attention_maps(std::vector<int>(29, 0)), std::invalid_argument);
}

// Unsanitized: it reads the published dictionary (helpers.h, expect_unsanitized_tag).
TEST(PronounceLexicon, ListedHeldOutOrTrainedOnUnsanitized) {
  const G2pData& data = *published_data();
  const LexiconWord& held = data.lexicon->words[data.heldout[0]];
  const LexiconWord& trained = data.lexicon->words[data.train[0]];
  const LexiconEntry h = look_up(*data.lexicon, held.word), tr = look_up(*data.lexicon, trained.word);
  EXPECT_TRUE(h.listed);
  EXPECT_TRUE(h.heldout);
  EXPECT_EQ(h.prons, held.prons);
  EXPECT_TRUE(tr.listed);
  EXPECT_FALSE(tr.heldout);
  EXPECT_EQ(tr.prons, trained.prons);
  const LexiconEntry read = look_up(*data.lexicon, "read");  // listed twice: R EH D and R IY D
  ASSERT_EQ(read.prons.size(), 2u);
  EXPECT_EQ(to_arpabet(read.prons[0]), "R EH D");
  EXPECT_FALSE(look_up(*data.lexicon, "qzxv").listed);
}

}  // namespace
}  // namespace wolab
