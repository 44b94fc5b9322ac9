#include "sim/core/packet/vc_recorder.hpp"

namespace t3sim::core {

VcRecorder::VcRecorder(int nodes, int ports, int vcs, int max_hops, uint64_t from, uint64_t to)
    : ports_(ports), vcs_(vcs), max_grants_(max_hops + 2), from_(from), to_(to) {
  outputs_.resize(static_cast<size_t>(nodes * ports * vcs));
  for (size_t i = 0; i < outputs_.size(); ++i) {
    VcActivity& a = outputs_[i];
    const int at = static_cast<int>(i);
    a.node = at / vcs / ports, a.port = at / vcs % ports, a.vc = at % vcs;
  }
  injections_.resize(static_cast<size_t>(nodes * vcs));
  for (size_t i = 0; i < injections_.size(); ++i) {
    VcActivity& a = injections_[i];
    const int at = static_cast<int>(i);
    a.node = at / vcs, a.port = ports - 1, a.vc = at % vcs, a.injection = true;
  }
  asked_.assign(outputs_.size(), 0);
}

void VcRecorder::made(int packet, int node, int vc, uint64_t now) {
  const size_t p = static_cast<size_t>(packet);
  if (p >= packets_.size()) {
    packets_.resize(p + 1);
    grants_.resize((p + 1) * static_cast<size_t>(max_grants_));
  }
  PacketTrace& t = packets_[p];
  t.injection = node * vcs_ + vc;
  t.grants = 1;
  t.tails = 0;
  grants_[p * static_cast<size_t>(max_grants_)] = now;
  if (in_window(now)) ++injections_[static_cast<size_t>(t.injection)].packets;
}

void VcRecorder::granted(int packet, int input, int in_port, int output, uint64_t now) {
  const size_t p = static_cast<size_t>(packet);
  PacketTrace& t = packets_[p];
  if (t.grants < max_grants_) grants_[p * static_cast<size_t>(max_grants_) + t.grants] = now;
  ++t.grants;
  if (!in_window(now)) return;
  VcActivity& a = outputs_[static_cast<size_t>(output)];
  const double wait = static_cast<double>(now - asked_[static_cast<size_t>(input)]);
  ++a.packets;
  a.wait_sum += wait;
  ++a.packets_from[static_cast<size_t>(in_port)];
  a.wait_from[static_cast<size_t>(in_port)] += wait;
}

void VcRecorder::held(VcActivity& a, uint64_t granted, uint64_t free_at) {
  if (!in_window(granted)) return;
  const double h = static_cast<double>(free_at - granted);
  ++a.held;
  a.hold_sum += h;
  a.hold_squares += h * h;
}

void VcRecorder::tail_left(int packet, int upstream, int eject, uint64_t now, uint64_t free_at) {
  const size_t p = static_cast<size_t>(packet);
  PacketTrace& t = packets_[p];
  const int k = t.tails++;  // this router is the packet's k-th: grant k held what it came by, k + 1 its way on
  if (k + 1 >= max_grants_) return;
  const uint64_t* grants = &grants_[p * static_cast<size_t>(max_grants_)];
  held(upstream < 0 ? injections_[static_cast<size_t>(t.injection)] : outputs_[static_cast<size_t>(upstream)],
       grants[k], free_at);
  if (eject >= 0) held(outputs_[static_cast<size_t>(eject)], grants[k + 1], now + 1);
}

std::vector<VcActivity> VcRecorder::activities() const {
  std::vector<VcActivity> out;
  const size_t per_node = static_cast<size_t>(ports_ * vcs_);
  const size_t vcs = static_cast<size_t>(vcs_);
  for (size_t node = 0; node * per_node < outputs_.size(); ++node) {
    for (size_t i = node * per_node; i < (node + 1) * per_node; ++i)
      if (outputs_[i].packets > 0 || outputs_[i].held > 0) out.push_back(outputs_[i]);
    for (size_t i = node * vcs; i < (node + 1) * vcs; ++i)
      if (injections_[i].packets > 0 || injections_[i].held > 0) out.push_back(injections_[i]);
  }
  return out;
}

}  // namespace t3sim::core
