#include "sim/io/trace/shmem/shmem_trace_reader.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <filesystem>
#include <iterator>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "sim/io/files/input_file.hpp"
#include "sim/io/trace/common/trace_program.hpp"

namespace t3sim::io {
namespace {

using core::Call;
using core::Collective;
using core::OpKind;

constexpr double kWordBytes = 8;  // the T3E's E-registers move 64-bit words: a strided element is padded to them

struct Section {
  std::vector<int> pes;
  size_t file = 0;             // index into the bodies: 0 the trace itself, then files named by `pe ... from FILE`
  size_t first = 0, last = 0;  // its body: lines [first, last) of that file
};

// A file and its lines; kept in a deque, whose elements stay put as section files are added.
using Body = std::pair<std::string, std::vector<TraceLine>>;
using Bodies = std::deque<Body>;

// The collectives a SHMEM trace line may name with a size (barrier has a line of its own), by their names
// in core's table.
constexpr Collective kSizedCollectives[] = {Collective::Bcast,    Collective::Reduce, Collective::Allreduce,
                                            Collective::Alltoall, Collective::Gather, Collective::Scatter,
                                            Collective::Allgather};

std::optional<Collective> sized_collective(const std::string& op) {
  const auto kind = core::enum_value<Collective>(op);
  if (kind &&
      std::find(std::begin(kSizedCollectives), std::end(kSizedCollectives), *kind) != std::end(kSizedCollectives))
    return kind;
  return std::nullopt;
}

class Interpreter {
 public:
  Interpreter(const Bodies& bodies, TraceProgram& out) : bodies_(bodies), out_(out) {}

  // Runs lines [first, last) of body `file` for `pe` in measurement `iteration` with $size = size.
  void run(size_t file, size_t first, size_t last, int pe, int iteration, std::optional<double> size) {
    file_index_ = static_cast<int>(file);
    file_ = &bodies_[file].first;
    lines_ = &bodies_[file].second;
    pe_ = pe;
    iteration_ = iteration;
    size_ = size;
    block(first, last);
  }

 private:
  // The index of the `end` closing the `repeat` at line index i.
  size_t closing_end(size_t i, size_t last) const {
    int depth = 0;
    for (size_t j = i; j < last; ++j) {
      const std::string& op = (*lines_)[j].tokens[0].text;
      if (op == "repeat") ++depth;
      if (op == "end" && --depth == 0) return j;
    }
    LineReader(*file_, (*lines_)[i], 1).fail_line("has no closing 'end'");
  }

  // Empty or call-free repeats add no operation but still cost time: bound the lines and iterations run.
  void count_line(const LineReader& r) {
    if (++executed_ > 4 * out_.max_calls())
      r.fail_line(fmt::format("the trace runs more than {:.3g} lines (repeats multiply): too long to expand",
                              4 * out_.max_calls()));
  }

  void block(size_t first, size_t last) {
    for (size_t i = first; i < last; ++i) {
      const TraceLine& line = (*lines_)[i];
      LineReader r(*file_, line, 1);
      count_line(r);
      if (r.key() == "repeat") {
        const long n = r.integer(0, "repeat count", 0, 100000000);
        r.no_more_than(1);
        const size_t end = closing_end(i, last);
        for (long k = 0; k < n; ++k) {
          count_line(r);  // an empty body still costs an iteration
          block(i + 1, end);
        }
        i = end;
        continue;
      }
      if (r.key() == "end") r.fail_line("closes no 'repeat'");
      operation(r, line);
    }
  }

  int peer(const LineReader& r, size_t i) const {
    const std::string& text = r.at(i, "PE").text;
    const int pes = out_.pes();
    if (!text.empty() && (text[0] == '+' || text[0] == '-')) {
      const long k = r.integer(i, "relative PE", -pes + 1L, pes - 1L);
      return static_cast<int>(((pe_ + k) % pes + pes) % pes);
    }
    return static_cast<int>(r.integer(i, "PE (0 .. pes-1, or +k / -k from this PE)", 0, pes - 1L));
  }

  double bytes(const LineReader& r, size_t i, double min) const {
    if (r.at(i, "size").text == "$size") {
      if (!size_) r.fail(i, "$size needs a 'sizes' line in the header");
      return *size_;
    }
    const double b = r.quantity(i, "size", core::Quantity::Size, min, kMaxMessageBytes);
    if (b != static_cast<double>(static_cast<long long>(b))) r.fail(i, "must be a whole number of bytes");
    return b;
  }

