// Makes the compact lexicon that the CLI and the page read (docs/g2p.md): CMUdict's dict.txt
// through the one parser (io/cmudict.h), written back as the default word set only, stress
// removed, with its word count in its header. Run by the build:
//   wolab_lexicon DICT.TXT OUT.TXT "SOURCE LINE"
#include <cstdio>
#include <fstream>
#include <string>

#include "io/cmudict.h"

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: wolab_lexicon DICT.TXT OUT.TXT \"SOURCE LINE\"\n");
    return 2;
  }
  try {
    const wolab::Lexicon lexicon = wolab::read_cmudict_file(argv[1]);
    const std::string text = wolab::write_lexicon(lexicon, argv[3]);
    std::ofstream out(argv[2], std::ios::binary);
    out << text;
    if (!out.flush()) {
      std::fprintf(stderr, "wolab_lexicon: cannot write %s\n", argv[2]);
      return 1;
    }
    std::printf("wolab_lexicon: %zu words, %zu pronunciations -> %s\n", lexicon.words.size(),
                lexicon.pronunciations(), argv[2]);
  } catch (const wolab::DictionaryError& e) {
    std::fprintf(stderr, "wolab_lexicon: %s\n", e.what());
    return 2;
  }
  return 0;
}
