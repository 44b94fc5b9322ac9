#include "sim/io/trace/ti/ti_trace_reader.hpp"

#include <filesystem>
#include <optional>

#include <fmt/format.h>

#include "sim/io/files/input_file.hpp"
#include "sim/io/trace/common/trace_program.hpp"
#include "sim/io/trace/ti/ti_rank_reader.hpp"

namespace t3sim::io {
namespace {

bool is_rank(const std::string& t) {
  return !t.empty() && t.size() <= 7 && t.find_first_not_of("0123456789") == std::string::npos;
}

int rank_of(const std::string& file, const TraceLine& line) {
  if (line.tokens.size() < 2 || !is_rank(line.tokens[0].text))
    throw InputError({file, line.number, line.tokens[0].column}, "rank",
                     "a time-independent trace line is 'RANK ACTION ARGUMENTS...'", line.tokens[0].text);
  return std::stoi(line.tokens[0].text);
}

// The rank that starts line `l`: read from the text for the usual form (digits, then a blank and more),
// the line tokenized (and its error located) only otherwise.
int rank_at(const TraceText& t, const TraceText::Line& l) {
  const std::string& text = t.text;
  size_t i = l.start;
  const size_t end = l.start + l.length;
  while (i < end && (text[i] == ' ' || text[i] == '\t')) ++i;
  const size_t digits = i;
  int rank = 0;
  while (i < end && i - digits < 7 && text[i] >= '0' && text[i] <= '9') rank = rank * 10 + (text[i++] - '0');
  const size_t next = text.find_first_not_of(" \t\r", i);  // the action
  const bool blank_then_more = i < end && (text[i] == ' ' || text[i] == '\t') && next < end && text[next] != '#';
  if (i > digits && blank_then_more) return rank;
  return rank_of(t.path, t.line(l));
}

}  // namespace

TiTraceText read_ti_trace_text(const std::string& path) {
  // Traces are kept as their text, 16 bytes a line besides (per_rank): texts[i] is files[i].
  std::vector<TraceText> texts;
  texts.push_back(read_trace_text(path, kMaxTraceBytes, false));  // a trace's lines are grouped, not listed
  std::optional<TraceText::Line> first_line;                      // tells a trace's lines from a list of files
  texts[0].for_each_line([&](const TraceText::Line& l) {
    if (!first_line) first_line = l;
  });
  if (!first_line) throw InputError({path, 0, 0}, "trace", "the trace is empty");
  std::vector<std::string> files{path};
  std::vector<std::vector<TiLine>> per_rank;
  // Groups the lines of texts[file] by the rank that starts them, scanning its text twice (counted
  // first, so that each rank's list is allocated once) rather than listing them all first.
  auto index = [&](int file) {
    const TraceText& t = texts[static_cast<size_t>(file)];
    std::vector<size_t> count;
    t.for_each_line([&](const TraceText::Line& l) {
      const int rank = rank_at(t, l);
      if (rank >= core::kMaxNodes * 8) throw InputError({t.path, l.number, 1}, "rank", "rank beyond t3sim's limit");
      if (static_cast<size_t>(rank) >= count.size()) count.resize(static_cast<size_t>(rank) + 1, 0);
      ++count[static_cast<size_t>(rank)];
    });
    if (per_rank.size() < count.size()) per_rank.resize(count.size());
    for (size_t rank = 0; rank < count.size(); ++rank) per_rank[rank].reserve(per_rank[rank].size() + count[rank]);
    t.for_each_line([&](const TraceText::Line& l) {
      per_rank[static_cast<size_t>(rank_at(t, l))].push_back({file, l});
    });
  };
  const TraceLine first = texts[0].line(*first_line);
  if (first.tokens.size() >= 2 && is_rank(first.tokens[0].text)) {
    index(0);
  } else {
    // A list of files: SimGrid's default writes one per rank, its ti-one-file option one holding every
    // rank's lines. Either way each line names its rank: lines are grouped by it, in file order.
    std::vector<TraceText::Line> listed;
    texts[0].for_each_line([&](const TraceText::Line& l) { listed.push_back(l); });
    for (const TraceText::Line& entry : listed) {
      const TraceLine line = texts[0].line(entry);
      if (line.tokens.size() != 1)
        throw InputError({path, line.number, 1}, "trace",
                         "neither a trace line ('RANK ACTION ...') nor the path of a file of them");
      // SimGrid writes the files' paths as seen from where the run started, often the trace's
      // own folder: relative paths are tried from the trace's folder, then from the current one.
      // The non-throwing form: a name the OS refuses (too long, say) is simply not there, and the
      // read below reports it as a missing file with its line.
      const std::string beside = path_beside(path, line.tokens[0].text);
      std::error_code ec;
      files.push_back(std::filesystem::exists(beside, ec) ? beside : line.tokens[0].text);
      texts.push_back(read_trace_text(files.back(), kMaxTraceBytes, false));
      index(static_cast<int>(texts.size()) - 1);
    }
  }
  const int ranks = static_cast<int>(per_rank.size());
  for (int rank = 0; rank < ranks; ++rank)
    if (per_rank[static_cast<size_t>(rank)].empty())
      throw InputError({path, 0, 0}, "rank",
                       fmt::format("rank {} has no actions, though ranks up to {} do", rank, ranks - 1));

  TiTraceText out;
  out.texts = std::move(texts);
  out.files = std::move(files);
  out.per_rank = std::move(per_rank);
  return out;
}

std::vector<TiRankReader> look_ahead(TraceProgram& program, const TiTraceText& trace, CollectivePlan* plan) {
  std::vector<TiRankReader> readers;
  std::vector<std::vector<CollectiveVote>> votes;
  readers.reserve(static_cast<size_t>(trace.ranks()));
  for (int rank = 0; rank < trace.ranks(); ++rank) {
    readers.emplace_back(program, rank, trace.texts, trace.per_rank[static_cast<size_t>(rank)]);
    votes.push_back(readers.back().take_votes());
  }
  *plan = plan_collectives(votes, program);
  return readers;
}

LoadedWorkload load_ti_trace(const std::string& path, const core::MessageProtocols& protocols, double max_operations,
                             bool strict) {
  TiTraceText trace = read_ti_trace_text(path);
  const int ranks = trace.ranks();
  TraceProgram program(ranks, trace.files, max_operations, strict);
  CollectivePlan plan;
  std::vector<TiRankReader> readers = look_ahead(program, trace, &plan);
  for (size_t rank = 0; rank < readers.size(); ++rank) {
    readers[rank].read(plan[rank]);
    std::vector<TiLine>().swap(trace.per_rank[rank]);  // read once: a large trace's index is tens of MB
  }
  readers.clear();
  std::vector<TraceText>().swap(trace.texts);  // the calls are made
  LoadedWorkload out;
  out.workload = program.finish(std::filesystem::path(path).stem().string(),
                                fmt::format("SimGrid time-independent trace of {} ranks", ranks), protocols);
  out.pes_pos = {path, 0, 0};
  out.account = program.account();
  return out;
}

}  // namespace t3sim::io
