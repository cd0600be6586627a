// The one mean and spread (lab/spread.h, docs/results.md, docs/claims.md): none for no value,
// no sd for one, the sample sd (n - 1) from two on; the population sd only for whole series.
#include <gtest/gtest.h>

#include <cmath>

#include "lab/spread.h"

namespace wolab {
namespace {

TEST(Spread, NoValueHasNone) { EXPECT_FALSE(spread_of({}).has_value()); }

TEST(Spread, OneValueHasNoSd) {
  const Spread s = *spread_of({0.4});
  EXPECT_EQ(s.n, 1u);
  EXPECT_EQ(s.mean, 0.4);
  EXPECT_EQ(s.min, 0.4);
  EXPECT_EQ(s.max, 0.4);
  EXPECT_FALSE(s.sd.has_value());  // one seed has no spread, not a spread of 0
  EXPECT_EQ(s.population_sd, 0.0);
}

TEST(Spread, TwoValuesHaveTheSampleSd) {
  const Spread s = *spread_of({1.0, 3.0});
  EXPECT_EQ(s.n, 2u);
  EXPECT_EQ(s.mean, 2.0);
  EXPECT_EQ(s.min, 1.0);
  EXPECT_EQ(s.max, 3.0);
  ASSERT_TRUE(s.sd.has_value());
  EXPECT_DOUBLE_EQ(*s.sd, std::sqrt(2.0));  // squared deviations 2 over n - 1 = 1
  EXPECT_DOUBLE_EQ(s.population_sd, 1.0);   // 2 over n = 2
}

}  // namespace
}  // namespace wolab
