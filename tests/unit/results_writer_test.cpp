#include <gtest/gtest.h>

#include "sim/io/output/results_writer.hpp"

using namespace t3sim;

TEST(ResultsWriter, JsonRoundTripsExactly) {
  core::RunResult r;
  r.machine = "m";
  r.profile = "p";
  r.workload = "w";
  r.pes = 2;
  r.makespan = 3.0000000000000004e-5;
  r.records.push_back(
      {1, 0, r.labels.intern("remote"), core::OpKind::Get, 0, 1, 800, 1.2345678901234567e-6, 3.0000000000000004e-5});
  const auto back = io::parse_results_json(io::results_json(r));
  ASSERT_EQ(back.records.size(), 1u);
  EXPECT_EQ(back.records[0].end, r.records[0].end);
  EXPECT_EQ(back.records[0].start, r.records[0].start);
  EXPECT_EQ(back.labels.name(back.records[0].label), "remote");
  EXPECT_EQ(io::results_json(back), io::results_json(r));
}

TEST(ResultsWriter, CsvHasFixedColumnsAndRate) {
  core::RunResult r;
  r.makespan = 1e-5;
  // A local get of 1000 B in 10 us whose copy took 5 us; a non-blocking put whose call took 1 us and
  // whose data took 4 us on the wire: no call rate (it returned before the data landed), 250 MB/s own.
  r.records.push_back({0, 0, r.labels.intern("local"), core::OpKind::Get, 0, 0, 1000, 0, 1e-5, 5e-6});
  r.records.push_back({0, 1, r.labels.intern("put"), core::OpKind::Put, 0, 1, 1000, 0, 1e-6, 4e-6, true});
  EXPECT_EQ(io::results_csv(r),
            "pe,step,iteration,label,op,peer,bytes,start_s,end_s,time_s,call_MBps,flow_s,rate_MBps\n"
            "0,0,0,local,get,0,1000,0.000000000000e+00,1.000000000000e-05,1.000000000000e-05,100.000000,"
            "5.000000000000e-06,200.000000\n"
            "0,0,1,put,put,1,1000,0.000000000000e+00,1.000000000000e-06,1.000000000000e-06,,4.000000000000e-06,"
            "250.000000\n");
}

TEST(ResultsWriter, JsonKeepsFlowTimes) {
  core::RunResult r;
  r.records.push_back({0, 1, r.labels.intern("put"), core::OpKind::Put, 0, 1, 1000, 0, 1e-6, 4e-6, true});
  const core::RunResult back = io::parse_results_json(io::results_json(r));
  ASSERT_EQ(back.records.size(), 1u);
  EXPECT_EQ(back.records[0].flow, 4e-6);
  EXPECT_TRUE(back.records[0].background);
}

TEST(ResultsWriter, RejectsForeignJson) { EXPECT_THROW(io::parse_results_json("{\"x\":1}"), std::runtime_error); }
