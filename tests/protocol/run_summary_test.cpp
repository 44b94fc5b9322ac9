// RunSummary: what the writer writes the reader reads back whole, byte for byte again; a real run's
// summary line is what the writer makes of it; a broken line is refused naming the run.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <string>

#include "sim/protocol/run_summary.hpp"

using t3sim::protocol::run_summary_from_json;
using t3sim::protocol::RunSummary;

namespace {

RunSummary sample(bool optionals) {
  RunSummary s;
  s.machine = "t3e-900-mcurie";
  s.profile = "shmem";
  s.workload = "shift";
  s.pes = 532;
  s.placement = "random:7";
  s.makespan_s = 0.0123456789012345;
  s.sizes = {{8192, 1.5e-4, {532, 1.1e8, 1.2e8, 1.25e8, 1.3e8}, {532, 2e8, 2.1e8, 2.2e8, 2.3e8}},
             {65536, 2.5e-3, {0, 0, 0, 0, 0}, {1, 3e8, 3e8, 3e8, 3e8}}};
  s.dimensions = {{"x", "+", 0.25, 0.5}, {"x", "-", 0.125, 1.0 / 3}};
  s.bisection = {"y", 1e9, 4.8e10, 0.37};
  s.max_link_utilisation = 0.999;
  s.busiest_link = "eject.n3";
  s.transfers = 1234;
  s.operations = 98765;
  if (optionals) {
    s.main_job_end_s = 0.01;
    s.summed_records = 17;
    t3sim::protocol::SummaryUncertainty u;
    u.samples = 20;
    u.seed = 18446744073709551615ULL;
    u.design = "latin hypercube, uniform in each range";
    u.parameters = {{"network.link_bandwidth", 4.6e8, 5e8, "assumed: \"quoted\" reason", {}},
                    {"network.arbitration", 0, 1, "assumed: not published", {"round_robin", "age"}}};
    u.makespan_s = {0.011, 0.012, 0.013};
    u.sizes = {{8192, {1e8, 1.1e8, 1.2e8}}};
    s.uncertainty = u;
  }
  return s;
}

}  // namespace

TEST(RunSummary, ReadsBackWhatItWroteByteForByte) {
  for (bool optionals : {false, true}) {
    const RunSummary s = sample(optionals);
    const std::string line = s.to_json();
    EXPECT_EQ(line.find('\n'), std::string::npos);
    const RunSummary back = run_summary_from_json(line, "the sample");
    EXPECT_EQ(back, s);
    EXPECT_EQ(back.to_json(), line);
  }
}

TEST(RunSummary, NotANumberSurvivesTheRoundTrip) {
  RunSummary s = sample(false);
  s.sizes[0].span_s = std::numeric_limits<double>::quiet_NaN();
  const RunSummary back = run_summary_from_json(s.to_json(), "the sample");
  EXPECT_TRUE(std::isnan(back.sizes[0].span_s));
  EXPECT_EQ(back, s);
}

TEST(RunSummary, TheOnlySizesMedianIsThereOnlyForOneSizeThatMoved) {
  RunSummary s = sample(false);
  EXPECT_FALSE(s.only_size_pe_median_Bps());  // two sizes
  s.sizes.resize(1);
  EXPECT_DOUBLE_EQ(*s.only_size_pe_median_Bps(), 1.2e8);
  s.sizes[0].pe_bandwidth_Bps.n = 0;
  EXPECT_FALSE(s.only_size_pe_median_Bps());
}

TEST(RunSummary, ABrokenLineIsRefusedNamingTheRunAndTheKey) {
  std::string line = sample(false).to_json();
  line.replace(line.find("\"busiest_link\""), 14, "\"busiest\"");
  try {
    run_summary_from_json(line, "the run of point 3");
    FAIL() << "accepted a summary without busiest_link";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("the run of point 3: not a run summary"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("busiest_link"), std::string::npos) << e.what();
  }
  EXPECT_THROW(run_summary_from_json("not json", "x"), std::runtime_error);
}

TEST(RunSummary, ARealRunsLineIsWhatTheWriterMakesOfIt) {
  // Two runs: a pattern with a background job (main_job_end_s), and a streamed TI trace (summed_records).
  const std::vector<std::string> runs = {
      "run --machine platforms/xt3-bigben.yaml --workload workloads/pmemd-factor-ix.yaml --set steps=500 --set "
      "communication_every=50 --background workloads/io-background.yaml --background-set think=5ms --summary",
      "run --machine platforms/t3e-900-mcurie.yaml --trace workloads/traces/ti-ring-128.txt --summary",
      "run --machine platforms/t3d-denali.yaml --workload workloads/shift.yaml --summary"};
  for (const auto& args : runs) {
    const std::string command =
        "cd '" + std::string(T3SIM_SOURCE_DIR) + "' && " + T3SIM_BIN + " " + args + " 2>/dev/null";
    std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
    std::string out;
    std::array<char, 65536> buf{};
    while (fgets(buf.data(), buf.size(), pipe.get())) out += buf.data();
    ASSERT_EQ(pclose(pipe.release()), 0) << args;
    ASSERT_FALSE(out.empty()) << args;
    out.pop_back();  // the newline
    EXPECT_EQ(run_summary_from_json(out, args).to_json(), out) << args;
  }
}
