#include "sim/crowded/f1.hpp"
