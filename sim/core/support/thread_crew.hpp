// A few threads that take up one job together, again and again: the packet network's cycle, a job of
// tens to hundreds of microseconds posted every cycle. The caller posts the job, which its workers start
// at once; the caller may do other work, then joins in and waits until every worker has left it. Each
// thread is told its number, so a job can give each its own part of the work.
//
// Between jobs a worker spins for a while (jobs come back within microseconds when the network is
// busy) and then sleeps until the next post, so an idle crew costs no core. Workers never throw: a
// job's pieces are the caller's code and must not.
#pragma once
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace t3sim::core {

class ThreadCrew {
 public:
  // thread: 0 for the caller, 1 to threads() - 1 for the workers.
  using Job = void (*)(void* context, int thread);

  // `threads` counting the caller: threads - 1 workers (1: none, post() and join() only run the job).
  explicit ThreadCrew(int threads);
  ~ThreadCrew();
  ThreadCrew(const ThreadCrew&) = delete;
  ThreadCrew& operator=(const ThreadCrew&) = delete;

  int threads() const { return static_cast<int>(workers_.size()) + 1; }
  // Starts `job(context, k)` on every worker k. At most one job at a time: join() before the next post().
  void post(Job job, void* context);
  // Runs the posted job on the caller too (`job(context, 0)`), then waits until every worker has
  // returned from it. Returns whether the caller had to wait (some worker was still in the job when the
  // caller's part was done): what a caller balancing the parts by time needs.
  bool join();

 private:
  void work(int thread);

  std::vector<std::thread> workers_;
  Job job_ = nullptr;
  void* context_ = nullptr;
  std::atomic<uint64_t> posted_{0};  // jobs posted so far (a worker runs each once)
  std::atomic<int> running_{0};      // workers not yet back from the current job
  std::atomic<bool> stopping_{false};
  std::mutex sleep_mutex_;
  std::condition_variable wake_;
  int sleeping_ = 0;  // workers asleep (under sleep_mutex_)
};

}  // namespace t3sim::core
