// The core's layers point down only (docs/layout.md, src/config/run_config.h): every
// `#include "folder/..."` in src/ names a folder its own may build on, and the numeric half and
// the bottom layer include no JSON. Reads the sources from WOLAB_SOURCE_DIR; native only (the
// wasm suite leaves this file out: the sources are the same).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace wolab {
namespace {

namespace fs = std::filesystem;

// Each folder of src/ and the folders it may include besides itself, bottom first.
const std::map<std::string, std::set<std::string>> kLayers = {
    {"config", {}},                                      // a run's settings and status, plain types
    {"nn", {"config"}},                                  // the network's maths
    {"io", {"config"}},                                  // file formats and messages
    {"run", {"config", "nn", "io"}},                     // one training run
    {"lab", {"config", "nn", "io", "run"}},              // settings table, plan, results
    {"analysis", {"config", "nn", "io", "run", "lab"}},  // the verdicts on results
    {"cli", {"config", "nn", "io", "run", "lab", "analysis"}},
};
// No JSON below the JSON half: the bottom layer and the numeric half (CMakeLists.txt).
const std::set<std::string> kWithoutJson = {"config", "nn", "run"};

// The project folder an include line names ("run" for `#include "run/trainer.h"`), or "".
std::string included_folder(const std::string& line) {
  const std::string prefix = "#include \"";
  if (line.compare(0, prefix.size(), prefix) != 0) return "";
  const size_t slash = line.find('/', prefix.size());
  return slash == std::string::npos ? "" : line.substr(prefix.size(), slash - prefix.size());
}

// "file:line: text" for each include of `path` (a file of src/<folder>/) that its layer forbids.
std::vector<std::string> violations(const std::string& folder, const fs::path& path) {
  std::vector<std::string> out;
  const std::set<std::string>& allowed = kLayers.at(folder);
  std::ifstream in(path);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    const std::string to = included_folder(line);
    const bool upward = !to.empty() && to != folder && kLayers.count(to) && !allowed.count(to);
    const bool json = kWithoutJson.count(folder) && line.find("#include <nlohmann/") == 0;
    if (upward || json) out.push_back(path.string() + ":" + std::to_string(n) + ": " + line);
  }
  return out;
}

TEST(Layers, EveryIncludePointsDown) {
  const fs::path src = WOLAB_SOURCE_DIR;
  ASSERT_TRUE(fs::is_directory(src)) << src;
  std::vector<std::string> found;
  int files = 0;
  for (const fs::directory_entry& dir : fs::directory_iterator(src)) {
    if (!dir.is_directory()) continue;
    const std::string folder = dir.path().filename().string();
    ASSERT_TRUE(kLayers.count(folder)) << "src/" << folder << "/ has no layer: add it to kLayers";
    for (const fs::directory_entry& file : fs::directory_iterator(dir.path())) {
      const std::vector<std::string> v = violations(folder, file.path());
      found.insert(found.end(), v.begin(), v.end());
      ++files;
    }
  }
  EXPECT_GT(files, 50);  // the sources were found
  for (const std::string& f : found) ADD_FAILURE() << "an include against the layers: " << f;
}

// The rule itself: what the check above would report.
TEST(Layers, AnUpwardIncludeOrJsonBelowTheJsonHalfIsReported) {
  const fs::path file = fs::path(::testing::TempDir()) / ("wolab_layers_" + std::to_string(::getpid()) + ".h");
  std::ofstream(file) << "#include \"config/run_config.h\"\n#include \"run/trainer.h\"\n#include <nlohmann/json.hpp>\n";
  EXPECT_TRUE(violations("run", file).size() == 1 && violations("run", file)[0].find(":3: ") != std::string::npos);
  EXPECT_EQ(violations("nn", file).size(), 2u);   // run/ above nn/, and JSON
  EXPECT_EQ(violations("io", file).size(), 1u);   // run/ above io/; io reads JSON
  EXPECT_EQ(violations("lab", file).size(), 0u);  // lab/ builds on run/ and reads JSON
  fs::remove(file);
}

}  // namespace
}  // namespace wolab
