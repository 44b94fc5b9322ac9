#include "sim/crowded/f2.hpp"
