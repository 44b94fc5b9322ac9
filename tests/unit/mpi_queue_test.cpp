// The message layer's queue path (message_layer.hpp): a small message as one T3E hardware message into
// the receiver's E-register message queue (Cray MPT >= 1.3.0.5). Its one-way time is the sum of its
// costs, it carries exactly the messages up to mpi_queue_bytes, never a synchronous send's, and the
// profile's bound on mpi_queue_bytes is the hardware message less the smallest envelope.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "sim/core/machine/machine_params.hpp"
#include "sim/core/messages/message_index.hpp"
#include "sim/core/messages/message_layer.hpp"
#include "sim/core/run/cost_model.hpp"
#include "sim/core/run/uncontended_replay.hpp"
#include "sim/io/machine/machine_loader.hpp"

using namespace t3sim;
using Mode = core::Call::Mode;

namespace {

core::Call message(core::Call::Kind kind, int peer, double bytes, Mode mode = Mode::Standard) {
  core::Call c;
  c.kind = kind;
  c.peer = peer;
  c.bytes = bytes;
  c.mode = mode;
  return c;
}

// One blocking message of `bytes` from PE 0 to PE 1, expanded by the message layer.
core::Workload one_message(double bytes, Mode mode, const core::MessageProtocols& protocols) {
  core::Workload w;
  w.name = "one-message";
  w.pes = 2;
  std::vector<std::vector<core::Call>> programs(2);
  programs[0].push_back(message(core::Call::Kind::Send, 1, bytes, mode));
  programs[1].push_back(message(core::Call::Kind::Recv, 0, bytes));
  programs[0][0].label = programs[1][0].label = w.labels.intern("message");
  w.ops = core::expand_messages(programs, protocols, w.flags);
  return w;
}

// The protocol the message travelled by, read from the operations the layer made: the flag of the
// sender's put names it ("mp.queue", "mp.eager" or "mp.rts").
std::string travelled(const core::Workload& w) {
  for (const core::Op& op : w.ops)
    if (op.pe == 0 && op.kind == core::OpKind::Put) {
      const std::string flag = w.flags.name(op.flag);
      return flag.substr(0, flag.find(' '));
    }
  return "none";
}

std::string by(double bytes, Mode mode, const core::MessageProtocols& protocols) {
  return travelled(one_message(bytes, mode, protocols));
}

core::MachineSpec mcurie() {
  return io::load_machine(std::string(T3SIM_SOURCE_DIR) + "/platforms/t3e-900-mcurie.yaml");
}

}  // namespace

TEST(MpiQueue, OneWayIsTheSumOfItsCosts) {
  const core::MachineSpec m = mcurie();
  const core::SoftwareProfile& p = m.profiles.at(0);
  ASSERT_GT(p.mpi_queue_bytes, 8);
  const core::CostModel cost(m, p);
  const core::Workload w = one_message(8, Mode::Standard, {p.eager_threshold, p.mpi_queue_bytes});
  ASSERT_EQ(travelled(w), "mp.queue");
  const double one_way = core::replay_uncontended(cost, w).makespan;
  // The send call; the put of the whole 64-byte block (issued, then across the network: no fence and no
  // flag put, its arrival is the notice); the receive call; the copy of 8 bytes out of the queue.
  const double put = p.call_overhead + cost.latency(0, 1) +
                     core::kHardwareMessageBytes / std::min(cost.bottleneck(0, 1), p.put_bandwidth);
  const double expected = p.mpi_send_overhead + put + p.mpi_recv_overhead + cost.local_copy_time(8);
  EXPECT_NEAR(one_way, expected, 1e-12);
  // mpi_*_overhead were derived (provenance of the machine file) so that this is MP_Lite's published
  // 5 us; a change to the SHMEM parts breaks it, and the two calls' costs must be derived again.
  EXPECT_NEAR(one_way, 5e-6, 0.01e-6);
}

