// The packet-level network: routers of input-queued virtual channels with credit-based flow control,
// one flit per link per cycle, a per-hop pipeline (route, virtual-channel allocation, switch
// allocation, crossbar), wormhole or cut-through switching, and each node's injection and ejection
// channel. Messages are cut into packets (packet_config.hpp) that are made only as they are injected,
// so memory follows the packets in flight, not the messages waiting.
//
// Time is in router cycles. step() runs one cycle over the routers that have work and the nodes that
// have packets to inject (idle ones cost nothing: a router whose flits all wait sleeps until an arrival
// gives one of its stages work, visit_router); the caller skips cycles in which nothing is due
// (next_busy_cycle). Within a cycle: flits and credits due arrive, nodes inject, then each busy router
// allocates virtual channels, then its switch, then routes new heads. A head is routed the cycle it
// arrives, asks for a virtual channel the next and for the switch the one after; a body flit may
// cross the switch the cycle it arrives. An input VC holds the flits of several packets in turn: the
// next head is routed the cycle after the previous tail crossed the switch (so one VC launches at most
// one packet every 3 cycles), and a downstream VC is free again once that tail has crossed, whatever
// its buffer still holds (wormhole: allocation looks at ownership, not credits). Allocators are
// one iteration of iSLIP: a round-robin grant per output, a round-robin accept per input, pointers
// moved on acceptance; the switch sees one VC per input and output port, round-robin over the VCs.
// This is the behaviour of BookSim2's input-queued router (non-speculative, iSLIP, default options),
// as docs/research/booksim-router.md describes it, written here from that description. With
// hold_switch a grant holds both ports until the tail has crossed (BookSim's hold_switch_for_packet);
// with it under cut-through (whole_packet_events) a buffer entry is a whole packet, which crosses a
// router in one send_packet, holds the ports and its output VC until a Release event at its tail's
// cycle, and returns its credits upstream at the tail's. Against the flit-by-flit run of the same router:
// the same cycles where a free VC's room matters only when whole (every packet filling the buffer) and
// no coin decides a route (packets may be made in another order, and each takes the next coins drawn:
// PacketRoute::coins), up to a packet's flits late elsewhere. Deliveries of one
// cycle may also come out in another order, so a program reacting to them (the interpreter) may not
// keep the flit-by-flit run's cycles either.
// Everything is deterministic: the same inputs and seed give the same cycles, on any number of threads.
//
// Threads: a busy cycle's arrivals and routers may be split over several threads (ThreadCrew), each
// taking the routers of a range of nodes, as one router's arrivals and visit change only its own state.
// Routers are visited in ascending node order, whatever order they were woken in. Each thread sends
// its routers' events into a row of the wheel of its own, by receiving block of nodes, and a router
// reads its events from the rows in thread order, so it takes the same events in the same order as when
// one thread does everything (a test compares the runs); the deliveries a worker's routers send are
// added after the caller's.
// In a split cycle each thread also takes its own nodes' source credits (which only a node's own router
// sends) and injects for them, so an injected flit and its credit stay on one core, unless a pacer is
// shared by several nodes (a get's data is paced by its destination): the order of a shared pacer's
// readings within a cycle is the one-thread run's visiting order, so the caller's thread then injects
// for all. A thread walks its listed sources (a bitmask, which no one changes during the step) in node
// order; afterwards the caller walks the list of active sources in the order one thread would have,
// drawing the coins of the packets made (their routes are first read a cycle later) and taking the dry
// sources off (each source's decision is its own); the messages and pacers the interpreter adds during
// the step are settled then, in the order they were added.
//
// Zero load (an idle router, `P` pipeline cycles, wires of `W` cycles, terminals of `T`): a head flit
// made at cycle c leaves its node at c + 1, reaches its first router at c + 1 + T, each router
// takes P cycles and each wire W, and it reaches the destination node at
// c + 1 + 2T + (hops + 1) P + hops W; each further flit of the packet one cycle later.
#pragma once
#include <chrono>
#include <cstdint>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "sim/core/packet/packet_config.hpp"
#include "sim/core/packet/packet_routing.hpp"
#include "sim/core/packet/split_chooser.hpp"
#include "sim/core/packet/vc_recorder.hpp"
#include "sim/core/support/slot_pool.hpp"
#include "sim/core/support/thread_crew.hpp"

namespace t3sim::core {

class PacketNetwork {
 public:
  // Flits ejected per node are counted in periods of this many cycles (BookSim's sample period).
  static constexpr uint64_t kSamplePeriod = 1000;
  // With flits in the network and none moved for this many cycles, the network is deadlocked.
  static constexpr uint64_t kStallCycles = 100000;

  // index_waiting_vcs false: VC allocation looks at every waiting VC's record each time (what a router
  // of more than 64 VCs always does) instead of an index of what they wait for; the two give the same
  // cycles (a test compares them).
  // threads: how many share a busy cycle's arrivals and routers (the caller's included; see above).
  explicit PacketNetwork(const PacketConfig& config, uint64_t seed = 1, bool index_waiting_vcs = true, int threads = 1);

