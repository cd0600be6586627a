#include "io/cmudict.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <unordered_set>

namespace wolab {

const std::array<const char*, kPhonemeCount> kPhonemes = {
    "AA", "AE", "AH", "AO", "AW", "AY", "B",  "CH", "D",  "DH", "EH", "ER", "EY",
    "F",  "G",  "HH", "IH", "IY", "JH", "K",  "L",  "M",  "N",  "NG", "OW", "OY",
    "P",  "R",  "S",  "SH", "T",  "TH", "UH", "UW", "V",  "W",  "Y",  "Z",  "ZH"};

const std::array<const char*, kPhonemeCount> kPhonemeIpa = {
    "ɑ", "æ", "ʌ", "ɔ", "aʊ", "aɪ", "b", "tʃ", "d", "ð", "ɛ", "ɝ", "eɪ",
    "f", "ɡ", "h", "ɪ", "i",  "dʒ", "k", "l", "m",  "n", "ŋ", "oʊ", "ɔɪ",
    "p", "ɹ", "s", "ʃ", "t",  "θ",  "ʊ", "u", "v",  "w", "j", "z",  "ʒ"};

std::string to_ipa(const std::vector<uint8_t>& pron) {
  std::string out;
  for (uint8_t p : pron) out += p < kPhonemeCount ? kPhonemeIpa[p] : "?";
  return out;
}

std::string to_arpabet(const std::vector<uint8_t>& pron) {
  std::string out;
  for (uint8_t p : pron) {
    if (!out.empty()) out += ' ';
    out += p < kPhonemeCount ? kPhonemes[p] : "?";
  }
  return out;
}

size_t Lexicon::pronunciations() const {
  size_t n = 0;
  for (const LexiconWord& w : words) n += w.prons.size();
  return n;
}

namespace {

constexpr char kWordsHeader[] = ";;; words: ";
// The longest line worth quoting in a message: a corrupt file may hold one line of megabytes.
constexpr size_t kQuoteMax = 40;

std::string quote_short(const std::string& text) {
  return in_quotes(text.size() > kQuoteMax ? text.substr(0, kQuoteMax) + "..." : text);
}

bool is_vowel(const char* p) { return std::strchr("AEIOU", p[0]) != nullptr; }

// The id of phoneme `token` (stress digit dropped), or -1.
int phoneme_id(const std::string& token) {
  std::string base = token;
  if (!base.empty() && base.back() >= '0' && base.back() <= '2') base.pop_back();
  for (int i = 0; i < kPhonemeCount; i++)
    if (base == kPhonemes[i]) return base.size() == token.size() || is_vowel(kPhonemes[i]) ? i : -1;
  return -1;
}

// The whitespace-separated fields of `line`, as `std::istringstream >>` splits them (without
// its per-token locale cost, which made reading the dictionary in wasm take seconds).
std::vector<std::string> fields_of(const std::string& line) {
  std::vector<std::string> fields;
  const char* space = " \t\n\v\f\r";
  size_t start = line.find_first_not_of(space);
  while (start != std::string::npos) {
    const size_t end = line.find_first_of(space, start);
    fields.push_back(line.substr(start, end - start));
    start = end == std::string::npos ? end : line.find_first_not_of(space, end);
  }
  return fields;
}

// `head` split into its word and whether it names an alternate, `WORD(n)`; false when the
// parentheses are malformed.
bool split_head(const std::string& head, std::string& word, bool& alternate) {
  alternate = false;
  word = head;
  const size_t open = head.find('(');
  if (open == std::string::npos) return head.find(')') == std::string::npos;
  if (open == 0 || head.back() != ')' || open + 2 >= head.size()) return false;
  for (size_t i = open + 1; i + 1 < head.size(); i++)
    if (head[i] < '0' || head[i] > '9') return false;
  word = head.substr(0, open);
  alternate = true;
  return word.find(')') == std::string::npos;
}

// `word` in lower case when it is kMinLetters..kMaxLetters letters a-z in either case, else "".
std::string word_in_set(const std::string& word) {
  if (word.size() < size_t(kMinLetters) || word.size() > size_t(kMaxLetters)) return "";
  std::string lower = word;
  for (char& c : lower) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c < 'a' || c > 'z') return "";
  }
  return lower;
}

}  // namespace

