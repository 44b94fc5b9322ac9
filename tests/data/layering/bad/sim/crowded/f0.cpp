#include "sim/crowded/f0.hpp"
