#include <gtest/gtest.h>

#include <fstream>

#include "rejection_case.hpp"
#include "sim/io/workload/workload_loader.hpp"

using namespace t3sim;
using t3sim::test::RejectionCase;

namespace {
std::string data(const std::string& name) { return std::string(T3SIM_TEST_DATA) + "/workload/" + name; }
}  // namespace

TEST(WorkloadLoader, ExpandsSizesAndVariables) {
  const auto w = io::load_workload(data("valid.yaml")).workload;
  EXPECT_EQ(w.pes, 4);
  ASSERT_EQ(w.ops.size(), 12u);  // 6 steps x 2 sizes
  EXPECT_EQ(w.ops[0].kind, core::OpKind::Get);
  EXPECT_EQ(w.ops[0].peer, 3);
  EXPECT_DOUBLE_EQ(w.ops[0].bytes, 8);
  EXPECT_DOUBLE_EQ(w.ops[6].bytes, 1024);
  EXPECT_EQ(w.ops[6].iteration, 1);
  EXPECT_FALSE(w.ops[1].complete);
  EXPECT_EQ(w.labels.name(w.ops[2].label), "quiet2");
  EXPECT_EQ(w.ops[5].pe, core::kAllPes);
  EXPECT_EQ(w.program_of(3).size(), 4u);  // its compute and the barrier, once per size
}

TEST(WorkloadLoader, SetOverridesVariable) {
  const auto w = io::load_workload(data("valid.yaml"), {{"peer", "2"}}).workload;
  EXPECT_EQ(w.ops[0].peer, 2);
}

TEST(WorkloadLoader, EveryWorkloadFileLoads) {
  for (const char* f : {"newsletter-shmem-get.yaml", "put-get-sweep.yaml", "pstswm-swap.yaml"}) {
    const auto w = io::load_workload(std::string(T3SIM_SOURCE_DIR) + "/workloads/" + f).workload;
    EXPECT_FALSE(w.ops.empty()) << f;
  }
}

class WorkloadRejects : public testing::TestWithParam<RejectionCase> {};

TEST_P(WorkloadRejects, WithLocatedMessage) {
  const RejectionCase& c = GetParam();
  t3sim::test::expect_rejected([&] { io::load_workload(data(c.rule + ".yaml")); }, c);
}

