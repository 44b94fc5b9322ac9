// The collective suites' statistic (label_span_us): from the first start to the last end of a label's
// records over every PE, and a clear error where a label's records sum repetitions or are missing.
#include <gtest/gtest.h>

#include <stdexcept>

#include "sim/calib/validation_run.hpp"
#include "sim/core/run/cost_model.hpp"
#include "sim/core/run/uncontended_replay.hpp"
#include "sim/io/machine/machine_loader.hpp"
#include "sim/io/trace/trace_loader.hpp"

using namespace t3sim;

namespace {

core::OpRecord record(core::RunResult& run, const std::string& label, int pe, double start, double end) {
  core::OpRecord r;
  r.label = run.labels.intern(label);
  r.pe = pe;
  r.start = start;
  r.end = end;
  return r;
}

}  // namespace

TEST(LabelSpan, FromFirstStartToLastEndOverEveryPe) {
  core::RunResult run;
  run.workload = "collective";
  run.records.push_back(record(run, "barrier", 0, 0, 2e-6));
  run.records.push_back(record(run, "reduce", 1, 2e-6, 5e-6));   // a leaf sends and returns
  run.records.push_back(record(run, "reduce", 0, 2e-6, 3e-6));   // the root's receive call ...
  run.records.push_back(record(run, "reduce", 0, 3e-6, 11e-6));  // ... waits for the data
  run.records.push_back(record(run, "allreduce", 0, 12e-6, 20e-6));
  EXPECT_DOUBLE_EQ(calib::label_span(run, "reduce"), 9e-6);
  EXPECT_DOUBLE_EQ(calib::label_span(run, "allreduce"), 8e-6);
}

TEST(LabelSpan, RefusesSummedRepetitionsAndMissingLabels) {
  core::RunResult run;
  run.workload = "looped";
  core::OpRecord r = record(run, "reduce", 0, 0, 30e-6);
  r.repeats = 10;  // its end is no instant of the run
  run.records.push_back(r);
  EXPECT_THROW(
      {
        try {
          calib::label_span(run, "reduce");
        } catch (const std::runtime_error& e) {
          EXPECT_NE(std::string(e.what()).find("sums repetitions"), std::string::npos) << e.what();
          throw;
        }
      },
      std::runtime_error);
  EXPECT_THROW(calib::label_span(run, "bcast"), std::runtime_error);
}

// Entering a collective costs each PE mpi_collective_overhead before its messages: the HLRS suite's
// 2-PE reduce and allreduce each last exactly that much longer with it than without.
TEST(LabelSpan, ACollectivesEntryCostAddsToItsSpanOnce) {
  core::MachineSpec m = io::load_machine(std::string(T3SIM_SOURCE_DIR) + "/platforms/t3e-900-hlrs.yaml");
  core::SoftwareProfile p = m.profiles.at(0);
  const auto w =
      io::load_trace(std::string(T3SIM_TEST_DATA) + "/cases/collective.t3t", {p.eager_threshold, p.mpi_queue_bytes}, 2)
          .workload;
  auto spans = [&](double entry) {
    p.mpi_collective_overhead = entry;
    const core::RunResult run = core::replay_uncontended(core::CostModel(m, p), w);
    return std::pair{calib::label_span(run, "reduce"), calib::label_span(run, "allreduce")};
  };
  const auto without = spans(0);
  const auto with = spans(4e-6);
  EXPECT_NEAR(with.first - without.first, 4e-6, 1e-12);
  EXPECT_NEAR(with.second - without.second, 4e-6, 1e-12);
  EXPECT_GT(without.first, 0);
}
