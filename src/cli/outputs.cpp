#include "cli/outputs.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "io/safetensors.h"
#include "lab/config.h"

namespace wolab::cli {

std::string output_path(const std::string& path, const std::string& part) {
  size_t slash = path.find_last_of('/'), dot = path.find_last_of('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash) || dot == slash + 1)
    return path + part;
  return path.substr(0, dot) + part + path.substr(dot);
}

std::vector<std::string> results_paths(const ExperimentConfig& cfg, const std::string& out) {
  std::vector<std::string> outputs;
  if (cfg.experiment == "all")
    for (const ExperimentInfo* e : selected_experiments("all")) outputs.push_back(output_path(out, "." + e->name));
  if (outputs.empty()) outputs.push_back(out);
  return outputs;
}

std::string shard_path(const std::string& out, const ShardSpec& s) {
  return output_path(out, "-shard-" + std::to_string(s.index) + "-of-" + std::to_string(s.count));
}

void check_writable(const std::string& flag, const std::string& path) {
  struct stat st;
  if (stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
    throw ConfigError(flag + ": " + path + " is a directory; give a file path");
  std::string probe = path + ".partial";
  std::FILE* f = std::fopen(probe.c_str(), "wb");
  if (!f) throw ConfigError(flag + ": cannot write " + path + " (" + std::strerror(errno) + "); give a writable path");
  std::fclose(f);
  std::remove(probe.c_str());
}

void write_all(const std::vector<std::string>& paths, const std::function<std::string(size_t)>& text) {
  std::vector<std::string> written;
  try {
    for (size_t i = 0; i < paths.size(); ++i) {
      write_file_atomic(paths[i], text(i));
      written.push_back(paths[i]);
    }
  } catch (...) {
    for (const std::string& path : written) std::remove(path.c_str());
    throw;
  }
}

}  // namespace wolab::cli
