// What sim/core throws when the model refuses what it was given (a placement that does not fit, a
// workload the machine cannot run, a pair no route joins, messages that do not match) or cannot finish
// a run (a deadlock). The message is for the user and names what is wrong; callers that know where the
// input came from (the cli, the file readers) catch it and add the place. Subclasses carry more.
#pragma once
#include <stdexcept>

namespace t3sim::core {

class ModelError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace t3sim::core