INSTANTIATE_TEST_SUITE_P(
    Rules, WorkloadRejects,
    testing::Values(
        RejectionCase{"unknown_op",
                      "unknown_op.yaml:[0-9]+:[0-9]+: steps\\[2\\].op: unknown operation; did you mean 'quiet'"},
        RejectionCase{"pe_out_of_range", "steps\\[3\\].pe: must be between 0 and 3 \\(got '4'\\)"},
        RejectionCase{"zero_bytes", "steps\\[0\\].bytes: must be a whole number of bytes from 1B to 1GiB"},
        RejectionCase{"huge_bytes", "steps\\[0\\].bytes: must be a whole number of bytes from 1B to 1GiB"},
        RejectionCase{"sizes_negative",
                      "sizes_negative.yaml:[0-9]+:[0-9]+: sizes\\[1\\]: must be a whole number of bytes from 1B to "
                      "1GiB \\(got -64KiB\\)"},
        RejectionCase{"sizes_huge",
                      "sizes\\[1\\]: must be a whole number of bytes from 1B to 1GiB \\(got 100000TiB\\)"},
        RejectionCase{"size_without_sizes", "steps\\[0\\].bytes: \\$size needs a top-level 'sizes' list"},
        RejectionCase{"undeclared_variable", "steps\\[0\\].from: names no declared variable \\(got '\\$partner'\\)"},
        RejectionCase{"variable_out_of_range", "steps\\[0\\].from: must be between 0 and 3 \\(got \\$peer = '9'\\)"},
        RejectionCase{"pes_not_integer", "pes: must be a whole number \\(got 'four'\\)"},
        RejectionCase{"pes_zero", "pes: must be between 1 and"},
        RejectionCase{"steps_empty", "steps: must list at least one step"},
        RejectionCase{"compute_seconds_and_flops", "steps\\[3\\].seconds: give exactly one of seconds or flops"},
        RejectionCase{"complete_not_bool", "steps\\[1\\].complete: must be true or false \\(got 'maybe'\\)"},
        RejectionCase{"step_unknown_key", "steps\\[2\\].bytes: unknown key"},
        RejectionCase{"sizes_not_list", "sizes: must be a YAML list"},
        RejectionCase{"order_unknown", "steps\\[1\\].order: must be fence, quiet or none \\(got 'soon'\\)"},
        RejectionCase{"order_without_signal", "steps\\[1\\].order: needs a signal \\(got 'quiet'\\)"},
        RejectionCase{"flag_name_invalid",
                      "steps\\[1\\].signal: flag names are lower-case letters, digits and _ \\(got 'Ready!'\\)"},
        RejectionCase{"swap_unknown_protocol",
                      "pattern.swap.protocol: unknown protocol; did you mean 'nonblocking_send'\\? \\(got \\$protocol "
                      "= 'nonblocking_sned'\\)"},
        RejectionCase{"swap_pair_with_itself", "pattern.swap.pairs\\[0\\]: a PE cannot swap with itself"},
        RejectionCase{"swap_pe_in_two_pairs", "pattern.swap.pairs\\[1\\]: PE 2 is already in another pair"},
        RejectionCase{"swap_pattern_and_steps", "steps: give exactly one of 'steps' or 'pattern'"},
        RejectionCase{"swap_without_sizes", "sizes: a pattern needs a 'sizes' list"},
        RejectionCase{"swap_iterations_zero", "pattern.swap.iterations: must be between 1 and 1000"},
        RejectionCase{"pattern_unknown", "pattern.neighbour: unknown pattern; did you mean 'neighbor'"},
        RejectionCase{"pattern_two_kinds", "pattern: must name exactly one pattern"},
        RejectionCase{"pattern_grid_mismatch", "pattern.dim_shift: grid 4x4x1 does not hold exactly 8 PEs"},
        RejectionCase{"pattern_dim_unknown", "pattern.dim_shift.dim: must be x, y or z \\(got 'w'\\)"},
        RejectionCase{"pattern_transpose_prime",
                      "pattern.transpose: transpose needs a PE count with a factor other than 1 \\(got a prime\\)"},
        RejectionCase{"pattern_too_many_operations",
                      "pattern_too_many_operations.yaml:7:3: pattern.all_to_all: would expand to about 5.03e\\+07 "
                      "operations .* over t3sim's limit of 1.6e\\+07"},
        RejectionCase{"phase_swap", "phase_swap.yaml:8:5: pattern\\[1\\].swap: a swap cannot be a phase"},
        RejectionCase{"phases_empty", "phases_empty.yaml:6:10: pattern: must list a phase"},
        RejectionCase{"phase_two_kinds", "phase_two_kinds.yaml:7:5: pattern\\[0\\]: must name exactly one pattern"},
        RejectionCase{"pattern_messages_zero", "pattern.random_perm.messages: must be between 1 and 1024"},
        RejectionCase{"swap_pairing_bad", "pattern.swap.pairing: K must be between 1 and pes-1 \\(got 'xor:9'\\)"},
        RejectionCase{"io_buffering_unknown",
                      "io_buffering_unknown.yaml:11:16: pattern.md.buffering: must be none or iobuf \\(got 'stdio'\\)"},
        RejectionCase{"md_grouping_not_dividing",
                      "md_grouping_not_dividing.yaml:11:26: pattern.md.communication_every: must divide "
                      "frame_interval \\(10\\)"},
        RejectionCase{"md_with_sizes", "md_with_sizes.yaml:5:1: sizes: pattern 'md' takes no sizes"},
        RejectionCase{"md_unknown_key", "md_unknown_key.yaml:11:5: pattern.md.halo: unknown key"},
        RejectionCase{"md_compute_missing",
                      "md_compute_missing.yaml:7:5: pattern.md.step_compute: required key is missing"},
        RejectionCase{"io_writers_think_zero",
                      "io_writers_think_zero.yaml:8:12: pattern.io_writers.think: must be between"},
        RejectionCase{"write_without_file", "write_without_file.yaml:6:5: steps\\[0\\].file: required key is missing"},
        RejectionCase{
            "write_buffering_unknown",
            "write_buffering_unknown.yaml:6:59: steps\\[0\\].buffering: must be none or iobuf \\(got 'async'\\)"},
        RejectionCase{
            "compute_distribution_unknown",
            "compute_distribution_unknown.yaml:6:54: steps\\[0\\].distribution: must be fixed or exponential"},
        RejectionCase{"compute_exponential_flops",
                      "compute_exponential_flops.yaml:6:52: steps\\[0\\].distribution: needs seconds \\(the mean\\)"},
        RejectionCase{"missing_name", "name: required key is missing"}),
    t3sim::test::rule_name);