  // key -> value options after `positional` arguments, each key one of `allowed`.
  std::map<std::string, size_t> options(const LineReader& r, size_t positional,
                                        const std::vector<std::string>& allowed) const {
    std::map<std::string, size_t> found;
    for (size_t i = positional; r.has(i); i += 2) {
      const std::string& key = r.at(i, "option").text;
      if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
        std::string list;
        for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
        r.fail(i, allowed.empty() ? "takes no options" : "unknown option (this operation takes: " + list + ")", key);
      }
      if (found.count(key)) r.fail(i, "option given twice", key);
      r.at(i + 1, "value of '" + key + "'");
      found[key] = i + 1;
    }
    return found;
  }

  core::NameId flag(const LineReader& r, size_t i) {
    const std::string& name = r.at(i, "flag name").text;
    if (!core::is_flag_name(name)) r.fail(i, core::kFlagNameRule, name);
    return out_.flag(name);
  }

  void operation(const LineReader& r, const TraceLine& line) {
    const std::string& op = r.key();
    TraceProgram::Where at{file_index_, line.number, op, iteration_};
    auto opts_of = [&](size_t positional, std::vector<std::string> allowed) {
      allowed.push_back("label");
      auto o = options(r, positional, allowed);
      if (o.count("label")) at.label = r.at(o["label"], "label").text;
      return o;
    };
    auto shmem = [&](OpKind kind, int peer, double bytes, core::NameId flag_id,
                     core::SignalOrder order = core::SignalOrder::OnArrival) {
      core::Op o;
      o.kind = kind;
      o.peer = peer;
      o.bytes = bytes;
      o.flag = flag_id;
      o.order = order;
      o.complete = false;  // shmem_put returns before delivery; quiet waits for it
      out_.shmem(pe_, o, at);
    };
    if (op == "put" || op == "get" || op == "iput" || op == "iget") {
      const bool strided = op[0] == 'i';
      const bool put = op == "put" || op == "iput";
      const size_t positional = strided ? 3 : 2;
      auto o = opts_of(positional, put ? std::vector<std::string>{"signal", "order"} : std::vector<std::string>{});
      const int p = peer(r, 0);
      double b = 0;
      if (strided) {
        const long count = r.integer(1, "element count", 1, static_cast<long>(kMaxMessageBytes));
        const double element = r.quantity(2, "element size", core::Quantity::Size, 1, 4096);
        b = static_cast<double>(count) * std::ceil(element / kWordBytes) * kWordBytes;
        if (b > kMaxMessageBytes) r.fail(1, "moves more than 1GiB");
      } else {
        b = bytes(r, 1, 1);
      }
      // A signal follows the data: the put, shmem_fence (or shmem_quiet: `order quiet`), then a flag put.
      core::SignalOrder order = core::SignalOrder::Fence;
      if (o.count("order")) {
        if (!o.count("signal")) r.fail(o["order"], "needs a signal", r.at(o["order"], "order").text);
        const std::string& text = r.at(o["order"], "order").text;
        if (text == "quiet")
          order = core::SignalOrder::Quiet;
        else if (text != "fence")
          r.fail(o["order"], "must be fence or quiet", text);
      }
      shmem(put ? OpKind::Put : OpKind::Get, p, b, o.count("signal") ? flag(r, o["signal"]) : core::kNoName, order);
    } else if (op == "signal") {  // a flag put: one word into PE's flag, which rises when it lands
      opts_of(2, {});
      const int p = peer(r, 0);
      shmem(OpKind::Put, p, core::kFlagWordBytes, flag(r, 1));
    } else if (op == "swap" || op == "cswap" || op == "fadd" || op == "finc") {
      opts_of(1, {});
      shmem(OpKind::Atomic, peer(r, 0), kWordBytes, core::kNoName);
    } else if (op == "quiet" || op == "fence") {
      opts_of(0, {});
      shmem(OpKind::Quiet, -1, 0, core::kNoName);
    } else if (op == "wait") {
      opts_of(1, {});
      shmem(OpKind::Wait, -1, 0, flag(r, 0));
    } else if (op == "compute") {
      core::Op o;
      o.kind = OpKind::Compute;
      if (r.has(1) && r.at(1, "unit").text == "flops") {
        opts_of(2, {});
        o.flops = r.number(0, "flops", 0, 1e18);
      } else {
        opts_of(1, {});
        o.seconds = r.quantity(0, "time (or: N flops)", core::Quantity::Time, 0, 1e6);
      }
      out_.shmem(pe_, o, at);
    } else if (op == "send" || op == "isend" || op == "recv" || op == "irecv") {
      auto o = opts_of(2, {"tag"});
      const bool send = op.find("send") != std::string::npos;
      // a receive may take `any` source (MPI_ANY_SOURCE) and `tag any` (MPI_ANY_TAG)
      const bool any_tag = !send && o.count("tag") && r.at(o["tag"], "tag").text == "any";
      const int tag = any_tag          ? core::kAnyTag
                      : o.count("tag") ? static_cast<int>(r.integer(o["tag"], "tag", 0, 1 << 30))
                                       : 0;
      const int from = !send && r.at(0, "PE").text == "any" ? core::kAnySource : peer(r, 0);
      out_.message(pe_, send ? Call::Kind::Send : Call::Kind::Recv, from, bytes(r, 1, 0), tag, op[0] != 'i', at);
    } else if (op == "waitall") {
      opts_of(0, {});
      out_.wait_all(pe_, at);
    } else if (op == "barrier") {
      opts_of(0, {});
      out_.collective(pe_, {Collective::Barrier, 0, 0, 0}, at);
    } else if (const auto kind = sized_collective(op)) {
      core::CollectiveCall c{*kind, 0, 0, 0};
      const bool rooted = *kind == Collective::Bcast || *kind == Collective::Reduce || *kind == Collective::Gather ||
                          *kind == Collective::Scatter;
      const bool combines = *kind == Collective::Reduce || *kind == Collective::Allreduce;
      std::vector<std::string> allowed;
      if (rooted) allowed.push_back("root");
      if (combines) allowed.push_back("flops");
      auto o = opts_of(1, allowed);
      c.bytes = bytes(r, 0, 0);
      if (o.count("root")) c.root = static_cast<int>(r.integer(o["root"], "root PE", 0, out_.pes() - 1L));
      if (o.count("flops")) c.comp_flops = r.number(o["flops"], "flops per combine", 0, 1e18);
      out_.collective(pe_, c, at);
    } else {
      const std::string near = closest_match(op, shmem_trace_operation_names());
      r.fail_line("unknown operation" + (near.empty() ? "" : " (did you mean '" + near + "'?)"));
    }
  }

