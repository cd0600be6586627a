#include "lab/checkpoints.h"

#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "lab/config.h"

namespace wolab {

std::vector<uint8_t> save_checkpoint(const Trainer& t, bool optimizer) {
  RunCheckpoint c = t.checkpoint(optimizer);
  c.created_by = std::string("wolab ") + kVersion;
  c.config = config_json(t.config()).dump();
  return write_run_checkpoint(std::move(c));
}

Trainer load_checkpoint(const std::vector<uint8_t>& bytes, std::shared_ptr<const G2pData> g2p) {
  const RunCheckpoint c = read_run_checkpoint(bytes);
  return Trainer::from_checkpoint(parse_run_config(c.config), c, std::move(g2p));
}

}  // namespace wolab
