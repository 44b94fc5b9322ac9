#include "sim/crowded/f4.hpp"