  const Bodies& bodies_;
  int file_index_ = 0;
  const std::string* file_ = nullptr;
  const std::vector<TraceLine>* lines_ = nullptr;
  TraceProgram& out_;
  int pe_ = 0;
  int iteration_ = 0;
  std::optional<double> size_;
  double executed_ = 0;
};

std::vector<int> section_pes(const LineReader& r, int pes) {
  const std::string& spec = r.at(0, "PE list (all, N, A-B, or a comma-separated list of them)").text;
  if (r.has(1) && r.at(1, "").text != "from")
    r.fail(1, "a section is 'pe LIST' or 'pe LIST from FILE'", r.at(1, "").text);
  r.no_more_than(r.has(1) ? 3 : 1);
  std::vector<int> out;
  if (spec == "all") {
    for (int pe = 0; pe < pes; ++pe) out.push_back(pe);
    return out;
  }
  size_t start = 0;
  while (start <= spec.size()) {
    const size_t comma = std::min(spec.find(',', start), spec.size());
    const std::string item = spec.substr(start, comma - start);
    const size_t dash = item.find('-', 1);
    auto number = [&](const std::string& text) {
      if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos || text.size() > 9)
        r.fail(0, "PE list items are N or A-B with 0 <= A <= B < pes", spec);
      const int v = std::stoi(text);
      if (v >= pes) r.fail(0, fmt::format("PE {} is beyond the trace's {} PEs", v, pes), spec);
      return v;
    };
    const int a = number(item.substr(0, dash));
    const int b = dash == std::string::npos ? a : number(item.substr(dash + 1));
    if (b < a) r.fail(0, "a range A-B needs A <= B", spec);
    for (int pe = a; pe <= b; ++pe) out.push_back(pe);
    start = comma + 1;
  }
  return out;
}

}  // namespace

