// A header reaching a PRIVATE library's header, and SimGrid outside sim/engine.
#pragma once
#include <simgrid/s4u.hpp>
#include "sim/crowded/f0.hpp"
