// What the PE interpreter (pe_interpreter.hpp) needs from time and the network, and nothing else:
// a clock, delays, and flows. Three implementations give three answers to "how long does this flow
// take": ClosedFormTransport (alone on the machine, core), SolverTransport (t3sim's incremental
// max-min solver on SimGrid's clock, engine) and SimGridTransport (SimGrid's comms and its own
// solver: the reference, engine). Latency is not a transport's business: the interpreter waits the
// path latency (CostModel::latency) before it starts a flow.
#pragma once
#include <functional>

#include "sim/core/machine/machine_spec.hpp"
#include "sim/core/support/task.hpp"

namespace t3sim::core {

// What a flow carries, which picks the PE rates it draws on (flow_cap). MessageData is the data of a
// message layer's rendezvous (get data pulled by the MPI library). IoData is a file call's data between
// a PE and an I/O node (io_layer.hpp): the node's interface moves it by DMA, no PE rate bounds it.
// Ack is a put's acknowledgement, a flow only on a transport that sends it as a packet
// (acknowledges_with_packets); the others wait the path latency instead.
enum class FlowKind { Put, GetRequest, GetData, MessageData, IoData, Ack };
// Whether a flow of `kind` answers a request (get and rendezvous data, a put's acknowledgement): the
// replies' virtual network on a machine with two (the packet driver's, the VC holding time's classes).
inline bool travels_as_reply(FlowKind kind) {
  return kind == FlowKind::GetData || kind == FlowKind::MessageData || kind == FlowKind::Ack;
}

// The PE rate a flow of `kind` draws on under a profile (bytes/s; infinity for none): a PE issues
// remote stores (puts) at most at put_bandwidth and sinks returning get data at most at
// get_bandwidth, in total over all its transfers in flight (network_resources.hpp makes each a
// shared capacity of the PE); rendezvous data also at most at mpi_bandwidth (when set); a get
// request is small and draws on none. A flow alone on the machine runs at the lesser of this and
// its path's capacities (ClosedFormTransport, CostModel).
double flow_cap(const SoftwareProfile& profile, FlowKind kind);
// The node's own limits on a flow of `kind` (bytes/s; infinity for none), when the machine models them:
// for data (puts, get and rendezvous data) the memory port (node.memory_bandwidth), and for get and
// rendezvous data the initiator's E-register rate (8 x node.eregisters / node.remote_round_trip). Shared
// like the PE rates (network_resources.hpp); a flow alone runs at the lesser of this, flow_cap and its
// path's capacities.
double node_cap(const NodeParams& node, FlowKind kind);
// A PE's E-register rate, 8 x node.eregisters / node.remote_round_trip (bytes/s; infinity when the
// machine does not model the registers): the most its get and rendezvous data arrive at together.
double eregister_rate(const NodeParams& node);

class Transport {
 public:
  using Callback = std::function<void()>;
  virtual ~Transport() = default;
  // Current simulated time (s).
  virtual double now() const = 0;
  // Calls `then` at now() + delay (delay >= 0). Calls due at the same time run in the order made.
  virtual void after(double delay, Callback then) = 0;
  // Moves `bytes` from PE src to PE dst (job PEs, src != dst) at the rate the network gives a flow
  // of `kind`, starting now; calls `then` when the last byte is delivered.
  virtual void flow(int src, int dst, double bytes, FlowKind kind, Callback then) = 0;
  // after() and flow() with a Task (task.hpp) for `then`, what the interpreter passes on its hot paths:
  // a transport whose calendar keeps tasks takes it as it is; by default it is wrapped in a Callback.
  virtual void after(double delay, Task then) { after(delay, Callback(then)); }
  virtual void flow(int src, int dst, double bytes, FlowKind kind, Task then) {
    flow(src, dst, bytes, kind, Callback(then));
  }
  // Writes (or reads) `bytes` on disk `disk` (0 .. MachineSpec::disk_count()-1) at the rate the disk
  // gives, shared with its other requests in service; calls `then` when done. Only on a machine with io.
  virtual void disk_io(int disk, double bytes, bool write, Callback then) = 0;
  // True when a flow's own time includes its path latency (the packet transport: packets cross routers
  // and wires), so the interpreter starts it at once instead of waiting CostModel::latency first.
  virtual bool times_latency() const { return false; }
  // True when a put's acknowledgement is a flow of its own (FlowKind::Ack, 0 bytes: a header-only reply
  // packet), else the interpreter waits CostModel::latency back to the issuer.
  virtual bool acknowledges_with_packets() const { return false; }
};

}  // namespace t3sim::core
