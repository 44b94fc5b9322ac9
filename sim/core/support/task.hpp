// A callback without std::function: a handler object and two small integers it is handed back (what
// to do, and to which of its records). 16 bytes, copied as they are, no allocation and no type-erased
// moves or destruction: what the transports' calendars and the PE interpreter pass on their hot paths
// (a message's issue, delivery and acknowledgement), where std::function cost more than the work it
// called.
#pragma once

namespace t3sim::core {

class TaskHandler {
 public:
  virtual void run_task(int what, int id) = 0;

 protected:
  ~TaskHandler() = default;
};

struct Task {
  TaskHandler* handler = nullptr;
  int what = 0;
  int id = 0;
  void operator()() const { handler->run_task(what, id); }
};

}  // namespace t3sim::core
