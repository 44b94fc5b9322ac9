#include "sim/crowded/f3.hpp"
