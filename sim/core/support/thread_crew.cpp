#include "sim/core/support/thread_crew.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define T3SIM_CPU_RELAX() _mm_pause()
#else
#define T3SIM_CPU_RELAX() std::this_thread::yield()
#endif

namespace t3sim::core {

namespace {
// Looks at the job counter before a worker sleeps: the first kSpinsBeforeYield with pause instructions,
// then each after a yield; some tens of milliseconds in all, longer than the gap between two busy
// cycles (the caller's own share, injection and interpreter), while a wake from sleep costs tens of
// microseconds on a VM.
constexpr int kSpinsBeforeSleep = 50000;
// Spins before a thread waiting for another yields its core at each further look.
constexpr int kSpinsBeforeYield = 2000;
}  // namespace

ThreadCrew::ThreadCrew(int threads) {
  for (int k = 1; k < threads; ++k) workers_.emplace_back([this, k] { work(k); });
}

ThreadCrew::~ThreadCrew() {
  {
    std::lock_guard<std::mutex> lock(sleep_mutex_);
    stopping_.store(true, std::memory_order_release);
  }
  wake_.notify_all();
  for (std::thread& t : workers_) t.join();
}

void ThreadCrew::post(Job job, void* context) {
  job_ = job;
  context_ = context;
  if (workers_.empty()) return;
  running_.store(static_cast<int>(workers_.size()), std::memory_order_relaxed);
  bool asleep = false;
  {
    // Under the mutex, so a worker between its last look at posted_ and its wait cannot miss it.
    std::lock_guard<std::mutex> lock(sleep_mutex_);
    posted_.fetch_add(1, std::memory_order_release);
    asleep = sleeping_ > 0;
  }
  if (asleep) wake_.notify_all();
}

bool ThreadCrew::join() {
  job_(context_, 0);
  int spins = 0;
  for (; running_.load(std::memory_order_acquire) != 0; ++spins) {
    if (spins < kSpinsBeforeYield)
      T3SIM_CPU_RELAX();
    else
      std::this_thread::yield();
  }
  return spins > 0;
}

void ThreadCrew::work(int thread) {
  uint64_t seen = 0;
  for (;;) {
    int spins = 0;
    while (posted_.load(std::memory_order_acquire) == seen) {
      if (stopping_.load(std::memory_order_acquire)) return;
      if (++spins < kSpinsBeforeSleep) {
        // (Past the first spins, yield: on a machine with more threads than cores, as under `ctest -j`,
        // the caller may be waiting for this core.)
        if (spins < kSpinsBeforeYield)
          T3SIM_CPU_RELAX();
        else
          std::this_thread::yield();
        continue;
      }
      std::unique_lock<std::mutex> lock(sleep_mutex_);
      ++sleeping_;
      wake_.wait(lock, [&] {
        return posted_.load(std::memory_order_acquire) != seen || stopping_.load(std::memory_order_acquire);
      });
      --sleeping_;
      spins = 0;
    }
    seen = posted_.load(std::memory_order_acquire);
    job_(context_, thread);
    running_.fetch_sub(1, std::memory_order_acq_rel);
  }
}

}  // namespace t3sim::core
