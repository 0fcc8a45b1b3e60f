// The ranking statistics of `soapbench compare` (measure/ranking.h) give what the report's
// (tools/sbtools/stats.py, scipy.stats.mannwhitneyu) give: the reference values below were computed
// with sbtools.stats.mann_whitney_p and sbtools.stats.median_ci on Debian 12's scipy 1.10.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <vector>

#include "measure/ranking.h"

namespace {

using sb::bench::mann_whitney_p;
using sb::bench::median_ci;
using sb::bench::ranking_words;
using V = std::vector<double>;

TEST(Ranking, MannWhitneyMatchesScipy) {
  EXPECT_NEAR(mann_whitney_p(V{1, 2, 3, 4, 5}, V{6, 7, 8, 9, 10}), 0.007936507936507936, 1e-12);
  EXPECT_NEAR(mann_whitney_p(V{1, 2, 3}, V{4, 5, 6}), 0.1, 1e-12);
  EXPECT_NEAR(mann_whitney_p(V{1.5, 2.5, 3.5, 4.5, 5.5}, V{1, 2, 3, 4, 5}), 0.6904761904761905,
              1e-12);
  // Ties: the normal approximation with tie and continuity corrections.
  EXPECT_NEAR(mann_whitney_p(V{1, 2, 2, 3, 5}, V{2, 3, 4, 4, 6}), 0.2418443040494631, 1e-12);
  // Both samples larger than 8: the normal approximation.
  EXPECT_NEAR(mann_whitney_p(V{0, 1, 2, 3, 4, 5, 6, 7, 8, 9},
                             V{3.5, 4.5, 5.5, 6.5, 7.5, 8.5, 9.5, 10.5, 11.5, 12.5}),
              0.031209012771740218, 1e-12);
  EXPECT_NEAR(mann_whitney_p(V{10, 11, 12, 13, 14, 15, 16, 17, 18}, V{1, 2, 3, 4, 5, 6, 7, 8, 9}),
              0.00041229480206169127, 1e-12);
  EXPECT_EQ(mann_whitney_p(V{5, 5, 5}, V{5, 5, 5}), 1.0);
}

TEST(Ranking, MedianIntervalMatchesTheReport) {
  auto ci = median_ci(V{3, 1, 2});
  ASSERT_TRUE(ci);
  EXPECT_EQ(ci->lo, 1);
  EXPECT_EQ(ci->hi, 3);
  EXPECT_DOUBLE_EQ(ci->coverage, 0.75);
  ci = median_ci(V{9, 1, 8, 2, 7, 3, 6, 4, 5, 10, 11, 12});
  EXPECT_EQ(ci->lo, 3);
  EXPECT_EQ(ci->hi, 10);
  EXPECT_DOUBLE_EQ(ci->coverage, 0.96142578125);
  EXPECT_FALSE(median_ci(V{1}));
}

TEST(Ranking, WordsFollowTheReportsRule) {
  const V fast = {1.0, 1.01, 1.02, 0.99, 0.98};
  const V slow = {2.0, 2.1, 1.9, 2.05, 2.02};
  const V also_slow = {2.01, 2.09, 1.95, 2.0, 2.03};
  EXPECT_THAT(ranking_words({fast, slow, also_slow}),
              testing::ElementsAre("fastest", "behind", "behind"));
  EXPECT_THAT(ranking_words({slow, also_slow}), testing::ElementsAre("tied", "tied"));
  // A tie inside a sample switches scipy to the normal approximation: p = 0.012 here, not apart.
  EXPECT_THAT(ranking_words({V{1.0, 1.01, 1.02, 0.99, 1.0}, slow}),
              testing::ElementsAre("tied", "tied"));
  // Three repetitions can never reach p <= 0.01: no ranking word beyond "tied".
  EXPECT_THAT(ranking_words({V{1, 1.01, 1.02}, V{2, 2.1, 2.2}}),
              testing::ElementsAre("tied", "tied"));
  EXPECT_THAT(ranking_words({V{1}, slow}), testing::ElementsAre("not ranked", "not ranked"));
  EXPECT_THAT(ranking_words({slow}), testing::ElementsAre("only one"));
}

}  // namespace
