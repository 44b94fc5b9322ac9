#include "sim/io/study/bench_suite.hpp"

#include <set>

#include "sim/core/routing/routing.hpp"
#include "sim/core/support/units.hpp"
#include "sim/io/files/input_error.hpp"
#include "sim/io/yaml/yaml_map.hpp"

namespace t3sim::io {
namespace {

bool is_id(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
  return true;
}

BenchCase read_case(const YAML::Node& node, const std::string& file, const std::string& path) {
  MapReader m(node, file, path);
  BenchCase c;
  c.name = m.string_at("name");
  if (!is_id(c.name))
    throw InputError(m.key_pos("name"), m.child_path("name"), "names are lower-case letters, digits and -", c.name);
  c.doc = m.string_at("doc");
  c.machine = existing_file_value(m.required("machine"), file, m.child_path("machine"));
  const auto workload = m.optional("workload");
  const auto trace = m.optional("trace");
  if (static_cast<bool>(workload) == static_cast<bool>(trace))
    throw InputError(pos_of(file, node), m.child_path("workload"), "give exactly one of 'workload' or 'trace'");
  if (workload) {
    c.workload = existing_file_value(*workload, file, m.child_path("workload"));
    c.pes = static_cast<int>(m.integer_at("pes", 2, 1 << 20));
    c.bytes = m.quantity_at("size", core::Quantity::Size);
  } else {
    c.trace = existing_file_value(*trace, file, m.child_path("trace"));
  }
  if (auto set = m.optional("set")) {
    MapReader vars(*set, file, m.child_path("set"));
    for (const std::string& k : vars.keys()) c.variables[k] = scalar_text(vars.lookup(k), file, vars.child_path(k));
  }
  if (auto chaotic = m.optional("chaotic")) c.chaotic = bool_value(*chaotic, file, m.child_path("chaotic"));
  if (auto is_long = m.optional("long")) c.long_running = bool_value(*is_long, file, m.child_path("long"));
  if (m.has("routing")) {
    c.routing = m.string_at("routing");
    if (!core::enum_value<core::RoutingKind>(c.routing))
      throw InputError(pos_of(file, m.node()["routing"]), m.child_path("routing"), "names no routing",
                       "'" + c.routing + "'");
  }
  if (m.has("driver")) {
    c.driver = m.string_at("driver");
    if (c.driver != "fast" && c.driver != "packet")
      throw InputError(m.key_pos("driver"), m.child_path("driver"),
                       "is fast or packet (the reference driver runs beside the fast one)", "'" + c.driver + "'");
  }
  if (auto peer = m.optional("peer")) {
    if (c.driver != "packet")
      throw InputError(m.key_pos("peer"), m.child_path("peer"),
                       "a peer's flits per second compare only with a packet case (driver: packet)");
    MapReader p(*peer, file, m.child_path("peer"));
    c.peer = p.string_at("name");
    c.peer_flits_per_s = static_cast<double>(p.integer_at("flits_per_s", 1, 1000000000000L));
    if (p.has("target")) c.speed_target = static_cast<double>(p.integer_at("target", 1, 1000000));
    if (p.has("config")) c.peer_config = existing_file_value(p.required("config"), file, p.child_path("config"));
    p.finish();
  }
  m.finish();
  return c;
}

}  // namespace

BenchSuite load_bench_suite(const std::string& path) {
  MapReader top = read_document(path);
  BenchSuite s;
  s.name = top.string_at("name");
  const YAML::Node list = sequence_value(top.required("cases"), path, "cases");
  if (list.size() == 0) throw InputError(pos_of(path, list), "cases", "must list at least one case");
  std::set<std::string> names;
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string key = "cases[" + std::to_string(i) + "]";
    s.cases.push_back(read_case(list[i], path, key));
    if (!names.insert(s.cases.back().name).second)
      throw InputError(pos_of(path, list[i]), key + ".name", "another case has this name", s.cases.back().name);
  }
  top.finish();
  return s;
}

}  // namespace t3sim::io
