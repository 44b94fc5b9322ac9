#include "sim/crowded/f7.hpp"