  // A rate limit shared by the messages given it: at most `bytes_per_cycle` of payload injected per
  // cycle (a PE's issue rate); returns its id for add_message.
  int add_pacer(double bytes_per_cycle);
  // A message of `bytes` from node src to node dst (src may be dst: it crosses the router), to be
  // injected from the next cycle on, its packets at most at `pacer`'s rate (-1: none). Returns its id,
  // reported by delivered() once its last flit has reached dst. `network`: its virtual network (0
  // requests, 1 replies; 0 when the machine has one).
  int add_message(int src, int dst, double bytes, int pacer, int network = 0);

  uint64_t now() const { return now_; }
  // The next cycle with work (now() when flits are in flight or waiting to inject), or UINT64_MAX.
  uint64_t next_busy_cycle() const;
  // Runs cycle now() and moves to the next; throws ModelError when the network has deadlocked.
  void step() {
    begin_step();
    end_step();
  }
  // step() in two halves, so that a caller can react to a cycle's deliveries while other threads step
  // its routers: begin_step() moves the cycle's arrivals in and injects (delivered() is then this
  // cycle's); end_step() visits the routers and moves to the next cycle. Between the two only
  // add_message() and add_pacer() may be called; a message added then is as one added after end_step()
  // (it may enter from the next cycle on).
  void begin_step();
  void end_step();
  // Moves the clock to `cycle` (>= now()) without work: only when next_busy_cycle() >= cycle.
  void skip_to(uint64_t cycle);
  // The messages delivered by the last step(), in the order their last flits arrived.
  const std::vector<int>& delivered() const { return delivered_; }
  // Flits in routers' buffers. With flits buffered and nothing due (next_busy_cycle() is UINT64_MAX)
  // the network is deadlocked: check_stalled() says which virtual channels wait on each other.
  int64_t buffered_flits() const { return buffered_total_; }
  void check_stalled() const {
    if (buffered_total_ > 0) deadlock();
  }

  struct Stats {
    uint64_t packets_made = 0;
    uint64_t packets_delivered = 0;
    uint64_t flits_injected = 0;
    uint64_t flits_ejected = 0;
    uint64_t flit_hops = 0;         // flits moved over a torus link
    double latency_cycles_sum = 0;  // over delivered packets: from the message's arrival to the last flit ejected
  };
  const Stats& stats() const { return stats_; }
  // Cycles split over more than one thread (the constructor's `threads`; none below kThreadedWork).
  uint64_t threaded_cycles() const { return threaded_cycles_; }
  // Whether a cycle large enough to split is split only when the wall clock says that is faster
  // (SplitChooser; the default), or always (timed false: what tests of the split itself need).
  void choose_split_by_time(bool timed) { timed_split_ = timed; }
  void set_split_chooser(const SplitChooser& chooser) { chooser_ = chooser; }  // (tests: short probes)
  // Whether, in a split cycle, each thread injects for the nodes of its own routers (the default) or the
  // caller's thread injects for all (see Threads above; the results are the same either way).
  void inject_on_owners(bool on) { owner_injection_ = on; }
  // Split cycles in which each thread injected for its own nodes.
  uint64_t owner_injected_cycles() const { return owner_cycles_; }
  // Flits ejected at each node in sample period p (0 for a period not reached).
  uint64_t ejected(int node, size_t period) const;
  // Whether node had nothing to inject at some cycle of period p (a run's measured window must be
  // periods in which every source was backlogged).
  bool source_dry(size_t period) const { return period < dry_.size() && dry_[period]; }
  size_t periods() const { return static_cast<size_t>(now_ / kSamplePeriod); }
  // Nodes that were given at least one message.
  std::vector<int> sources() const;
  // Marks the periods up to now() in which a source had nothing to inject (call once the run is over).
  void finish();
  const PacketConfig& config() const { return config_; }
  // Records what each virtual channel does in cycles [from, to) (run --vc-report; vc_recorder.hpp).
  void record_vcs(uint64_t from, uint64_t to);
  // What record_vcs recorded (empty without it).
  std::vector<VcActivity> vc_activities() const;

