#include "sim/io/ti_trace_reader.hpp"

#include <deque>
#include <filesystem>
#include <map>
#include <tuple>

#include <fmt/format.h>

#include "sim/io/input_file.hpp"
#include "sim/io/trace_program.hpp"

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

const std::vector<std::string>& action_names() {
  static const std::vector<std::string> names = {
      "init",      "finalize", "comm_size",  "comm_split", "comm_dup",      "location", "send",    "isend",
      "recv",      "irecv",    "wait",       "waitall",    "test",          "barrier",  "bcast",   "reduce",
      "allreduce", "alltoall", "gather",     "scatter",    "allgather",     "sendRecv", "compute", "sleep",
      "gatherv",   "scatterv", "allgatherv", "alltoallv",  "reducescatter", "scan",     "exscan"};
  return names;
}

constexpr size_t kNone = static_cast<size_t>(-1);  // no argument: a default applies

class RankReader {
 public:
  RankReader(TraceProgram& out, int rank) : out_(out), rank_(rank) {}

  void action(const std::string& file, int file_index, const TraceLine& line) {
    LineReader r(file, line, 2);
    const std::string& a = r.key();
    const TraceProgram::Where at{file_index, line.number, a, 0};
    auto partner = [&](size_t i) { return static_cast<int>(r.integer(i, "rank", 0, out_.pes() - 1L)); };
    auto count = [&](size_t i) { return r.number(i, "count", 0, 1e12); };
    auto type = [&](size_t i) {
      if (i == kNone || !r.has(i)) return default_type_;
      const long id = r.integer(i, "datatype number", 0, std::size(kTypeBytes) - 1L);
      if (kTypeBytes[id] == 0) r.fail(i, "datatype has no size", r.at(i, "").text);
      return kTypeBytes[id];
    };
    auto bytes = [&](size_t count_at, size_t type_at) {
      const double b = count(count_at) * type(type_at);
      if (b > kMaxMessageBytes) r.fail(count_at, "message larger than 1GiB");
      return b;
    };
    auto root = [&](size_t i) { return r.has(i) ? partner(i) : 0; };
    const size_t n = static_cast<size_t>(out_.pes());
    // n counts from argument `first`, in the type at argument `type_at` (kNone: the default type)
    auto blocks = [&](size_t first, size_t type_at) {
      std::vector<double> v;
      for (size_t q = 0; q < n; ++q) v.push_back(bytes(first + q, type_at));
      return v;
    };
    auto collective = [&](Collective kind, double b, double flops, int root_rank) {
      out_.collective(rank_, {kind, b, flops, root_rank}, at);
    };
    if (a == "init") {
      r.no_more_than(1);
      default_type_ = r.has(0) ? 8 : 1;  // SimGrid: any argument means MPI_DOUBLE (MPE traces), none MPI_BYTE
    } else if (a == "finalize" || a == "comm_size" || a == "comm_split" || a == "comm_dup" || a == "location" ||
               a == "test") {
      // no cost in SimGrid's replay either (a test leaves its request pending for a later wait)
    } else if (a == "send" || a == "isend" || a == "recv" || a == "irecv") {
      r.no_more_than(4);
      const bool send = a.find("send") != std::string::npos;
      // A receive from MPI_ANY_SOURCE or with MPI_ANY_TAG is written with a negative number
      const int written_source = send ? 0 : static_cast<int>(r.number(0, "rank", -1e9, 1e9));
      const int written_tag = send ? 0 : static_cast<int>(r.number(1, "tag", -1e9, 1e9));
      const bool any_source = !send && written_source < 0;
      const bool any_tag = !send && written_tag < 0;
      const int peer = any_source ? core::kAnySource : partner(0);
      const int tag = any_tag ? core::kAnyTag : static_cast<int>(r.integer(1, "tag", 0, 1L << 30));
      const int request =
          out_.message(rank_, send ? Call::Kind::Send : Call::Kind::Recv, peer, bytes(2, 3), tag, a[0] != 'i', at);
      if (a[0] == 'i')  // keyed as the trace's wait lines name it
        pending_[send ? Key{rank_, peer, tag}
                      : Key{any_source ? written_source : peer, rank_, any_tag ? written_tag : tag}]
            .push_back(request);
    } else if (a == "wait") {
      r.no_more_than(3);
      // the source and tag as the receive was posted (negative for a wildcard)
      const Key key{static_cast<int>(r.integer(0, "rank", -1000000000L, out_.pes() - 1L)), partner(1),
                    static_cast<int>(r.integer(2, "tag", -1000000000L, 1L << 30))};
      auto it = pending_.find(key);
      if (it == pending_.end() || it->second.empty()) return;  // as SimGrid: completed by an earlier test
      out_.wait_request(rank_, it->second.front(), at);
      it->second.pop_front();
    } else if (a == "waitall") {
      r.no_more_than(1);  // SimGrid's tracer writes the number of requests after it
      if (r.has(0)) r.integer(0, "request count", 0, 1L << 30);
      out_.wait_all(rank_, at);
      pending_.clear();
    } else if (a == "sendRecv") {
      r.no_more_than(6);
      const int to = partner(1), from = partner(3);
      const int s = out_.message(rank_, Call::Kind::Send, to, bytes(0, 4), 0, false, at);
      const int q = out_.message(rank_, Call::Kind::Recv, from, bytes(2, 5), 0, false, at);
      out_.wait_request(rank_, s, at);
      out_.wait_request(rank_, q, at);
    } else if (a == "barrier") {
      r.no_more_than(0);
      collective(Collective::Barrier, 0, 0, 0);
    } else if (a == "bcast") {
      r.no_more_than(3);
      collective(Collective::Bcast, bytes(0, 2), 0, root(1));
    } else if (a == "reduce") {
      r.no_more_than(4);
      collective(Collective::Reduce, bytes(0, 3), r.number(1, "flops", 0, 1e18), root(2));
    } else if (a == "allreduce") {
      r.no_more_than(3);
      collective(Collective::Allreduce, bytes(0, 2), r.number(1, "flops", 0, 1e18), 0);
    } else if (a == "alltoall" || a == "allgather") {
      r.no_more_than(4);
      count(1);
      collective(a == "alltoall" ? Collective::Alltoall : Collective::Allgather, bytes(0, 2), 0, 0);
    } else if (a == "gather" || a == "scatter") {
      r.no_more_than(5);
      count(1);
      collective(a == "gather" ? Collective::Gather : Collective::Scatter, bytes(0, 3), 0, root(2));
    } else if (a == "compute" || a == "sleep") {  // flops at the node's peak, or seconds
      r.no_more_than(1);
      core::Op op;
      op.kind = core::OpKind::Compute;
      (a == "compute" ? op.flops : op.seconds) = r.number(0, a == "compute" ? "flops" : "seconds", 0, 1e18);
      out_.shmem(rank_, op, at);
    } else if (a == "gatherv" || a == "allgatherv") {
      // SEND RECVCOUNTS[n] then, for gatherv, [ROOT [TYPE1 [TYPE2]]]; for allgatherv [TYPE1 TYPE2]
      // and displacements, which do not change what moves
      const bool all = a == "allgatherv";
      size_t type2 = all ? n + 2 : n + 3;
      if (all && r.has(2 * n + 1)) {
        r.no_more_than(2 * n + 3);  // types, then displacements
      } else if (all && r.has(n + 3)) {
        type2 = kNone;  // displacements without types: SimGrid's default type
        r.no_more_than(2 * n + 1);
      } else {
        r.no_more_than(type2 + 1);
      }
      core::CollectiveCall c{all ? Collective::Allgatherv : Collective::Gatherv, 0, 0, 0};
      c.bytes = bytes(0, type2 == kNone ? kNone : type2 - 1);
      c.recv_blocks = blocks(1, type2);
      if (!all) c.root = root(n + 1);
      out_.collective(rank_, c, at);
    } else if (a == "scatterv") {  // SENDCOUNTS[n] RECV [ROOT [TYPE1 [TYPE2]]]
      r.no_more_than(n + 4);
      core::CollectiveCall c{Collective::Scatterv, bytes(n, n + 3), 0, root(n + 1)};
      c.send_blocks = blocks(0, n + 2);
      out_.collective(rank_, c, at);
    } else if (a == "alltoallv") {  // SENDBUF SENDCOUNTS[n] RECVBUF RECVCOUNTS[n] [TYPE1 [TYPE2]]
      r.no_more_than(2 * n + 4);
      count(0);
      count(n + 1);
      core::CollectiveCall c{Collective::Alltoallv, 0, 0, 0};
      c.send_blocks = blocks(1, 2 * n + 2);
      c.recv_blocks = blocks(n + 2, 2 * n + 3);
      out_.collective(rank_, c, at);
    } else if (a == "reducescatter") {  // RECVCOUNTS[n] FLOPS [TYPE]
      r.no_more_than(n + 2);
      core::CollectiveCall c{Collective::ReduceScatter, 0, r.number(n, "flops", 0, 1e18), 0};
      c.recv_blocks = blocks(0, n + 1);
      out_.collective(rank_, c, at);
    } else if (a == "scan" || a == "exscan") {  // COUNT FLOPS [TYPE]
      r.no_more_than(3);
      collective(a == "scan" ? Collective::Scan : Collective::Exscan, bytes(0, 2), r.number(1, "flops", 0, 1e18), 0);
    } else {
      const std::string near = closest_match(a, action_names());
      r.fail_line("unknown action" + (near.empty() ? "" : " (did you mean '" + near + "'?)"));
    }
  }

