// `wolab pronounce`: a g2p checkpoint's pronunciation of words, beside the lexicon's.
#include "cli/commands.h"

#include <cstdint>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/args.h"
#include "cli/run_args.h"
#include "io/cmudict.h"
#include "io/messages.h"
#include "io/safetensors.h"
#include "lab/checkpoints.h"
#include "lab/config.h"
#include "run/g2p.h"
#include "run/pronounce.h"
#include "run/trainer.h"

namespace wolab::cli {

namespace {

void print_pronounce_help() {
  std::cout << kUsage << "\nwolab pronounce --model FILE [--data FILE] WORD...: loads a checkpoint of a g2p run\n"
               "(`wolab run --task g2p --save-checkpoint FILE`, or the page's) and prints each word's\n"
               "greedy pronunciation in ARPAbet and IPA, then the lexicon's pronunciations of it, saying\n"
               "whether the word was held out of training or trained on, or that it is not listed.\n"
               "  --model FILE            the checkpoint (required)\n"
               "  --data FILE             the lexicon (default: the one the build made,\n"
               "                          " WOLAB_LEXICON_TXT ")\n"
               "A word is 1 to 12 letters a-z, upper case read as lower case (docs/g2p.md). A bad flag\n"
               "or file exits 2 with one line on stderr naming it, and nothing on stdout. Each word\n"
               "that can be read is pronounced; each that cannot gets one line on stderr naming it\n"
               "and why, and then the exit status is 2.\n";
}

// A pronunciation as "K AE T /kæt/".
std::string arpabet_and_ipa(const std::vector<uint8_t>& pron) { return to_arpabet(pron) + " /" + to_ipa(pron) + "/"; }

}  // namespace

// `wolab pronounce --model FILE [--data FILE] WORD...`: a bad flag or file leaves one line on
// stderr and nothing on stdout; a bad word its own line on stderr, in the words' order, and the
// others are pronounced (exit 2 when any word was bad).
int pronounce_command(const std::vector<std::string>& args) {
  if (asks_help(args)) {
    print_pronounce_help();
    return 0;
  }
  const auto [words, flags] = operands_and_flags(args);
  std::string model_path, data_path = WOLAB_LEXICON_TXT;
  for (const auto& [flag, value] : flag_pairs(flags)) {
    if (flag == "--model") model_path = value;
    else if (flag == "--data") data_path = value;
    else throw ConfigError(flag + ": unknown flag; see wolab pronounce --help");
  }
  if (model_path.empty()) throw ConfigError("--model: missing; give a g2p checkpoint, e.g. --model run.safetensors");
  if (words.empty()) throw ConfigError("pronounce: no word; give one or more, e.g. wolab pronounce --model run.safetensors cat");
  std::vector<uint8_t> bytes;
  try {
    bytes = read_file_bytes(model_path);
  } catch (const ConfigError& e) {
    throw ConfigError(std::string("--model: ") + e.what() + "; give a checkpoint of a g2p run");
  }
  const std::shared_ptr<const G2pData> g2p = load_g2p(data_path);
  std::optional<Trainer> model;
  try {
    model.emplace(load_checkpoint(bytes, g2p));
  } catch (const ConfigError& e) {
    throw ConfigError(std::string("--model: ") + escape_controls(model_path) + ": " + e.what());
  }
  int bad = 0;
  for (const std::string& w : words) {
    Pronunciation p;
    try {
      p = pronounce(*model, w);
    } catch (const ConfigError& e) {
      std::fflush(stdout);
      std::fprintf(stderr, "wolab: %s\n", one_line(e.what()).c_str());
      ++bad;
      continue;
    }
    std::printf("%s: %s%s\n", p.word.c_str(), p.phonemes.empty() ? "(no phonemes)" : arpabet_and_ipa(p.phonemes).c_str(),
                p.eos ? "" : " (no [EOS]: cut at the model's last position)");
    if (!p.trained_length)
      std::printf("  caution: shorter than every word the model trained on (%d to %d letters): a guess, not a judgement\n",
                  kMinLetters, kMaxLetters);
    const LexiconEntry e = look_up(*g2p->lexicon, p.word);
    std::string listed;
    for (const std::vector<uint8_t>& pron : e.prons) listed += (listed.empty() ? "" : "; ") + arpabet_and_ipa(pron);
    if (!e.listed)
      std::printf("  dictionary: not listed\n");
    else
      std::printf("  dictionary (%s): %s\n", e.heldout ? "held out" : "trained on", listed.c_str());
  }
  return bad ? 2 : 0;
}

}  // namespace wolab::cli