 private:
  // Draining: whole-packet events only, from the packet's crossing until its tail has crossed (Release).
  enum class VcState : uint8_t { Idle, Routed, Active, Draining };
  // What an event carries: a flit (with whole-packet events, the whole packet, head and tail), or a
  // credit event's credits. The flit is kept as a router's buffer keeps it (Stored, below), so a flit
  // goes from buffer to event to buffer as one word, never taken apart and put together again.
  struct Flit {
    uint32_t bits;   // the packet << 2 | head << 1 | tail (0 for a credit)
    uint16_t flits;  // 1 flit by flit; whole-packet events: the packet's flits; a credit event: the credits it returns
    static Flit of(int packet, bool head, bool tail, int flits = 1) {
      return Flit{static_cast<uint32_t>(packet) << 2 | static_cast<uint32_t>(head) << 1 | static_cast<uint32_t>(tail),
                  static_cast<uint16_t>(flits)};
    }
    static Flit credits(int credits) { return Flit{0, static_cast<uint16_t>(credits)}; }
    int packet() const { return static_cast<int>(bits >> 2); }
    bool head() const { return (bits & 2) != 0; }
    bool tail() const { return (bits & 1) != 0; }
  };
  struct InputVc {
    uint64_t ready = 0;  // idle: the first cycle it may route a head (the one after its last tail crossed)
    // Routed: the output VCs of out_port it asks for this cycle (bit vc) and its escape VCs on
    // escape_port, set when its head is routed (what it waits on when it can be granted none follows
    // from them: waits_of).
    uint64_t vc_mask = 0;
    uint64_t escape_mask = 0;
    uint32_t first = 0;  // ring position of the oldest flit
    uint32_t count = 0;
    int16_t out_vc = -1;
    uint16_t flits = 0;  // routed: its packet's flits (what cut-through needs of a free output VC)
    VcState state = VcState::Idle;
    uint8_t out_port = 0;
    // The escape hop the head was routed to, and (adaptive routing) the ports that bring it closer;
    // each cycle of VC allocation asks for the best adaptive VC or, failing one, the escape VCs.
    uint8_t escape_port = 0;
    uint8_t productive = 0;
  };
  struct OutputVc {
    int credits = 0;
    int owner = -1;  // the input VC (router-local index) whose packet holds it
  };
  struct Packet {
    int message;
    int flits;
    PacketRoute route;
    uint32_t born;  // the cycle it was made, modulo 2^32 (age arbitration compares differences)
  };
  struct Message {
    int src, dst, pacer;
    int network;               // its virtual network (0 requests, 1 replies)
    double bytes_left;         // payload not yet packed
    int64_t to_make;           // packets not yet made
    int64_t undelivered;       // packets made or to make whose last flit has not arrived
    uint64_t arrived;          // the cycle it was added
    int next = -1, prev = -1;  // its neighbours in its source's ring of waiting messages
  };
  struct Pacer {
    double bytes_per_cycle;
    double next = 0;  // the cycle (fractional) its PE may start issuing the next packet's payload
  };
  // The cycle (fractional) message m's next packet has its payload issued by its PE and may enter: a
  // packet leaves once its last byte is issued, so a message of n packets' last leaves n payloads'
  // issue times after its PE starts on it, as a flow's last byte does (0 for an unpaced message).
  double paced_ready(const Message& m) const;
  // A node's messages of one virtual network with packets to make, round-robin, in the order given: a
  // ring linked through Message::next and prev (thousands may wait, and one leaves from anywhere in it).
  // Requests and replies queue apart (the T3E's separate networks reach into the node): a reply never
  // waits behind a request whose packet cannot enter, nor the reverse.
  struct Lane {
    int first = -1;  // the oldest (-1: none)
    int waiting = 0;
    int turn = -1;         // the message to try first (-1: the oldest)
    bool stalled = false;  // its next packet waits for a credit (inject() need not look until one comes)
  };
  struct Source {       // a node's injection side
    Lane lanes[2];      // by virtual network
    int lane_turn = 0;  // the virtual network to try first for the next packet
    int waiting = 0;    // messages waiting, both lanes
    int packet = -1;    // the packet being injected
    int sent = 0;       // its flits sent
    int vc = -1;
    int vc_turn = 0;
    std::vector<int> credits;  // per VC of the router's terminal input
    uint64_t busy = 0;         // bit vc: a packet is being injected on it
    bool listed = false;       // in active_sources_
    bool used = false;         // it has been given a message
    uint64_t free_at = 0;      // whole-packet events: the cycle its packet's last flit has left
    int64_t dry_since = 0;     // the cycle it last had nothing to inject (-1: it has)
  };
  enum class EventKind : uint8_t { Flit, Credit, SourceCredit, Eject, Release };
  // Where an event lands: Flit, an input VC; Credit, an output VC; SourceCredit, a node's injection VC
  // (port unused); Eject, a node (port and vc unused); Release (whole-packet events), the input VC whose
  // packet's tail has now crossed: its output VC and both switch ports are free again. Kept apart, not as one index, so
  // arriving costs no division.
  struct Event {
    Event() {}  // (not zeroed: push() sets every field)
    EventKind kind;
    uint8_t port;
    uint16_t local;  // the VC's router-local index (port x vcs + vc); SourceCredit: the VC
    int node;
    Flit flit;
  };