 private:
  using Key = std::tuple<int, int, int>;  // (source, destination, tag) as SimGrid's wait names a request
  TraceProgram& out_;
  int rank_;
  double default_type_ = 1;
  std::map<Key, std::deque<int>> pending_;
};

bool is_rank(const std::string& t) {
  return !t.empty() && t.size() <= 7 && t.find_first_not_of("0123456789") == std::string::npos;
}

int rank_of(const std::string& file, const TraceLine& line) {
  if (line.tokens.size() < 2 || !is_rank(line.tokens[0].text))
    throw InputError({file, line.number, line.tokens[0].column}, "rank",
                     "a time-independent trace line is 'RANK ACTION ARGUMENTS...'", line.tokens[0].text);
  return std::stoi(line.tokens[0].text);
}

}  // namespace

double ti_datatype_bytes(int id) {
  return id >= 0 && id < static_cast<int>(std::size(kTypeBytes)) ? kTypeBytes[id] : 0;
}

LoadedWorkload load_ti_trace(const std::string& path, double eager_threshold, double max_operations) {
  const std::vector<TraceLine> master = read_trace_lines(path);
  if (master.empty()) throw InputError({path, 0, 0}, "trace", "the trace is empty");
  // (file index, lines) per rank
  std::vector<std::string> files{path};
  std::vector<std::vector<std::pair<int, const TraceLine*>>> per_rank;
  std::vector<std::vector<TraceLine>> rank_files;
  const bool shared = master[0].tokens.size() >= 2 && is_rank(master[0].tokens[0].text);
  if (shared) {
    for (const TraceLine& line : master) {
      const int rank = rank_of(path, line);
      if (rank >= core::kMaxNodes * 8) throw InputError({path, line.number, 1}, "rank", "rank beyond t3sim's limit");
      if (static_cast<size_t>(rank) >= per_rank.size()) per_rank.resize(static_cast<size_t>(rank) + 1);
      per_rank[static_cast<size_t>(rank)].push_back({0, &line});
    }
  } else {
    rank_files.reserve(master.size());
    for (const TraceLine& line : master) {
      if (line.tokens.size() != 1)
        throw InputError({path, line.number, 1}, "trace",
                         "neither a trace line ('RANK ACTION ...') nor the path of one rank's trace");
      // SimGrid writes the rank files' paths as seen from where the run started, often the trace's
      // own folder: relative paths are tried from the trace's folder, then from the current one.
      // The non-throwing form: a name the OS refuses (too long, say) is simply not there, and the
      // read below reports it as a missing file with its line.
      const std::string beside = path_beside(path, line.tokens[0].text);
      std::error_code ec;
      files.push_back(std::filesystem::exists(beside, ec) ? beside : line.tokens[0].text);
      rank_files.push_back(read_trace_lines(files.back()));
    }
    per_rank.resize(rank_files.size());
    for (size_t rank = 0; rank < rank_files.size(); ++rank)
      for (const TraceLine& line : rank_files[rank]) {
        if (rank_of(files[rank + 1], line) != static_cast<int>(rank))
          throw InputError({files[rank + 1], line.number, 1}, "rank",
                           fmt::format("this file is rank {}'s (line {} of {})", rank, rank + 1, path),
                           line.tokens[0].text);
        per_rank[rank].push_back({static_cast<int>(rank) + 1, &line});
      }
  }
  const int ranks = static_cast<int>(per_rank.size());
  for (int rank = 0; rank < ranks; ++rank)
    if (per_rank[static_cast<size_t>(rank)].empty())
      throw InputError({path, 0, 0}, "rank",
                       fmt::format("rank {} has no actions, though ranks up to {} do", rank, ranks - 1));

  TraceProgram program(ranks, files, max_operations);
  for (int rank = 0; rank < ranks; ++rank) {
    RankReader reader(program, rank);
    for (const auto& [file, line] : per_rank[static_cast<size_t>(rank)])
      reader.action(files[static_cast<size_t>(file)], file, *line);
  }
  LoadedWorkload out;
  out.workload = program.finish(std::filesystem::path(path).stem().string(),
                                fmt::format("SimGrid time-independent trace of {} ranks", ranks), eager_threshold);
  out.pes_pos = {path, 0, 0};
  return out;
}

}  // namespace t3sim::io
