// The CMUdict parser (io/cmudict.h) on any bytes: a dictionary it accepts writes out as the
// compact file and reads back as the same words, and one it refuses gets one clear line.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_check.h"
#include "io/cmudict.h"

using namespace wolab;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  Lexicon lex;
  try {
    lex = parse_cmudict(text);
  } catch (const DictionaryError& e) {
    expect_one_line(e.what());
    return 0;
  }
  for (const LexiconWord& w : lex.words) {
    fuzz_check(w.word.size() >= size_t(kMinLetters) && w.word.size() <= size_t(kMaxLetters), "a word outside the set", w.word);
    fuzz_check(!w.prons.empty() && w.prons[0].size() <= size_t(kMaxPhonemes), "a pronunciation outside the set", w.word);
  }
  try {
    const Lexicon back = parse_cmudict(write_lexicon(lex, "fuzz"));
    fuzz_check(back.words.size() == lex.words.size(), "the compact file lost words");
    for (size_t i = 0; i < lex.words.size(); i++)
      fuzz_check(back.words[i].word == lex.words[i].word && back.words[i].prons == lex.words[i].prons,
                 "the compact file reads back differently", lex.words[i].word);
  } catch (const DictionaryError& e) {
    fuzz_check(false, "the compact file of an accepted dictionary is refused", e.what());
  }
  return 0;
}