  int input_index(int node, int port, int vc) const { return (node * kRouterPorts + port) * config_.vcs + vc; }
  // The word of a per-router set of input VCs (idle_, routed_) holding router-local VC `local`.
  uint64_t& vc_word(std::vector<uint64_t>& set, int node, int local) {
    return set[static_cast<size_t>(node * vc_words_ + (local >> 6))];
  }
  void schedule(uint64_t cycle, EventKind kind, int node, int port, int local, Flit flit = Flit::credits(1));
  // schedule() into the wheel's slot of its cycle, found by the caller (send() has its slots found once a cycle).
  [[gnu::always_inline]] inline void push(std::vector<Event>& slot, EventKind kind, int node, int port, int local,
                                          Flit flit = Flit::credits(1));
  [[gnu::always_inline]] inline void arrive(const Event& e);  // (the rarer events: ejections, source credits, releases)
  // A Flit event, a Credit event: nearly every event, so kept in step()'s loop (not arrive()'s switch).
  [[gnu::always_inline]] inline void arrive_flit(const Event& e);
  [[gnu::always_inline]] inline void arrive_credit(const Event& e);
  [[gnu::always_inline]] inline void inject(int node);
  // The stages of a router's visit; step() calls each only when it has something to do. (These, and the
  // functions run once a flit or a request, are always inlined: as calls, their entries, exits and the
  // values they pass through memory cost about 3% of a saturated run's instructions.)
  // kEscapeWormhole: wormhole without the adaptive VC (BookSim's routers), where a routed VC asks for its
  // escape VCs whatever their credits; compiled apart, with none of the other modes' tests.
  template <bool kEscapeWormhole>
  [[gnu::always_inline]] inline void route_stage(int node);
  template <bool kEscapeWormhole>
  [[gnu::always_inline]] inline void vc_stage(int node);
  // VC allocation's requests: the routed input VCs that could be granted an output VC now (local
  // indices, ascending, with the output VCs of its port each could be granted, and that port; indexed,
  // those VCs router-local, with the ones more than one asks for in `contested`). Every
  // routed VC may ask: it was routed in an earlier cycle, as a router's visit routes after its VC
  // allocation.
  // Indexed (a router of at most 64 VCs): only the routed VCs not closed, or closed on an output VC that
  // changed, are looked at. Scanned: every routed VC's closed_ entry is; it adds the closed VCs' waits.
  template <bool kEscapeWormhole>
  [[gnu::always_inline]] inline int vc_requests_indexed(int node, int* requesters, uint64_t* wants, uint8_t* out_ports,
                                                        uint64_t& contested);
  int vc_requests_scanned(int node, int* requesters, uint64_t* opens, uint8_t* out_ports, int& wake, uint64_t& waits);
  // Input VC `local` found no output VC it could be granted and waits for `waits` (wait_bit), needing
  // `wake` credits of a free one (waits 0: not closed). close_vc and reopen_vc keep the index.
  void set_closed(int node, int local, uint64_t waits, int wake);
  [[gnu::always_inline]] inline void close_vc(int node, int local, uint64_t waits, int wake);
  [[gnu::always_inline]] inline void reopen_vc(int node, int local);
  [[gnu::always_inline]] inline void reopen_closed(int node, int local);  // reopen_vc of a closed VC
  // The output VCs of its port routed input VC `in` could be granted now (under adaptive routing, after
  // this cycle's choice); adds to `wake` and `waits` what it waits for (Router::vc_wake, vc_waits).
  uint64_t open_vcs(int node, InputVc& in, int& wake, uint64_t& waits) const;
  // What routed VC `in` waits on when it can be granted none (wait_bit: its escape VCs and, under
  // adaptive routing, the adaptive VC of every productive port).
  uint64_t waits_of(const InputVc& in) const;
  // The scanned requests' open VCs made router-local (as the indexed ones are); returns the contested ones.
  uint64_t to_router_local(uint64_t* opens, const uint8_t* out_ports, int count) const;
  // VC allocation's grant where some output VCs are contested (a router of at most 64 VCs; vc_stage
  // accepts): per requester (local index), the output VCs (router-local) granted it.
  // kAge: by age (network.arbitration age), compiled apart so round-robin's has none of its tests.
  template <bool kAge>
  [[gnu::always_inline]] inline void vc_grant(int node, const int* requesters, const uint64_t* wants, int count,
                                              uint64_t contested, uint64_t* granted);
  // VC allocation's grant and accept for a router of more than 64 VCs, by comparing distances: per
  // requester, the output VC of its port it took (-1: none).
  void vc_grant_wide(int node, const int* requesters, const uint64_t* opens, const uint8_t* out_ports, int count,
                     int* accepted_by);
  // Output VC (out_port, out_vc) is free again: wakes VC allocation if it waits on it.
  void freed(int node, int out_port, int out_vc);
  // No routed VC can be granted one until what it waits for changes.
  void block_vc_allocation(int node, int wake, uint64_t waits);
  // A router's waits_ bit for an output VC: one per VC where a router has at most 64, else one per port.
  uint64_t wait_bit(int port, int vc) const { return uint64_t{1} << (fine_waits_ ? port * config_.vcs + vc : port); }
  // Adaptive routing: points `in` at this cycle's request, the best adaptive VC or its escape VCs.
  void choose_adaptive(int node, InputVc& in, int flits) const;
  // kHeld: the router may hold its switch ports (hold_switch or whole_packet_events); without, the stage
  // and send() are compiled with none of the holding's tests.
  // kAge: network.arbitration age (each choice among packets to the one made first).
  template <bool kHeld, bool kAge>
  [[gnu::always_inline]] inline void switch_stage(int node);
  // Moves the head flit of input VC (in_port, in_vc) across the switch to out_port (switch_stage counts
  // the flits that leave the router and marks it acted); `neighbors`: the router's, by port.
  template <bool kHeld>
  [[gnu::always_inline]] inline void send(int node, const int* neighbors, int in_port, int in_vc, int out_port);
  // Whole-packet events: the packet at the head of input VC (in_port, in_vc) crosses to out_port, its
  // flits one a cycle from now on; the ports are held until they have (a Release event).
  void send_packet(int node, int in_port, int in_vc, int out_port);
  void release(int node, int in_port, int in_vc);
  [[gnu::always_inline]] inline void count_ejected(int node, uint64_t first_cycle, int flits);
  void activate(int node);
  // Sets or clears the switch request of active input VC `local` from its flits and credits; whether it asks.
  [[gnu::always_inline]] inline bool update_asking(int node, int local);
  void set_asking(int node, int port, int vc, bool asking);  // keeps Router::asking_ports in step
  void mark_dry(uint64_t from, uint64_t to);                 // some source had nothing to inject in [from, to]
  void enqueue(Source& s, int message);                      // after the newest of its lane
  void dequeue(Source& s, Lane& lane, int message);
  // The next message of `lane` (round-robin) whose packet may enter now (-1: none; `earliest` then
  // lowered to the first cycle one may), with its payload's issue time and whether it was tried first.
  [[gnu::always_inline]] inline int next_message(const Lane& lane, double& ready, bool& first_tried,
                                                 uint64_t& earliest) const;
  // A VC of the router's terminal input that virtual network `network` may take, with `need` credits,
  // round-robin from the source's pointer (-1: none): its network's escape VCs and the adaptive VC.
  [[gnu::always_inline]] inline int terminal_vc(const Source& s, int network, int need) const;
  // The flits of a packet carrying `payload` bytes (PacketConfig::flits_for; a full packet's, the common
  // case, without its division and rounding).
  int flits_for(double payload) const {
    return payload == full_payload_ ? config_.packet_flits : config_.flits_for(payload);
  }
  // Age arbitration: the cycle (modulo 2^32) the packet at the front of router-local input VC `local`
  // was made; two packets' ages compare by the difference, as int32 (ages under 2^31 cycles apart).
  uint32_t front_born(int node, int local) const;
  [[noreturn]] void deadlock() const;
  std::string vc_name(int global_input_vc) const;

