// The one seeded shuffle of the project (random placements, random permutations, Latin-hypercube strata).
#pragma once
#include <cstdint>
#include <vector>

namespace t3sim::core {

// 0 .. n-1 in a seeded random order, the same on every platform: Fisher-Yates on std::mt19937_64 (whose
// output the C++ standard fixes) with rejection sampling (std::uniform_int_distribution varies by library).
std::vector<int> seeded_permutation(int n, uint64_t seed);

}  // namespace t3sim::core
