// PSTSWM's ordered swap: PE pairs exchange equal messages at the same time, under one of four
// message-passing protocols built from SHMEM operations. Each protocol is a handshake sequence, not a
// set of constants: all four share the machine profile's costs.
//
// For a PE p swapping with q (both run the same sequence), B bytes, flags are 8-byte signalled puts:
//   nonblocking_send          overhead; put B to q (signal data) | wait data; quiet
//   nonblocking_send_receive  the same: over SHMEM, posting the receive first is no operation
//   nonblocking_receive       overhead; flag ready to q | wait ready; get B from q; flag done to q;
//                             wait done; quiet           (the receiver pulls: data moves by get)
//   ready_send                overhead; flag posted to q | wait posted; then as nonblocking_receive
//                             (the send may start only once the partner's receive is posted)
// "|" separates the start of a swap from its finish; with overlap, `overlap_work` seconds of
// computation run between them. Every operation of a swap carries the label "swap".
#pragma once
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sim/core/program/workload.hpp"

namespace t3sim::core {

enum class SwapProtocol { NonblockingSend, NonblockingSendReceive, NonblockingReceive, ReadySend };

// As a swap pattern's `protocol:` names them.
constexpr NameTable<SwapProtocol, 4> kSwapProtocolNames = {
    {SwapProtocol::NonblockingSend, "nonblocking_send"},
    {SwapProtocol::NonblockingSendReceive, "nonblocking_send_receive"},
    {SwapProtocol::NonblockingReceive, "nonblocking_receive"},
    {SwapProtocol::ReadySend, "ready_send"}};
constexpr const auto& name_table(SwapProtocol) { return kSwapProtocolNames; }

struct SwapSpec {
  std::vector<std::pair<int, int>> pairs;
  SwapProtocol protocol = SwapProtocol::NonblockingSend;
  int iterations = 1;       // swaps timed per measurement
  bool overlap = false;     // split each swap into start and finish around overlap_work
  double overlap_work = 0;  // s of computation between start and finish when overlapping
};

constexpr const char* kSwapLabel = "swap";
constexpr double kFlagBytes = 8;

// Appends one measurement of `bytes` to w.ops: a barrier, then `iterations` swaps on every pair; its
// flag and label names are interned into w.flags and w.labels.
void append_swap_measurement(Workload& w, const SwapSpec& spec, double bytes, int size_index);

}  // namespace t3sim::core