TEST(MpiQueue, CarriesMessagesUpToTheThresholdAndNoLarger) {
  const core::MessageProtocols queue_only{0, 40};
  EXPECT_EQ(by(40, Mode::Standard, queue_only), "mp.queue");
  EXPECT_EQ(by(0, Mode::Standard, queue_only), "mp.queue");
  EXPECT_EQ(by(41, Mode::Standard, queue_only), "mp.rts");
  const core::MessageProtocols with_eager{100, 40};
  EXPECT_EQ(by(40, Mode::Standard, with_eager), "mp.queue");
  EXPECT_EQ(by(41, Mode::Standard, with_eager), "mp.eager");
  EXPECT_EQ(by(101, Mode::Standard, with_eager), "mp.rts");
  // 0: no queue path, whatever the size (every machine without E-register queues).
  EXPECT_EQ(by(8, Mode::Standard, {0, 0}), "mp.rts");
  EXPECT_EQ(by(8, Mode::Standard, {1024, 0}), "mp.eager");
}

TEST(MpiQueue, SynchronousSendsNeverQueueBufferedOnesDoWhenTheyFit) {
  EXPECT_EQ(by(8, Mode::Synchronous, {100, 40}), "mp.rts");
  EXPECT_EQ(by(0, Mode::Synchronous, {100, 40}), "mp.rts");
  EXPECT_EQ(by(8, Mode::Buffered, {0, 40}), "mp.queue");
  EXPECT_EQ(by(41, Mode::Buffered, {0, 40}), "mp.eager");
}

TEST(MpiQueue, OnePutOfTheHardwareMessageSignalledOnArrivalAndACopyOut) {
  const core::Workload w = one_message(24, Mode::Standard, {0, 40});
  std::string kinds;
  for (const core::Op& op : w.ops) kinds += std::to_string(op.pe) + core::op_kind_name(op.kind) + " ";
  EXPECT_EQ(kinds, "0mpi_send 0put 1wait 1mpi_recv 1get ");
  const core::Op& put = w.ops[1];
  EXPECT_EQ(put.bytes, core::kHardwareMessageBytes);
  EXPECT_EQ(put.order, core::SignalOrder::OnArrival);
  EXPECT_FALSE(put.complete);  // the send returns once the block is issued
  const core::Op& copy = w.ops.back();
  EXPECT_EQ(copy.peer, 1);  // out of the PE's own queue: a local copy of the data alone
  EXPECT_EQ(copy.bytes, 24);
  EXPECT_FALSE(copy.message_data);
}

TEST(MpiQueue, TheIndexGivesEachMessageTheProtocolTheWholeMatchingGives) {
  const core::MessageProtocols protocols{100, 40};
  const std::vector<std::pair<double, Mode>> sends = {
      {8, Mode::Standard},    {40, Mode::Standard}, {41, Mode::Standard}, {500, Mode::Standard},
      {8, Mode::Synchronous}, {8, Mode::Buffered},  {500, Mode::Buffered}};
  core::MessageIndex index(protocols);
  std::vector<core::Call> sent, received;
  for (const auto& [bytes, mode] : sends) {
    sent.push_back(message(core::Call::Kind::Send, 1, bytes, mode));
    received.push_back(message(core::Call::Kind::Recv, 0, 1000));
  }
  index.add(0, sent);
  index.add(1, received);
  ASSERT_TRUE(index.resolve());
  const std::vector<core::MessageProtocol> expected = {
      core::MessageProtocol::Queue,      core::MessageProtocol::Queue,      core::MessageProtocol::Eager,
      core::MessageProtocol::Rendezvous, core::MessageProtocol::Rendezvous, core::MessageProtocol::Queue,
      core::MessageProtocol::Eager};
  for (size_t i = 0; i < sends.size(); ++i) {
    const core::Matched m = index.next(1, received[i]);
    EXPECT_EQ(m.protocol, expected[i]) << "message " << i;
    EXPECT_EQ(m.protocol, core::protocol_of(sent[i], protocols)) << "message " << i;
    EXPECT_EQ(index.next(0, sent[i]).protocol, expected[i]) << "message " << i;
  }
}

TEST(MpiQueue, TheProfileBoundIsTheHardwareMessageLessTheSmallestEnvelope) {
  const auto& decls = core::profile_params();
  const auto it = std::find_if(decls.begin(), decls.end(), [](const auto& d) { return d.key == "mpi_queue_bytes"; });
  ASSERT_NE(it, decls.end());
  EXPECT_EQ(it->max, core::kHardwareMessageBytes - core::kMinEnvelopeBytes);
  EXPECT_EQ(it->min, 0);
}
