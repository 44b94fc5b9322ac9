#include "sim/core/support/seeded_permutation.hpp"

#include <random>

namespace t3sim::core {

std::vector<int> seeded_permutation(int n, uint64_t seed) {
  std::vector<int> v(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) v[static_cast<size_t>(i)] = i;
  std::mt19937_64 rng(seed);
  for (size_t i = v.size(); i-- > 1;) {
    const uint64_t range = i + 1;
    const uint64_t limit = UINT64_MAX - UINT64_MAX % range;
    uint64_t r = rng();
    while (r >= limit) r = rng();
    std::swap(v[i], v[static_cast<size_t>(r % range)]);
  }
  return v;
}

}  // namespace t3sim::core