Lexicon parse_cmudict(const std::string& text) {
  Lexicon lex;
  std::unordered_set<std::string> heads;  // every base word seen, in the set or not
  std::string last_base;                  // the base word of the previous entry
  bool last_kept = false;                 // whether that word is in lex.words
  long long declared = -1;                // `;;; words: N`, when the file says
  size_t line_no = 0, pos = 0;
  auto fail = [&](const std::string& what) {
    throw DictionaryError("dictionary line " + std::to_string(line_no) + ": " + what);
  };
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(pos, end - pos);
    pos = end + 1;
    line_no++;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    if (line.rfind(";;;", 0) == 0) {
      if (line.rfind(kWordsHeader, 0) == 0) {
        const std::string n = line.substr(sizeof kWordsHeader - 1);
        if (n.empty() || n.size() > 9 || n.find_first_not_of("0123456789") != std::string::npos)
          fail("the words header " + quote_short(line) + " is not a count");
        declared = std::stoll(n);
      }
      continue;
    }
    const std::vector<std::string> fields = fields_of(line);
    if (line[0] == ' ' || line[0] == '\t') fail("an entry must start with its word, got " + quote_short(line));
    const std::string head = fields.empty() ? "" : fields[0];  // a line of \v or \f alone has none
    std::vector<uint8_t> pron;
    for (size_t f = 1; f < fields.size(); f++) {
      const std::string& token = fields[f];
      const int id = phoneme_id(token);
      if (id < 0) fail("unknown phoneme " + quote_short(token) + " in " + quote_short(line));
      pron.push_back(static_cast<uint8_t>(id));
    }
    if (pron.empty()) fail("the entry " + quote_short(head) + " has no phonemes");
    std::string base;
    bool alternate;
    if (!split_head(head, base, alternate)) fail("malformed word " + quote_short(head));
    if (alternate) {
      if (base != last_base) fail("the alternate " + quote_short(head) + " does not follow " + quote_short(base));
      if (!last_kept) continue;
    } else {
      // Listed twice in any case: the word set lowercases every word.
      std::string folded = base;
      std::transform(folded.begin(), folded.end(), folded.begin(), [](unsigned char c) { return char(std::tolower(c)); });
      if (!heads.insert(folded).second) fail("the word " + quote_short(base) + " is listed twice");
      last_base = base;
      const std::string word = word_in_set(base);
      last_kept = !word.empty();
      if (!last_kept) {
        lex.skipped_letters++;
        continue;
      }
      lex.words.push_back({word, {}});
    }
    if (pron.size() > size_t(kMaxPhonemes)) {
      lex.skipped_long++;
      continue;
    }
    std::vector<std::vector<uint8_t>>& prons = lex.words.back().prons;
    if (std::find(prons.begin(), prons.end(), pron) != prons.end())
      lex.duplicates++;
    else
      prons.push_back(std::move(pron));
  }
  // A word whose every pronunciation was too long has none left: it is not in the set.
  lex.words.erase(std::remove_if(lex.words.begin(), lex.words.end(),
                                 [](const LexiconWord& w) { return w.prons.empty(); }),
                  lex.words.end());
  if (declared >= 0 && declared != static_cast<long long>(lex.words.size()))
    throw DictionaryError("dictionary: its header says " + std::to_string(declared) + " words but " +
                          std::to_string(lex.words.size()) + " were read; the file is truncated or corrupt");
  if (lex.words.empty()) throw DictionaryError("dictionary: no word of 2 to 12 letters a-z in it");
  return lex;
}

Lexicon read_cmudict_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw DictionaryError("cannot read the dictionary " + quote_short(path) + ": " + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw DictionaryError("cannot read the dictionary " + quote_short(path));
  return parse_cmudict(text.str());
}

std::string write_lexicon(const Lexicon& lexicon, const std::string& source) {
  std::string out = ";;; " + escape_controls(source) + "\n" + kWordsHeader +
                    std::to_string(lexicon.words.size()) + "\n";
  for (const LexiconWord& w : lexicon.words)
    for (size_t i = 0; i < w.prons.size(); i++) {
      std::string head = w.word;
      std::transform(head.begin(), head.end(), head.begin(), [](char c) { return char(c - 'a' + 'A'); });
      if (i > 0) head += "(" + std::to_string(i) + ")";
      out += head + " ";
      for (uint8_t p : w.prons[i]) (out += ' ') += kPhonemes[p];
      out += '\n';
    }
  return out;
}

}  // namespace wolab
