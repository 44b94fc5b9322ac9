#include "sim/core/messages/collectives.hpp"

namespace t3sim::core {
namespace {

class Builder {
 public:
  Builder(std::vector<Call>& out, int rank, int ranks, int tag, const Call& proto, int* next_request)
      : out_(out), rank_(rank), n_(ranks), tag_(tag), proto_(proto), next_request_(next_request) {}

  int pe(int relative, int root) const { return (relative + root) % n_; }
  void send(int to, double bytes, bool blocking = true) { message(Call::Kind::Send, to, bytes, blocking); }
  void recv(int from, double bytes, bool blocking = true) { message(Call::Kind::Recv, from, bytes, blocking); }
  // Waits for this collective's own requests only: the program's requests stay pending across it.
  void wait_all() {
    for (int request : open_) {
      Call c = with(Call::Kind::WaitRequest);
      c.request = request;
      out_.push_back(std::move(c));
    }
    open_.clear();
  }
  void shmem(OpKind kind, int peer, double bytes, double flops) {
    Call c = with(Call::Kind::Shmem);
    c.op.kind = kind;
    c.op.peer = peer;
    c.op.bytes = bytes;
    c.op.flops = flops;
    out_.push_back(std::move(c));
  }
  void local_copy(double bytes) {
    if (bytes > 0) shmem(OpKind::Get, rank_, bytes, 0);
  }
  void combine(double flops) {
    if (flops > 0) shmem(OpKind::Compute, -1, 0, flops);
  }

 private:
  Call with(Call::Kind kind) const {
    Call c = proto_;
    c.kind = kind;
    c.tag = tag_;
    return c;
  }
  void message(Call::Kind kind, int peer, double bytes, bool blocking) {
    Call c = with(kind);
    c.peer = peer;
    c.bytes = bytes;
    c.blocking = blocking;
    if (!blocking) {
      c.request = (*next_request_)++;
      open_.push_back(c.request);
    }
    out_.push_back(std::move(c));
  }
  std::vector<Call>& out_;
  int rank_, n_, tag_;
  const Call& proto_;
  int* next_request_;
  std::vector<int> open_;
};

void binomial_bcast(Builder& b, int rank, int n, int root, double bytes) {
  const int vr = (rank - root + n) % n;
  int mask = 1;
  while (mask < n) {
    if (vr & mask) {
      b.recv(b.pe(vr - mask, root), bytes);
      break;
    }
    mask <<= 1;
  }
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (vr + mask < n) b.send(b.pe(vr + mask, root), bytes);
}

void binomial_reduce(Builder& b, int rank, int n, int root, double bytes, double flops) {
  const int vr = (rank - root + n) % n;
  for (int mask = 1; mask < n; mask <<= 1) {
    if (vr & mask) {
      b.send(b.pe(vr - mask, root), bytes);
      return;
    }
    if (vr + mask < n) {
      b.recv(b.pe(vr + mask, root), bytes);
      b.combine(flops);
    }
  }
}

}  // namespace

void append_collective(std::vector<Call>& out, const CollectiveCall& c, int rank, int ranks, int tag, const Call& proto,
                       int* next_request) {
  Builder b(out, rank, ranks, tag, proto, next_request);
  const int n = ranks;
  const bool vector_form = !c.send_blocks.empty() || !c.recv_blocks.empty();
  auto sent_to = [&](int q) {
    return vector_form && !c.send_blocks.empty() ? c.send_blocks[static_cast<size_t>(q)] : c.bytes;
  };
  auto received_from = [&](int q) {
    return vector_form && !c.recv_blocks.empty() ? c.recv_blocks[static_cast<size_t>(q)] : c.bytes;
  };
  // The call's own entry cost (the barrier's is the hardware barrier's latency).
  if (c.kind != Collective::Barrier) b.shmem(OpKind::MpiCollective, -1, 0, 0);
  switch (c.kind) {
    case Collective::Barrier:
      b.shmem(OpKind::Barrier, -1, 0, 0);
      return;
    case Collective::Bcast:
      binomial_bcast(b, rank, n, c.root, c.bytes);
      return;
    case Collective::Reduce:
      binomial_reduce(b, rank, n, c.root, c.bytes, c.comp_flops);
      return;
    case Collective::Allreduce:
      binomial_reduce(b, rank, n, 0, c.bytes, c.comp_flops);
      binomial_bcast(b, rank, n, 0, c.bytes);
      return;
    case Collective::Alltoall:
    case Collective::Alltoallv:
      b.local_copy(sent_to(rank));
      for (int i = 1; i < n; ++i) {
        b.send((rank + i) % n, sent_to((rank + i) % n), false);
        b.recv((rank - i + n) % n, received_from((rank - i + n) % n), false);
        b.wait_all();
      }
      return;
    case Collective::Gather:
    case Collective::Gatherv:
    case Collective::Scatter:
    case Collective::Scatterv: {
      const bool gather = c.kind == Collective::Gather || c.kind == Collective::Gatherv;
      if (rank != c.root) {
        if (gather)
          b.send(c.root, c.bytes);
        else
          b.recv(c.root, c.bytes);
        return;
      }
      b.local_copy(gather ? received_from(rank) : sent_to(rank));
      for (int q = 0; q < n; ++q) {
        if (q == rank) continue;
        if (gather)
          b.recv(q, received_from(q), false);
        else
          b.send(q, sent_to(q), false);
      }
      b.wait_all();
      return;
    }
    case Collective::Allgather:
    case Collective::Allgatherv:
      b.local_copy(received_from(rank));
      for (int i = 1; i < n; ++i) {  // round i passes on the block that started at PE r - i + 1
        b.send((rank + 1) % n, received_from((rank - i + 1 + n) % n), false);
        b.recv((rank - 1 + n) % n, received_from((rank - i + n) % n), false);
        b.wait_all();
      }
      return;
    case Collective::ReduceScatter: {
      double total = 0;
      for (double part : c.recv_blocks) total += part;
      binomial_reduce(b, rank, n, 0, total, c.comp_flops);
      if (rank != 0) {
        b.recv(0, c.recv_blocks[static_cast<size_t>(rank)]);
        return;
      }
      b.local_copy(c.recv_blocks[0]);
      for (int q = 1; q < n; ++q) b.send(q, c.recv_blocks[static_cast<size_t>(q)], false);
      b.wait_all();
      return;
    }
    case Collective::Scan:
    case Collective::Exscan:
      if (rank > 0) {
        b.recv(rank - 1, c.bytes);
        b.combine(c.comp_flops);
      }
      if (rank + 1 < n) b.send(rank + 1, c.bytes);
      return;
  }
}

}  // namespace t3sim::core