TEST(WorkloadLoader, RejectsUnknownSetVariable) {
  t3sim::test::expect_rejected(
      [] {
        io::load_workload(data("valid.yaml"), {{"nope", "1"}});
      },
      {"set_unknown_variable", "variables.nope: --set names a variable the workload does not declare"});
}

TEST(WorkloadLoader, RejectsMorePesThanMachine) {
  const auto w = io::load_workload(data("more_pes_than_machine.yaml"));
  t3sim::test::expect_rejected(
      [&] { io::check_fits_machine(w, 24, "small"); },
      {"more_pes_than_machine",
       "more_pes_than_machine.yaml:5:1: pes: more PEs than machine 'small' has \\(24\\) \\(got 200\\)"});
}

TEST(WorkloadLoader, SwapPatternExpandsEachProtocol) {
  // Per PE and swap: nonblocking_send 4 ops (overhead, put, wait, quiet); nonblocking_receive 7;
  // ready_send 9. Two sizes, two swaps each, plus one barrier per size.
  const std::map<std::string, size_t> per_swap = {
      {"nonblocking_send", 4}, {"nonblocking_send_receive", 4}, {"nonblocking_receive", 7}, {"ready_send", 9}};
  for (const auto& [protocol, n] : per_swap) {
    const auto w = io::load_workload(data("swap_valid.yaml"), {{"protocol", protocol}}).workload;
    EXPECT_EQ(w.swap_iterations, 2);
    EXPECT_EQ(w.program_of(3).size(), 2 * (1 + 2 * n)) << protocol;
    EXPECT_EQ(w.ops.front().kind, core::OpKind::Barrier);
  }
}

TEST(WorkloadLoader, RejectsStepsTimesSizesOverTheOperationLimit) {
  // 4000 steps x 4001 sizes = 16,004,000 operations: just over the limit, from a 200 KB file.
  const std::string path = testing::TempDir() + "/too_many_steps.yaml";
  {
    std::ofstream f(path);
    f << "schema_version: 1\nname: big\npes: 2\nsizes: [";
    for (int i = 0; i < 4001; ++i) f << (i ? ", " : "") << "8B";
    f << "]\nsteps:\n";
    for (int i = 0; i < 4000; ++i) f << "  - {op: quiet, pe: 0}\n";
  }
  t3sim::test::expect_rejected([&] { io::load_workload(path); },
                               {"too_many_steps", "steps: 4000 steps x 4001 sizes is over t3sim's limit"});
}

TEST(WorkloadLoader, PhasesRunInOrderInEveryMeasurement) {
  const auto w = io::load_workload(std::string(T3SIM_SOURCE_DIR) + "/workloads/phases.yaml", {}, /*pes=*/8).workload;
  EXPECT_EQ(w.pattern, "neighbor+transpose");
  // Per size: the halo's barrier, its exchange, the transpose's barrier, its exchange.
  int barriers = 0;
  for (const auto& op : w.ops) barriers += op.kind == core::OpKind::Barrier && op.iteration == 0;
  EXPECT_EQ(barriers, 2);
  const auto& program = w.program_of(1);
  ASSERT_FALSE(program.empty());
  EXPECT_EQ(program.front().kind, core::OpKind::Barrier);
}
