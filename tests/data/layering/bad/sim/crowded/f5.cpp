#include "sim/crowded/f5.hpp"
