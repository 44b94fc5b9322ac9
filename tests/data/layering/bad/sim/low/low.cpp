#include "sim/low/low.hpp"
#include <yaml-cpp/yaml.h>
