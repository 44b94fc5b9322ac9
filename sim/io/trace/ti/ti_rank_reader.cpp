#include "sim/io/trace/ti/ti_rank_reader.hpp"

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <tuple>

#include <fmt/format.h>

namespace t3sim::io {
namespace {

using core::Call;
using core::Collective;

// SimGrid 3.32 numbers its predefined datatypes (src/smpi/mpi/smpi_datatype.cpp); sizes on LP64.
constexpr double kTypeBytes[] = {
    8,  4,  1,  2,  8,
    4,  1,  8,  1,  1,  // double int char short long float byte long_long signed_char unsigned_char
    2,  4,  8,  8,  16,
    4,  1,  1,  2,  4,  // ushort unsigned ulong ulong_long long_double wchar c_bool int8 int16 int32
    8,  1,  2,  4,  8,
    8,  16, 32, 8,  8,  // int64 uint8 uint16 uint32 uint64 c_float_complex .. aint offset
    8,  16, 16, 8,  8,
    8,  16, 16, 4,  4,  // float_int long_int double_int short_int 2int 2float 2double 2long real real4
    8,  16, 8,  16, 16,
    4,  2,  4,  8,  16,  // real8 real16 complex8 complex16 complex32 integer1..integer16
    32, 1,  8,  16, 32,
    0,  0,  1,  8,  8};  // long_double_int cxx_bool cxx complexes ub lb packed ptr count

// SimGrid writes MPI_UNDEFINED (-333) for a partner that is MPI_ANY_SOURCE or MPI_PROC_NULL, and
// MPI_ANY_TAG as -444; a derived datatype as -1.
constexpr int kUndefinedRank = -333;
constexpr int kDerivedType = -1;
constexpr int kAnyTagWritten = -444;               // MPI_ANY_TAG
constexpr size_t kNone = static_cast<size_t>(-1);  // no argument: a default applies

bool is_collective(const std::string& name) { return core::enum_value<Collective>(name).has_value(); }

const std::set<std::string> kSends = {"send", "isend", "Ssend", "ISsend", "bsend", "ibsend"};
const std::set<std::string> kNonblocking = {"isend", "ISsend", "ibsend", "irecv"};
const std::set<std::string> kQuiets = {"Win_flush",  "Win_flush_all",  "Win_flush_local", "Win_flush_local_all",
                                       "Win_unlock", "Win_unlock_all", "Win_complete"};

}  // namespace

double ti_datatype_bytes(int id) {
  return id >= 0 && id < static_cast<int>(std::size(kTypeBytes)) ? kTypeBytes[id] : 0;
}

struct TiRankReader::Line {
  Line(const std::string& file, int file_index, const TraceLine& line)
      : r(file, line, 2), a(r.key()), at{file_index, line.number, line.tokens[1].text, 0} {}
  LineReader r;
  const std::string& a;
  TraceProgram::Where at;
};

TiRankReader::TiRankReader(TraceProgram& out, int rank, const std::vector<TraceText>& texts,
                           const std::vector<TiLine>& lines)
    : out_(&out), rank_(rank), texts_(&texts), lines_(&lines) {
  // For `Start`: the tags of receives from itself, the Starts naming the caller and the waits and
  // tests of requests the caller receives: (line index, source as written, tag as written).
  const std::string me = std::to_string(rank_);
  std::vector<std::pair<size_t, std::string>> self_starts;
  std::vector<std::tuple<size_t, std::string, std::string>> receive_waits;
  for_each_line(
      [&](const Line& l) {
        if ((l.a == "recv" || l.a == "irecv") && l.r.has(1) && l.r.at(0, "rank").text == me)
          self_receive_tags_.insert(l.r.at(1, "tag").text);
        if (l.a == "Start" && l.r.has(1) && l.r.at(0, "rank").text == me)
          self_starts.push_back({line_index_, l.r.at(1, "tag").text});
        if ((l.a == "wait" || l.a == "test") && l.r.has(2) && l.r.at(1, "rank").text == me)
          receive_waits.emplace_back(line_index_, l.r.at(0, "rank").text, l.r.at(2, "tag").text);
      },
      {"recv", "irecv", "Start", "wait", "test"});  // the other lines are not tokenized for this pass
  // A persistent receive's source is the one its first wait or test after it names (SimGrid writes
  // the request's source there, though the Start line has only the receiver).
  std::vector<bool> claimed(receive_waits.size(), false);
  for (const auto& [index, tag] : self_starts) {
    if (self_receive_tags_.count(tag)) continue;  // a send to itself
    for (size_t w = 0; w < receive_waits.size(); ++w) {
      const auto& [at, source, wait_tag] = receive_waits[w];
      if (claimed[w] || at <= index || wait_tag != tag) continue;
      claimed[w] = true;
      start_sources_[index] = static_cast<int>(std::strtol(source.c_str(), nullptr, 10));
      break;
    }
  }
  std::map<TiRequests::Key, size_t> last_test;  // the latest test of each key not yet followed by a wait
  for_each_line([&](const Line& l) {
    look_ahead(l);
    if (l.a == "test" && l.r.has(2)) {
      last_test[request_key(l.r)] = line_index_;
    } else if (l.a == "wait" && l.r.has(2)) {
      last_test.erase(request_key(l.r));
    } else if (const auto k = post_key(l)) {  // a new request of k: the last test completed the old one
      const auto it = last_test.find(*k);
      if (it == last_test.end()) return;
      completing_tests_.insert(it->second);
      last_test.erase(it);
    }
  });
  for (const auto& [key, index] : last_test) completing_tests_.insert(index);
  default_type_ = 1;
}

namespace {
// The action of a line (its second word), read from the text without tokenizing it.
std::string_view action_of(const TraceText& t, const TraceText::Line& l) {
  const std::string_view line(t.text.data() + l.start, l.length);
  auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r'; };
  size_t i = 0;
  while (i < line.size() && blank(line[i])) ++i;
  while (i < line.size() && !blank(line[i])) ++i;  // the rank
  while (i < line.size() && blank(line[i])) ++i;
  const size_t from = i;
  while (i < line.size() && !blank(line[i]) && line[i] != '#') ++i;
  return line.substr(from, i - from);
}
}  // namespace

void TiRankReader::for_each_line(const std::function<void(const Line&)>& f, const std::vector<std::string_view>& only) {
  line_index_ = 0;
  for (const auto& [file, ref] : *lines_) {
    const TraceText& t = (*texts_)[static_cast<size_t>(file)];
    if (only.empty() || std::find(only.begin(), only.end(), action_of(t, ref)) != only.end()) {
      const TraceLine line = t.line(ref);  // tokenized on each pass: the rank's lines are not kept so
      f(Line(t.path, file, line));
    }
    ++line_index_;
  }
}

// The keys of the rank's posts and waits (for TiRequests) and its collectives (for plan_collectives). Parse
// errors surface here as they would in read(); warnings are left to read().
void TiRankReader::look_ahead(const Line& l) {
  const std::string& a = l.a;
  const LineReader& r = l.r;
  if (a == "init") {
    default_type_ = r.has(0) ? 8 : 1;
  } else if (kNonblocking.count(a) || a == "Start") {
    if (const auto k = post_key(l)) requests_.expect_post(*k);
  } else if (a == "wait") {
    requests_.expect_wait(request_key(r));
  } else {
    const bool nonblocking = a.size() > 1 && a[0] == 'i' && is_collective(a.substr(1));
    const std::string name = nonblocking ? a.substr(1) : a;
    const SourcePos at = r.pos(0);
    const std::string* file = &(*texts_)[static_cast<size_t>(l.at.file)].path;
    if (name == "Win_fence") {
      votes_.push_back({Collective::Barrier, 0, 0, file, at.line, at.column});
    } else if (is_collective(name)) {
      const core::CollectiveCall c = parse_collective(l, name, static_cast<size_t>(out_->pes()), rank_);
      votes_.push_back({c.kind, c.root, c.bytes, file, at.line, at.column});
    }
  }
}

double TiRankReader::type_bytes(const Line& l, size_t i) {
  if (i == kNone || !l.r.has(i)) return default_type_;
  const long id = l.r.integer(i, "datatype number", -1000000000L, 1000000000L);
  if (id < kDerivedType || id >= static_cast<long>(std::size(kTypeBytes)))
    l.r.fail(i, fmt::format("datatype number must be from 0 to {} (or -1, a derived type)", std::size(kTypeBytes) - 1),
             l.r.at(i, "").text);
  if (id == kDerivedType) {
    if (plan_)  // reading, not looking ahead
      out_->warn(l.r.pos(i), l.a,
                 fmt::format("a derived datatype (written -1) has no size in the trace: counted as {:g}-byte "
                             "elements (the trace's default type)",
                             default_type_));
    return default_type_;
  }
  if (kTypeBytes[id] == 0) l.r.fail(i, "datatype has no size", l.r.at(i, "").text);
  return kTypeBytes[id];
}

void TiRankReader::rebind(TraceProgram& out, const std::vector<TraceText>& texts, const std::vector<TiLine>& lines) {
  out_ = &out;
  texts_ = &texts;
  lines_ = &lines;
}

void TiRankReader::read(const std::vector<CollectiveInstance>& plan) {
  start_reading(plan);
  while (read_next()) {
  }
}

void TiRankReader::start_reading(const std::vector<CollectiveInstance>& plan) {
  plan_ = &plan;
  line_index_ = 0;
  collectives_read_ = 0;
}

bool TiRankReader::read_next() {
  if (line_index_ == lines_->size()) return false;
  const auto& [file, ref] = (*lines_)[line_index_];
  const TraceText& t = (*texts_)[static_cast<size_t>(file)];
  const TraceLine line = t.line(ref);
  const Line l(t.path, file, line);
  out_->begin_line();
  act(l);
  out_->end_line(l.at);
  ++line_index_;
  return true;
}

void TiRankReader::act(const Line& l) {
  const std::string& a = l.a;
  const LineReader& r = l.r;
  if (a == "init") {
    r.no_more_than(1);
    default_type_ = r.has(0) ? 8 : 1;  // SimGrid: any argument means MPI_DOUBLE (MPE traces), none MPI_BYTE
    out_->no_cost("init");
  } else if (a == "finalize" || a == "comm_size" || a == "comm_split" || a == "comm_dup" || a == "location" ||
             a == "iteration_in" || a == "iteration_out") {
    out_->no_cost(a);                           // markers: no cost in SimGrid's replay either
  } else if (a == "compute" || a == "sleep") {  // flops at the node's peak, or seconds
    r.no_more_than(1);
    core::Op op;
    op.kind = core::OpKind::Compute;
    (a == "compute" ? op.flops : op.seconds) = r.number(0, a == "compute" ? "flops" : "seconds", 0, 1e18);
    out_->shmem(rank_, op, l.at);
  } else if (kSends.count(a) || a == "recv" || a == "irecv" || a == "Start" || a == "sendRecv") {
    point_to_point(l);
  } else if (a == "wait" || a == "waitAny" || a == "waitall" || a == "Startall" || a.rfind("test", 0) == 0) {
    completion(l);
  } else if (a.rfind("Win_", 0) == 0 || a == "Put" || a == "Get" || a == "Rput" || a == "Rget" ||
             a.find("ccumulate") != std::string::npos || a == "Compare_and_swap") {
    one_sided(l);
  } else if (a == "IO") {  // IO - NAME BYTES
    out_->warn(r.pos(1), "IO",
               "MPI-IO is not modelled yet (the file I/O model is not wired to traces): the call is replayed without "
               "cost");
    out_->no_cost("IO (MPI-IO, not modelled)");
  } else if (a == "migrate") {
    r.number(0, "bytes", 0, 1e18);
    out_->warn(r.pos(0), a, "AMPI migration is not modelled: replayed without cost");
    out_->no_cost("migrate (AMPI, not modelled)");
  } else if (!collective(l)) {
    const std::string near = closest_match(a, ti_action_names());
    r.fail_line("unknown action" + (near.empty() ? "" : " (did you mean '" + near + "'?)"));
  }
}

void TiRankReader::point_to_point(const Line& l) {
  const std::string& a = l.a;
  const LineReader& r = l.r;
  const long last_rank = out_->pes() - 1L;
  auto bytes = [&](size_t count_at, size_t type_at) {
    const double b = r.number(count_at, "count", 0, 1e12) * type_bytes(l, type_at);
    if (b > kMaxMessageBytes) r.fail(count_at, "message larger than 1GiB");
    return b;
  };
  if (a == "sendRecv") {  // SENDCOUNT DST RECVCOUNT SRC [STYPE [RTYPE]]: no tags written
    r.no_more_than(6);
    const int to = static_cast<int>(r.integer(1, "rank", 0, last_rank));
    const int from = static_cast<int>(r.integer(3, "rank", 0, last_rank));
    // Matched as SimGrid's replay matches it: both halves with tag 0 (a partner's tagged send or
    // receive does not match it: an error naming the call, where SimGrid's replay would hang).
    const int s = out_->message(rank_, Call::Kind::Send, to, bytes(0, 4), 0, false, l.at);
    const int q = out_->message(rank_, Call::Kind::Recv, from, bytes(2, 5), 0, false, l.at);
    out_->wait_request(rank_, s, l.at);
    out_->wait_request(rank_, q, l.at);
    return;
  }
  r.no_more_than(4);
  const bool start = a == "Start";
  const int written_peer = static_cast<int>(r.integer(0, "rank", -1000000000L, 1000000000L));
  if (written_peer > last_rank)
    r.fail(0, fmt::format("rank must be from 0 to {} (or -333: MPI_ANY_SOURCE, MPI_PROC_NULL)", last_rank),
           r.at(0, "").text);
  const int written_tag = static_cast<int>(r.integer(1, "tag", -1000000000L, 1L << 30));
  // Start PEER TAG BYTES TYPE: BYTES are bytes, PEER the destination: the caller itself for a receive
  const bool send = kSends.count(a) || (start && !starts_receive(l));
  const bool nonblocking = start || kNonblocking.count(a);
  const double b = start ? r.number(2, "bytes", 0, kMaxMessageBytes) : bytes(2, 3);
  if (start && r.has(3)) type_bytes(l, 3);  // checked, not used
  if (send) {
    if (written_peer == kUndefinedRank) return out_->no_cost("send to MPI_PROC_NULL (written -333)");
    if (written_peer < 0)
      r.fail(0, fmt::format("rank must be from 0 to {} (or -333: MPI_PROC_NULL)", last_rank), r.at(0, "").text);
    if (written_tag < 0) r.fail(1, "a send's tag must be from 0 to 1073741824");
    const Call::Mode mode = a == "Ssend" || a == "ISsend"   ? Call::Mode::Synchronous
                            : a == "bsend" || a == "ibsend" ? Call::Mode::Buffered
                                                            : Call::Mode::Standard;
    const int request = out_->message(rank_, Call::Kind::Send, written_peer, b, written_tag, !nonblocking, l.at, mode);
    if (nonblocking) {
      requests_.post(*post_key(l), request);
      receive_.resize(static_cast<size_t>(request) + 1);
    }
    return;
  }
  // A receive: a negative source is any source (-333 also stands for MPI_PROC_NULL: such a receive
  // that no send is left for completes at once), a negative tag any tag.
  const int source = start ? start_source() : written_peer;
  if (start && source == kUndefinedRank)
    out_->warn(r.pos(0), a,
               "a persistent receive's source is not in the trace (SimGrid writes the receiver, and no later wait "
               "or test names it): replayed as a receive from any source");
  const int peer = source < 0 ? core::kAnySource : source;
  const int tag = written_tag < 0 ? core::kAnyTag : written_tag;
  const int request = out_->message(rank_, Call::Kind::Recv, peer, b, tag, !nonblocking, l.at, Call::Mode::Standard,
                                    source == kUndefinedRank && nonblocking);
  if (nonblocking) {
    requests_.post(*post_key(l), request);
    receive_.resize(static_cast<size_t>(request) + 1);
    receive_[static_cast<size_t>(request)] = true;
  }
}

// `Start PEER TAG ...` names the request's destination: the partner for a send, the caller itself for a
// receive. A Start naming the caller is a send to itself when the rank receives from itself with that
// tag, else a receive.
bool TiRankReader::starts_receive(const Line& l) const {
  return l.r.at(0, "rank").text == std::to_string(rank_) && !self_receive_tags_.count(l.r.at(1, "tag").text);
}

void TiRankReader::wait_for(const std::vector<int>& requests, const TraceProgram::Where& at) {
  // receives first, then sends, as a waitall completes them (the message layer's progress rule)
  for (const bool receives : {true, false})
    for (const int q : requests)
      if (receive_[static_cast<size_t>(q)] == receives) out_->wait_request(rank_, q, at);
}

// The source of the persistent receive the current line starts (kUndefinedRank: not known).
int TiRankReader::start_source() const {
  const auto it = start_sources_.find(line_index_);
  return it == start_sources_.end() ? kUndefinedRank : it->second;
}

// The key a nonblocking call posts its request under, as the rank's waits will name it: (the caller,
// the destination, the tag) for a send, none for a send to MPI_PROC_NULL (it posts nothing); (the
// source, the caller, the tag) for a receive, all as written.
std::optional<TiRequests::Key> TiRankReader::post_key(const Line& l) const {
  const std::string& a = l.a;
  if (!kNonblocking.count(a) && a != "Start") return std::nullopt;
  const auto number = [&](size_t i) { return static_cast<int>(l.r.number(i, "rank or tag", -1e9, 1e9)); };
  const int peer = number(0), tag = number(1);
  if (a == "irecv" || (a == "Start" && starts_receive(l)))
    return TiRequests::Key{a == "Start" ? start_source() : peer, rank_, tag};
  if (peer == kUndefinedRank) return std::nullopt;
  return TiRequests::Key{rank_, peer, tag};
}

// SRC DST TAG as the request was posted (negative: a wildcard, MPI_PROC_NULL).
TiRequests::Key TiRankReader::request_key(const LineReader& r) const {
  const auto number = [&](size_t i, const char* what) {
    return static_cast<int>(r.integer(i, what, -1000000000L, i == 2 ? 1L << 30 : out_->pes() - 1L));
  };
  return {number(0, "rank"), number(1, "rank"), number(2, "tag")};
}

void TiRankReader::completion(const Line& l) {
  const std::string& a = l.a;
  const LineReader& r = l.r;
  if (a == "wait") {
    r.no_more_than(3);
    const TiRequests::Key key = request_key(r);
    const int request = requests_.wait(key);
    if (request >= 0) return out_->wait_request(rank_, request, l.at);
    // SimGrid's own requests carry negative tags of its own (a program's are >= 0): a nonblocking
    // collective's names one rank twice (the caller's, or -333), a one-sided call's its two ranks
    if (std::get<2>(key) < 0 && std::get<2>(key) != kAnyTagWritten)
      return out_->no_cost(std::get<0>(key) == std::get<1>(key)
                               ? "wait of a nonblocking collective (replayed at its call)"
                               : "wait of a one-sided request (replayed at its call)");
    return out_->no_cost("wait for a request no call left pending");
  }
  if (a == "test" && completing_tests_.count(line_index_)) {  // where the request completed
    r.no_more_than(3);
    const int request = requests_.complete(request_key(r));
    if (request < 0) return out_->no_cost("test of a request no call left pending");
    return out_->wait_request(rank_, request, l.at);
  }
  if (a == "test" || a == "testany" || a == "testall" || a == "testsome") {
    r.no_more_than(a == "test" ? 3 : 0);
    return out_->no_cost(a == "test" ? "test (a later test or wait of its request completes it)"
                                     : a + " (its requests stay pending for a later wait)");
  }
  if (a == "Startall") {
    r.no_more_than(0);
    out_->warn(r.pos(0), a, "the trace does not say which persistent requests Startall starts: none is replayed");
    return out_->no_cost("Startall (its requests are not in the trace)");
  }
  r.no_more_than(1);  // waitAny COUNT, waitall [COUNT]
  const size_t count =
      r.has(0) ? static_cast<size_t>(r.integer(0, "request count", 0, 1L << 30)) : std::numeric_limits<size_t>::max();
  const std::vector<int> done = requests_.complete_unnamed(a == "waitAny" ? std::min<size_t>(count, 1) : count);
  if (done.empty()) return out_->no_cost(a + " covering no request (none pending that no later wait names)");
  if (a == "waitAny")
    out_->warn(r.pos(0), a,
               "the trace does not say which request completed: t3sim waits for the oldest pending one that no "
               "later wait names");
  wait_for(done, l.at);
}

void TiRankReader::one_sided(const Line& l) {
  const std::string& a = l.a;
  const LineReader& r = l.r;
  core::Op op;
  op.pe = rank_;
  if (a == "Win_fence") {  // collective over the window's group
    r.no_more_than(0);
    return run_collective({Collective::Barrier, 0, 0, 0}, l.at);
  }
  if (kQuiets.count(a)) {  // completes the rank's puts: shmem_quiet
    r.no_more_than(0);
    op.kind = core::OpKind::Quiet;
    return out_->shmem(rank_, op, l.at);
  }
  if (a == "Win_lock" || a == "Win_lock_all") {
    r.no_more_than(0);
    return out_->no_cost("Win_lock (waiting for another rank's lock is not modelled)");
  }
  if (a == "Win_post" || a == "Win_start" || a == "Win_wait") {
    r.no_more_than(0);
    out_->warn(r.pos(0), a, "the trace names no group for post/start/complete/wait: replayed without cost");
    return out_->no_cost(a + " (its group is not in the trace)");
  }
  if (a.rfind("Win_", 0) == 0) {
    const std::string near = closest_match(a, ti_action_names());
    r.fail_line("unknown action" + (near.empty() ? "" : " (did you mean '" + near + "'?)"));
  }
  // NAME TARGET 0 COUNT TYPE: TARGET is the rank in the window's communicator, taken to be the world
  r.no_more_than(4);
  op.peer = static_cast<int>(r.integer(0, "rank", 0, out_->pes() - 1L));
  op.bytes = r.number(2, "count", 0, 1e12) * type_bytes(l, 3);
  if (op.bytes > kMaxMessageBytes) r.fail(2, "message larger than 1GiB");
  if (a == "Get" || a == "Rget") {
    op.kind = core::OpKind::Get;  // a SHMEM get: the rank waits for the data
  } else if (a == "Put" || a == "Rput" || a == "Accumulate" || a == "Raccumulate") {
    op.kind = core::OpKind::Put;  // completes at the next flush, unlock, complete or fence
    op.complete = false;
  } else {
    op.kind = core::OpKind::Atomic;  // Get_accumulate, Fetch_and_op, Compare_and_swap: a round trip
  }
  out_->shmem(rank_, op, l.at);
}

core::CollectiveCall TiRankReader::parse_collective(const Line& l, const std::string& name, size_t n, size_t self) {
  const LineReader& r = l.r;
  auto count = [&](size_t i) { return r.number(i, "count", 0, 1e12); };
  auto bytes = [&](size_t count_at, size_t type_at) {
    const double b = count(count_at) * type_bytes(l, type_at);
    if (b > kMaxMessageBytes) r.fail(count_at, "message larger than 1GiB");
    return b;
  };
  auto root = [&](size_t i) { return r.has(i) ? static_cast<int>(r.integer(i, "rank", 0, n - 1L)) : 0; };
  auto blocks = [&](size_t first, size_t type_at) {  // n counts from `first`
    std::vector<double> v;
    for (size_t q = 0; q < n; ++q) v.push_back(bytes(first + q, type_at));
    return v;
  };
  auto flops = [&](size_t i) { return r.number(i, "flops", 0, 1e18); };
  size_t args = 0;
  while (r.has(args)) ++args;
  const Collective kind = *core::enum_value<Collective>(name);
  core::CollectiveCall c{kind, 0, 0, 0};
  switch (kind) {
    case Collective::Barrier:
      r.no_more_than(0);
      break;
    case Collective::Bcast:  // COUNT [ROOT [TYPE]]
      r.no_more_than(3);
      c.bytes = bytes(0, 2);
      c.root = root(1);
      break;
    case Collective::Reduce:  // COUNT FLOPS [ROOT [TYPE]]
      r.no_more_than(4);
      c.bytes = bytes(0, 3);
      c.comp_flops = flops(1);
      c.root = root(2);
      break;
    case Collective::Allreduce:
    case Collective::Scan:
    case Collective::Exscan:  // COUNT FLOPS [TYPE]
      r.no_more_than(3);
      c.bytes = bytes(0, 2);
      c.comp_flops = flops(1);
      break;
    case Collective::Alltoall:
    case Collective::Allgather:  // SEND [RECV] [STYPE [RTYPE]]: 3.32 leaves RECV out when it is 0, and then
      r.no_more_than(4);         // SEND is 0 too in a correct program: the type is at 2 either way
      if (r.has(1)) count(1);
      c.bytes = bytes(0, 2);
      break;
    case Collective::Gather:
    case Collective::Scatter: {
      // 3.32: SEND [RECV] ROOT STYPE RTYPE (RECV left out when 0, e.g. off the gather's root);
      // older traces: SEND RECV [ROOT [TYPE]]
      r.no_more_than(5);
      const bool recv_written = args != 4;
      const size_t at_root = recv_written ? 2 : 1, send_type = recv_written ? 3 : 2;
      c.root = root(at_root);
      const double recv = recv_written && r.has(1) ? bytes(1, recv_written ? 4 : kNone) : 0;
      c.bytes = kind == Collective::Gather || recv == 0 ? bytes(0, send_type) : recv;
      break;
    }
    case Collective::Gatherv:
    case Collective::Allgatherv: {
      // SEND RECVCOUNTS[n] then, for gatherv, [ROOT [TYPE1 [TYPE2]]]; for allgatherv [TYPE1 TYPE2]
      // and displacements, which do not change what moves. With MPI_IN_PLACE SimGrid 3.32 leaves SEND
      // out (RECVCOUNTS[n] [ROOT] TYPE1 TYPE2): the rank's own block is its receive count.
      const bool all = kind == Collective::Allgatherv;
      if (args == (all ? n + 2 : n + 3)) {
        c.recv_blocks = blocks(0, all ? n + 1 : n + 2);
        if (!all) c.root = root(n);
        c.bytes = c.recv_blocks[self];
        break;
      }
      size_t type2 = all ? n + 2 : n + 3;
      if (all && r.has(2 * n + 1)) {
        r.no_more_than(2 * n + 3);  // types, then displacements
      } else if (all && r.has(n + 3)) {
        type2 = kNone;  // displacements without types: SimGrid's default type
        r.no_more_than(2 * n + 1);
      } else {
        r.no_more_than(type2 + 1);
      }
      c.bytes = bytes(0, type2 == kNone ? kNone : type2 - 1);
      c.recv_blocks = blocks(1, type2);
      if (!all) c.root = root(n + 1);
      break;
    }
    case Collective::Scatterv:  // SENDCOUNTS[n] RECV [ROOT [TYPE1 [TYPE2]]]
      if (args == n + 3) {      // 3.32 at an MPI_IN_PLACE root: RECV left out
        c.send_blocks = blocks(0, n + 1);
        c.root = root(n);
        c.bytes = c.send_blocks[self];
        break;
      }
      r.no_more_than(n + 4);
      c.bytes = bytes(n, n + 3);
      c.root = root(n + 1);
      c.send_blocks = blocks(0, n + 2);
      break;
    case Collective::Alltoallv:  // SENDBUF SENDCOUNTS[n] RECVBUF RECVCOUNTS[n] [TYPE1 [TYPE2]]
      r.no_more_than(2 * n + 4);
      count(0);
      count(n + 1);
      c.send_blocks = blocks(1, 2 * n + 2);
      c.recv_blocks = blocks(n + 2, 2 * n + 3);
      break;
    case Collective::ReduceScatter: {
      // MPI_Reduce_scatter: RECVCOUNTS[n] FLOPS [TYPE]. SimGrid 3.32 writes MPI_Reduce_scatter_block
      // as RECVCOUNT zeros and the type (no flops: its smpi_pmpi_coll.cpp builds vector<int>(recvcount)),
      // so a line of zeros of any other length is that: RECVCOUNT = the number of zeros.
      bool zeros = args >= 2;
      for (size_t i = 0; i + 1 < args && zeros; ++i) zeros = r.at(i, "count").text == "0";
      if (zeros && args != n + 1 && args != n + 2) {
        const double block = static_cast<double>(args - 1) * type_bytes(l, args - 1);
        c.recv_blocks.assign(n, block);
        break;
      }
      r.no_more_than(n + 2);
      c.comp_flops = flops(n);
      c.recv_blocks = blocks(0, n + 1);
      break;
    }
  }
  return c;
}

bool TiRankReader::collective(const Line& l) {
  const std::string& a = l.a;
  const bool nonblocking = a.size() > 1 && a[0] == 'i' && is_collective(a.substr(1));
  if (!nonblocking && !is_collective(a)) return false;
  const std::string name = nonblocking ? a.substr(1) : a;
  const auto& group = (*plan_)[collectives_read_].group;
  const size_t world = static_cast<size_t>(out_->pes());
  core::CollectiveCall c;
  bool counts_of_the_job = false;
  if (group) {
    // SimGrid writes a vector collective's counts one per rank of its communicator: the group's
    // size, and the rank's place in it; a line that does not read so is read as the job's
    try {
      const auto self = std::lower_bound(group->begin(), group->end(), rank_) - group->begin();
      c = parse_collective(l, name, group->size(), static_cast<size_t>(self));
    } catch (const InputError&) {
      c = parse_collective(l, name, world, static_cast<size_t>(rank_));
      counts_of_the_job = !c.send_blocks.empty() || !c.recv_blocks.empty();
    }
  } else {
    c = parse_collective(l, name, world, static_cast<size_t>(rank_));
  }
  if (nonblocking)
    out_->warn(l.r.pos(0), a,
               "a nonblocking collective is replayed as blocking at its call (its overlap with later work is lost; "
               "the wait that completes it costs nothing)");
  if (counts_of_the_job)
    out_->warn(l.r.pos(0), a,
               "a vector collective only some ranks run, whose counts do not read as one per rank of them: read as "
               "one per rank of the job (sizes may be misread)");
  run_collective(std::move(c), l.at);
  return true;
}

void TiRankReader::run_collective(core::CollectiveCall c, const TraceProgram::Where& at) {
  const CollectiveInstance& instance = (*plan_)[collectives_read_++];
  if (c.kind == Collective::Gather || c.kind == Collective::Scatter) c.bytes = instance.bytes;
  static const std::vector<int> kEveryRank;
  out_->collective_instance(rank_, c, at, instance.group ? *instance.group : kEveryRank, instance.id);
}

}  // namespace t3sim::io
