#include "sim/high/high.hpp"
#include "sim/nowhere/missing.hpp"