  PacketConfig config_;
  double full_payload_ = 0;        // a full packet's payload bytes
  uint64_t terminal_vcs_[2] = {};  // by virtual network: the VCs of a terminal input it may take (bit vc)
  PacketRouting routing_;
  std::mt19937_64 coin_;
  uint64_t now_ = 0;
  uint64_t last_move_ = 0;
  int vcs_per_router_ = 0;  // kRouterPorts x vcs
  std::vector<InputVc> inputs_;
  // A flit in a router's buffer: a Flit's bits, its packet, head and tail (unstored() gives it one flit;
  // whole-packet events read the packet's flits from its record). The buffers are most of a network's state
  // (a 532-node T3E's 2.4 MB in 8-byte flits), and a flit waiting long in a congested VC is read from beyond the core's
  // cache: half the bytes, half the lines (and with two threads a core's half of the routers nearer its own cache).
  using Stored = uint32_t;
  static Stored stored(const Flit& f) { return f.bits; }
  static Flit unstored(Stored s) { return Flit{s, 1}; }
  static int stored_packet(Stored s) { return unstored(s).packet(); }
  std::vector<Stored> buffers_;  // input VC i's ring at i x vc_buffer_flits
  std::vector<OutputVc> outputs_;
  int64_t buffered_total_ = 0;
  // The idle VCs with a flit (to route) and the routed ones (waiting for an output VC) per router, bit:
  // the router-local index (vc_words_ words a router, so ascending bits are the stages' port-then-VC
  // order and a router of at most 64 VCs needs no loop over its ports); with Router::asking, the VCs
  // each stage looks at, so a stage visits only those (a congested router holds mostly VCs that wait).
  std::vector<uint64_t> idle_, routed_;
  int vc_words_ = 1;  // words of idle_ and routed_ a router: vcs_per_router_ / 64, rounded up
  // What arrivals and router visits leave besides the routers' own state, kept per thread (a static
  // thread_local: a thread's is one fixed offset away, as a member would be).
  struct Pass {
    bool acted;  // the router being visited moved a flit, granted a VC or routed a head
    bool moved;  // some router moved a flit (last_move_)
    unsigned asking_later_ports;
    // Per port of the router being visited, the VCs granted an output VC this cycle that have a credit
    // for it: they ask for the switch from the next cycle (a stage a cycle), so the visit adds them to
    // Router::asking only after the router's switch allocation.
    uint64_t asking_later[kRouterPorts];
    // Where send() puts a flit's events: a credit and a hop into the router wheel's buckets (indexed
    // by the receiving node's block), a source credit into the source wheel's, a delivery into a node
    // slot; and where inject() puts an injected flit (the router wheel's buckets).
    std::vector<Event>*credit, *source_credit, *hop, *eject, *inject;
    std::vector<int>* stash;  // the packet ids inject() takes (nullptr: the pool's, one thread)
    int64_t buffered;         // flits that arrived in routers' buffers less those that left them
    int64_t woken;            // routers woken less those put to sleep
    uint64_t flit_hops;       // flits send() sent over a torus link (a hop event each)
    uint64_t credits_sent;    // credit events sent upstream to routers
    uint64_t arrived;         // router events taken from the wheel
    uint64_t injected;        // flits injected (a router event each, terminal_cycles on)
    uint64_t made;            // packets made
    uint64_t source_credits_sent, source_credits_arrived;
    uint64_t removed;  // sources marked to leave active_sources_ (remove_mark_)
  };
  static thread_local Pass pass_;
  // A thread's share of a cycle: Pass's counts, and (a crew's worker) the deliveries its routers sent
  // (the caller's thread takes them, in order, so they are added after the caller's). (Aligned: each
  // thread writes its own, and two shares on one cache line would make the cores pass it back and forth.)
  struct alignas(64) Share {
    std::vector<Event> ejects;  // deliveries its routers sent
    int64_t buffered = 0, woken = 0;
    uint64_t flit_hops = 0, credits_sent = 0, arrived = 0;
    uint64_t injected = 0, made = 0, source_credits_sent = 0, source_credits_arrived = 0, removed = 0;
    bool moved = false;
  };
  // Pass's counts zeroed and its send() targets: the thread's own rows of the router wheel, and the node
  // wheel's slots (no share, or the caller's) or the share's own.
  void start_pass(Share* share);
  void end_pass(Share& share) const;
  void add_counts(const Share& share);  // a share's counts into the network's
  // The cycle's router events (wheel_) for the routers of nodes [begin, end) (whole blocks, or to the
  // last node), taken off the wheel.
  void arrive_due(int begin, int end);
  // Visits the awake routers of nodes [begin, end), in ascending order.
  void visit_routers(int begin, int end);
  [[gnu::always_inline]] inline bool visit_router(int node);  // its stages; whether it stays awake
  static void run_share(void* network, int thread);           // ThreadCrew's job
  // A cycle is split over the crew only with at least this many routers awake (or four times as many
  // events due): below, the handing over costs more than the second core gives. Measured on mcurie, two
  // threads against one (2026-12-06, since the wheel's rows by thread): the 128-PE all-to-all of 8 KiB
  // 7.4-8.3 s against 11.7 s; a 128-PE hot spot 1.9 s at 32 or more, 2.7-3.3 s at 8 or 1.
  static constexpr int64_t kThreadedWork = 64;
  std::vector<uint8_t> awake_;  // per node: its router may act this cycle (visited)
  // Per 8 nodes: 0 when none of their routers is awake, so a cycle's visits pass over 8 sleeping routers at
  // a time (a 532-node machine's 128-PE job scanned every node's byte each cycle: 9% of its instructions).
  // Set when one wakes, cleared by the visits that leave all 8 asleep; the threads' node ranges start at
  // multiples of 8 (split_step_), so no two threads write one byte.
  std::vector<uint8_t> awake_groups_;
  int64_t awake_count_ = 0;
  std::unique_ptr<ThreadCrew> crew_;
  // Thread k takes nodes [split_[k], split_[k + 1]). The caller's thread (0) also injects and runs the
  // interpreter, so its share follows the time: a few nodes more once it has had to wait for the others
  // in kSplitVotes more cycles than not, a few fewer in the other case (the results do not depend on
  // the split).
  std::vector<int> split_;
  int split_step_ = 8;                   // nodes: how far the split moves at a time (one block)
  static constexpr int kSplitVotes = 8;  // by this many more cycles of one side waiting than the other
  int split_votes_ = 0;
  uint64_t threaded_cycles_ = 0;
  void set_split(int caller_end);
  std::vector<Share> shares_;    // by thread
  bool threaded_cycle_ = false;  // this cycle is split over the crew
  // Whether to split a cycle large enough to split: timed, both ways in turn (SplitChooser), each cycle's
  // work counted as its events due, routers awake and sources injecting, and its time from begin_step()
  // to the end of end_step() (the interpreter's work between cycles is the same either way).
  bool timed_split_ = true;
  SplitChooser chooser_;
  double cycle_work_ = 0;  // this cycle's, when it is large enough to split (0: not timed)
  std::chrono::steady_clock::time_point cycle_began_;
  bool in_step_ = false;  // between begin_step() and end_step()
  // Owner injection (inject_on_owners): whether this cycle's threads inject for their own nodes, and in
  // how many split cycles they have.
  bool owner_injection_ = true;
  bool owner_cycle_ = false;
  uint64_t owner_cycles_ = 0;
  // Per thread, packet ids taken from the pool before the crew starts (the pool's records must not move
  // while other threads read them), at least one per active source.
  std::vector<std::vector<int>> stashes_;
  std::vector<uint8_t> remove_mark_;   // per node: its thread found it dry this cycle (owner injection)
  std::vector<uint64_t> listed_bits_;  // bit node: in active_sources_ (what a thread's injection walks)
  // Per node, the packet its thread made this cycle, whose route's coins are still to draw (owner
  // injection, when the routing draws: draws_), else -1.
  std::vector<int> made_packet_;
  bool draws_ = false;
  // Per pacer, the node whose messages it paced first; a second node's message makes it shared, and
  // owner injection stops for the run (the one-thread order of its readings within a cycle matters).
  std::vector<int> pacer_node_;
  bool shared_pacer_ = false;
  // add_message() and add_pacer() between begin_step() and end_step(): settled in end_step(), in order.
  struct Deferred {
    bool is_pacer;
    int src, dst, pacer, network, id;
    double value;  // the message's bytes, or the pacer's bytes a cycle
  };
  std::vector<Deferred> deferred_;
  int deferred_messages_ = 0, deferred_pacers_ = 0;
  void settle_message(int id, int src, int dst, double bytes, int pacer, int network, uint64_t at);
  void settle_deferred();
  // The blocks [first, last) of nodes [begin, end) (whole blocks, or to the last node): the buckets of a
  // wheel row arrive_due() and arrive_source_credits() take.
  std::pair<int, int> blocks_between(int begin, int end) const {
    const int n = config_.nodes();
    return {begin >> block_shift_, end == n ? ((n - 1) >> block_shift_) + 1 : end >> block_shift_};
  }
  // The cycle's source credits for the nodes of [begin, end) (whole blocks, or to the last node).
  void arrive_source_credits(int begin, int end);
  [[gnu::always_inline]] inline void arrive_source_credit(const Event& e);
  // One thread's injection: the active sources of nodes [begin, end), in node order, marking the dry
  // ones in remove_mark_; and the caller's for every node, in list order (taking the dry ones off at once).
  void inject_owned(int begin, int end);
  void inject_all();
  // After the threads' injection: the coins of the packets made (made_packet_) drawn and the marked
  // sources taken off active_sources_, in inject_all()'s order.
  void replay_visits();
  // The source wheel: source credits, in rows by writer and buckets by block as wheel_.
  std::vector<std::vector<Event>> source_wheel_;
  std::vector<uint64_t> source_events_;  // per slot
  std::vector<Event>* source_row(uint64_t cycle, int writer) {
    return &source_wheel_[((cycle & wheel_mask_) * static_cast<uint64_t>(writers_) + static_cast<uint64_t>(writer)) *
                          static_cast<uint64_t>(block_stride_)];
  }
  // The node wheel's slot of the deliveries a flit sent this cycle makes.
  std::vector<Event>& eject_slot() { return node_wheel_[(now_ + eject_delay_) & wheel_mask_]; }
  bool held_ = false, by_age_ = false, escape_wormhole_ = false;  // the stages' compiled variants
  // A router's own state that its stages and arrivals read at nearly every visit, together (one
  // address for all, in three cache lines, instead of one vector each).
  struct alignas(64) Router {
    int buffered = 0;          // flits buffered
    int unrouted = 0;          // idle input VCs holding a head to route
    int unallocated = 0;       // routed input VCs waiting for an output VC
    uint8_t asking_ports = 0;  // bit port: its asking mask is not empty
    // VC allocation found every routed VC's output VCs held, and since then no VC has been routed and
    // none freed, so it would find the same (congestion holds many routers so for long).
    bool vc_blocked = false;
    // While VC-blocked: at most the fewest credits a waiting packet needs of a free output VC
    // (cut-through, or an adaptive choice; the index keeps a lower bound); a free VC reaching it
    // unblocks the router. INT_MAX: none needs any.
    int vc_wake = std::numeric_limits<int>::max();
    // While VC-blocked: the output VCs its waiters look at (wait_bit: their escape VCs and, under
    // adaptive routing, the adaptive VC of every productive port). Only a change there (a VC freed, a
    // free VC's credits) can unblock the router.
    uint64_t vc_waits = 0;
    // The output VCs (wait_bit) freed, or gaining credits while free, since its last VC allocation.
    uint64_t changed = 0;
    // The index of closed VCs (indexed_; closed_ and waiters_ below): the closed input VCs (bit: local
    // index), the output VCs some closed VC waits on, and the fewest credits a closed VC needs of a free
    // one (kept low until none is closed).
    uint64_t closed_local = 0;
    uint64_t waited = 0;
    int closed_wake = std::numeric_limits<int>::max();
    // Switch allocation's round-robin pointers, each the one last served (the round goes on after it):
    // per output port, the input port; per input port, the output port and the VC.
    uint8_t sa_grant[kRouterPorts] = {}, sa_accept[kRouterPorts] = {}, sa_vc[kRouterPorts] = {};
    // Per input port, bit vc: the active VCs with a flit and a credit for it (asking for the switch).
    uint64_t asking[kRouterPorts] = {};
    // Per output port, bit vc: output VCs no packet holds (a routed VC that sees none of its own free
    // cannot be granted one, so VC allocation passes it over).
    uint64_t free[kRouterPorts] = {};
  };
  std::vector<Router> routers_;
  Router& router(int node) { return routers_[static_cast<size_t>(node)]; }
  const Router& router(int node) const { return routers_[static_cast<size_t>(node)]; }
  // Per input VC: what it waited for when it last found no output VC it could be granted (0: it found
  // one, or has not looked); VC allocation passes it over while none of what changed is in it.
  struct Closed {
    uint64_t waits = 0;                          // wait_bit of what it waits for
    int wake = std::numeric_limits<int>::max();  // the credits it needs of a free VC (Router::vc_wake)
  };
  std::vector<Closed> closed_;
  // The index of closed VCs (indexed_: fine_waits_ unless the constructor said no; with Router's
  // closed_local, waited and closed_wake): per router and output VC (wait_bit), the closed input VCs
  // that wait on it.
  std::vector<uint64_t> waiters_;
  bool fine_waits_ = true;
  bool indexed_ = true;
  // Switch allocation reads these, not the input VCs' records: per input VC, the output port of an
  // active one (set when granted).
  std::vector<uint8_t> active_out_;
  std::vector<uint8_t> local_port_;  // by router-local input VC: its port (a table: no division)
  std::vector<Source> sources_;
  std::vector<int> active_sources_;
  // Per node: the first cycle its inject() may do anything (kNever: not until a credit or a message
  // comes), so step() passes over the sources that wait (paced, out of credits, a packet still leaving).
  static constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();
  std::vector<uint64_t> source_wait_;
  SlotPool<Packet> packets_;
  SlotPool<Message> messages_;
  std::vector<Pacer> pacers_;
  // Events by cycle: a power of two of slots, so a cycle's slot is a mask. wheel_ holds the routers'
  // (flits, credits, releases), node_wheel_ the deliveries (the caller's thread takes them without
  // reading the routers'), source_wheel_ (above) the source credits.
  // A router slot is a row of buckets per writer (the thread whose routers, or whose injection, sent the
  // events: 0 the caller's), one bucket per block of split_step_ nodes receiving them. A thread then
  // reads only its own nodes' buckets and writes only its own row, so the cores pass each other only
  // the events that cross from one's nodes to the other's (one vector a slot, written by one thread and
  // read by the other, had the 532-PE all-to-all on two threads no faster than on one). A router's
  // events of one sending cycle arrive in the order one thread sends them (writer 0's routers come
  // before writer 1's); events sent at different cycles (a credit's delay and a hop's differ) may share
  // a slot in another order than they were sent, which changes nothing: a router's arrivals touch its
  // own state only, a flit's its input VC and a credit's its output VC, and credits add.
  std::vector<std::vector<Event>> wheel_;  // (slot x writers + writer) x block_stride_ + block
  std::vector<std::vector<Event>> node_wheel_;
  std::vector<uint64_t> slot_events_;  // router events in each slot of wheel_
  uint64_t wheel_mask_ = 0;
  int writers_ = 1;
  int block_shift_ = 3;   // a node's block: node >> block_shift_
  int block_stride_ = 8;  // buckets a row: the blocks, rounded up to 8 (a row's headers on cache lines of its own)
  std::vector<Event>* router_row(uint64_t cycle, int writer) {
    return &wheel_[((cycle & wheel_mask_) * static_cast<uint64_t>(writers_) + static_cast<uint64_t>(writer)) *
                   static_cast<uint64_t>(block_stride_)];
  }
  // From a flit's crossing of the switch (send), in cycles: its credit's return upstream (over the wire,
  // or the terminal channel to the node), its arrival at the next router (the rest of the pipeline and
  // the wire) or at its node (the pipeline and the terminal channel).
  uint64_t credit_delay_ = 0, source_credit_delay_ = 0, hop_delay_ = 0, eject_delay_ = 0;
  uint64_t inject_delay_ = 0;    // from a flit's injection to its arrival at the node's router
  uint64_t pending_events_ = 0;  // events on the wheel (counted at the end of step())
  std::vector<int> delivered_;
  std::vector<std::vector<uint64_t>> ejected_;  // per node, per period
  std::vector<char> dry_;                       // per period
  // Router-local VC allocator state, by router: round-robin pointers, each the one last served (the
  // round goes on after it).
  std::vector<uint16_t> va_grant_;   // per output VC: the input VC it was last granted to
  std::vector<uint16_t> va_accept_;  // per input VC: the output VC (of its port) it last took
  // Held switch ports (hold_switch), by router x 7 + port. Flit by flit: the VC holding an input port and
  // the input port holding an output port (-1: none). Whole-packet events: the cycle each input and
  // output port is free again.
  std::vector<int8_t> in_hold_, out_hold_;
  std::vector<uint64_t> in_free_, out_free_;
  Stats stats_;
  std::unique_ptr<VcRecorder> recorder_;  // record_vcs()
  // The recorder's hooks, kept out of the stages' code (cold, never inlined: a run that records nothing
  // pays one test each). A packet made on a node's injection VC; input VC `input` (global index) asking
  // from the next cycle; granted output VC `output` (global); the tail of `packet` leaving input VC
  // (in_port, in_local) of `node` for out_port at cycle `tail`.
  [[gnu::cold, gnu::noinline]] void record_made(int packet, int node, int vc);
  [[gnu::cold, gnu::noinline]] void record_ask(int input);
  [[gnu::cold, gnu::noinline]] void record_grant(int input, int in_port, int output);
  [[gnu::cold, gnu::noinline]] void record_tail(int node, int in_port, int in_local, int out_port, int out_local,
                                                int packet, uint64_t tail);
};

}  // namespace t3sim::core
