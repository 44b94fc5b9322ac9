#include "sim/io/trace/ti/ti_requests.hpp"

#include <algorithm>

namespace t3sim::io {

size_t TiRequests::later(const std::map<Key, Seen>& m, const Key& k) const {
  const auto it = m.find(k);
  return it == m.end() ? 0 : it->second.total - it->second.seen;
}

void TiRequests::post(const Key& k, int request) {
  ++posts_[k].seen;
  pending_[k].push_back(request);
  ++pending_count_;
}

int TiRequests::wait(const Key& k) {
  ++waits_[k].seen;
  return complete(k);
}

int TiRequests::complete(const Key& k) {
  auto it = pending_.find(k);
  if (it == pending_.end() || it->second.empty()) return -1;
  const int request = it->second.front();
  it->second.pop_front();
  if (it->second.empty()) pending_.erase(it);  // waitall walks the keys with requests only
  --pending_count_;
  return request;
}

std::vector<int> TiRequests::complete_unnamed(size_t count) {
  // (request, key) of every pending request no later wait names
  std::vector<std::pair<int, Key>> unnamed;
  for (const auto& [k, queue] : pending_) {
    const size_t waits = later(waits_, k), posts = later(posts_, k);
    const size_t named = std::min(queue.size(), waits > posts ? waits - posts : 0);
    for (size_t i = named; i < queue.size(); ++i) unnamed.push_back({queue[i], k});
  }
  std::sort(unnamed.begin(), unnamed.end());
  if (unnamed.size() > count) unnamed.resize(count);
  std::vector<int> done;
  for (const auto& [request, k] : unnamed) {
    const auto it = pending_.find(k);
    it->second.erase(std::find(it->second.begin(), it->second.end(), request));
    if (it->second.empty()) pending_.erase(it);
    --pending_count_;
    done.push_back(request);
  }
  return done;
}

}  // namespace t3sim::io