LoadedWorkload load_shmem_trace(const std::string& path, const core::MessageProtocols& protocols, int pes_override,
                                double size, double max_operations) {
  Bodies bodies{{path, read_trace_lines(path)}};
  const std::vector<TraceLine>& lines = bodies.front().second;
  if (lines.empty() || lines[0].tokens[0].text != kShmemTraceMagic)
    throw InputError({path, lines.empty() ? 0 : lines[0].number, 1}, kShmemTraceMagic,
                     "a SHMEM trace starts with the line 't3sim-trace 1'");
  LineReader magic(path, lines[0], 1);
  magic.integer(0, "format version", 1, 1);
  magic.no_more_than(1);

  LoadedWorkload out;
  std::string name = std::filesystem::path(path).stem().string(), doc;
  int pes = 0;
  std::vector<std::optional<double>> sizes;
  size_t i = 1;
  for (; i < lines.size() && lines[i].tokens[0].text != "pe"; ++i) {
    LineReader r(path, lines[i], 1);
    if (r.key() == "pes") {
      pes = static_cast<int>(r.integer(0, "PE count", 1, core::kMaxNodes * 8L));
      r.no_more_than(1);
      out.pes_pos = r.pos(0);
    } else if (r.key() == "name") {
      name = r.at(0, "name").text;
      r.no_more_than(1);
    } else if (r.key() == "doc") {
      for (size_t t = 1; t < lines[i].tokens.size(); ++t) doc += (doc.empty() ? "" : " ") + lines[i].tokens[t].text;
    } else if (r.key() == "sizes") {
      for (size_t t = 0; r.has(t); ++t)
        sizes.push_back(r.quantity(t, "size", core::Quantity::Size, 0, kMaxMessageBytes));
      if (sizes.empty()) r.fail(0, "missing sizes");
    } else {
      r.fail_line("unknown header line (header: pes, name, doc, sizes; then 'pe' sections)");
    }
  }
  if (pes == 0) throw InputError({path, lines[0].number, 1}, "pes", "the header must give 'pes N'");
  if (pes_override > 0) {
    pes = pes_override;
    out.pes_pos = {"--pes", 0, 0};
  }
  if (size > 0) sizes = {size};
  if (sizes.empty()) sizes.push_back(std::nullopt);

  std::vector<Section> sections;
  std::vector<int> section_line(static_cast<size_t>(pes), 0);
  for (; i < lines.size(); ++i) {
    if (lines[i].tokens[0].text != "pe") continue;
    LineReader r(path, lines[i], 1);
    Section s{section_pes(r, pes), 0, i + 1, i + 1};
    for (int pe : s.pes) {
      int& seen = section_line[static_cast<size_t>(pe)];
      if (seen) r.fail(0, fmt::format("PE {} already has a section (line {})", pe, seen));
      seen = lines[i].number;
    }
    while (s.last < lines.size() && lines[s.last].tokens[0].text != "pe") ++s.last;
    if (r.has(1)) {  // one file per PE (or per set of PEs): the body is that file, relative to this one
      if (s.last > s.first)
        LineReader(path, lines[s.first], 1).fail_line("a section read from a file has no lines of its own");
      const std::string body = path_beside(path, r.at(2, "file").text);
      bodies.push_back({body, read_trace_lines(body)});
      s.file = bodies.size() - 1;
      s.first = 0;
      s.last = bodies.back().second.size();
    }
    sections.push_back(std::move(s));
  }
  for (int pe = 0; pe < pes; ++pe)
    if (!section_line[static_cast<size_t>(pe)])
      throw InputError(
          {path, lines.back().number, 0}, "pe",
          fmt::format("PE {} of {} has no section (an idle PE needs an empty 'pe {}' section)", pe, pes, pe));

  std::vector<std::string> files;
  for (const Body& b : bodies) files.push_back(b.first);
  TraceProgram program(pes, files, max_operations);
  Interpreter interpreter(bodies, program);
  for (size_t it = 0; it < sizes.size(); ++it)
    for (const Section& s : sections)
      for (int pe : s.pes) interpreter.run(s.file, s.first, s.last, pe, static_cast<int>(it), sizes[it]);
  out.workload = program.finish(name, doc, protocols);
  return out;
}

}  // namespace t3sim::io
