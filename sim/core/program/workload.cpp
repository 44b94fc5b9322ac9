#include "sim/core/program/workload.hpp"

#include <random>

namespace t3sim::core {

bool Workload::has_io() const {
  for (const Op& op : ops)
    if (!peer_is_pe(op)) return true;
  return false;
}

bool is_flag_name(const std::string& name) {
  return !name.empty() && name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_") == std::string::npos;
}

Op pattern_op(OpKind kind, int pe, int peer, double bytes, NameId flag, NameId label, int size_index) {
  Op op;
  op.kind = kind;
  op.pe = pe;
  op.peer = peer;
  op.bytes = bytes;
  op.flag = flag;
  op.complete = false;
  op.label = label;
  op.iteration = size_index;
  return op;
}

int Workload::job_of(int pe) const {
  int job = 0;
  for (size_t j = 0; j < job_first_pe.size(); ++j)
    if (pe >= job_first_pe[j]) job = static_cast<int>(j);
  return job;
}

int Workload::job_size(int job) const {
  const auto j = static_cast<size_t>(job);
  return (j + 1 < job_first_pe.size() ? job_first_pe[j + 1] : pes) - job_first_pe[j];
}

Workload with_background(const Workload& main, const Workload& background) {
  Workload w = main;
  w.job_first_pe = {0, main.pes};
  w.pes = main.pes + background.pes;
  // Each background name is renamed once, not once per operation.
  std::vector<NameId> flag_of(background.flags.size()), label_of(background.labels.size());
  for (size_t id = 0; id < flag_of.size(); ++id)
    flag_of[id] = w.flags.intern(background.flags.name(static_cast<NameId>(id)));
  for (size_t id = 0; id < label_of.size(); ++id)
    label_of[id] = w.labels.intern(kBackgroundPrefix + background.labels.name(static_cast<NameId>(id)));
  std::vector<NameId> file_of(background.files.size());
  for (size_t id = 0; id < file_of.size(); ++id)
    file_of[id] = w.files.intern(kBackgroundPrefix + background.files.name(static_cast<NameId>(id)));
  const auto shift = static_cast<uint32_t>(w.ops.size());
  for (Repeat r : background.repeats) w.repeats.push_back({r.first_op + shift, r.end_op + shift, r.count});
  w.ops.reserve(w.ops.size() + background.ops.size());
  for (Op op : background.ops) {
    if (op.pe != kAllPes) op.pe += main.pes;
    if (!Workload::peer_is_pe(op))
      op.peer = file_of[static_cast<size_t>(op.peer)];
    else if (op.peer >= 0)
      op.peer += main.pes;
    op.job = 1;
    if (op.flag != kNoName) op.flag = flag_of[static_cast<size_t>(op.flag)];
    // An unlabelled background operation is still the background's: labelled "background.".
    op.label = op.label == kNoName ? w.labels.intern(kBackgroundPrefix) : label_of[static_cast<size_t>(op.label)];
    w.ops.push_back(op);
  }
  return w;
}

std::vector<Op> Workload::program_of(int pe) const { return programs()[static_cast<size_t>(pe)]; }

std::vector<std::vector<Op>> Workload::programs() const {
  std::vector<std::vector<Op>> all(static_cast<size_t>(pes));
  for (const Op& op : ops) {
    if (op.pe != kAllPes) {
      all[static_cast<size_t>(op.pe)].push_back(op);
      continue;
    }
    const int first = job_first_pe[static_cast<size_t>(op.job)];
    for (int pe = first; pe < first + job_size(op.job); ++pe) all[static_cast<size_t>(pe)].push_back(op);
  }
  return all;
}

std::vector<std::vector<uint32_t>> Workload::program_indices() const {
  std::vector<std::vector<uint32_t>> all(static_cast<size_t>(pes));
  for (size_t i = 0; i < ops.size(); ++i) {
    const Op& op = ops[i];
    if (op.pe != kAllPes) {
      all[static_cast<size_t>(op.pe)].push_back(static_cast<uint32_t>(i));
      continue;
    }
    const int first = job_first_pe[static_cast<size_t>(op.job)];
    for (int pe = first; pe < first + job_size(op.job); ++pe)
      all[static_cast<size_t>(pe)].push_back(static_cast<uint32_t>(i));
  }
  return all;
}

}  // namespace t3sim::core
