#include "sim/crowded/f6.hpp"
