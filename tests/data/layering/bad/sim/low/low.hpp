// Climbs: low may not include high, which links low.
#pragma once
#include "sim/high/high.hpp"
