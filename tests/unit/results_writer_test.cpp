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

// A transfer row says how many data movements it stands for (a repeated block's); files written before
// the column read as 1, and a count below 1 or not a number is refused with its line.
TEST(ResultsWriter, TransfersCsvCarriesRepeats) {
  core::RunResult r;
  core::Transfer t{0, 9, 1000, 1e-6, 5e-6, 0};
  t.repeats = 16;
  r.transfers.push_back(t);
  const std::string csv = io::transfers_csv(r);
  EXPECT_EQ(csv,
            "src,dst,bytes,start_s,end_s,iteration,repeats\n0,9,1000,1.000000000000e-06,5.000000000000e-06,0,16\n");
  const auto back = io::parse_transfers_csv(csv, "t.csv");
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0].repeats, 16);
  EXPECT_EQ(back[0].bytes_moved(), 16000);
  const auto old = io::parse_transfers_csv("src,dst,bytes,start_s,end_s,iteration\n0,9,1000,1e-6,5e-6,0\n", "t.csv");
  ASSERT_EQ(old.size(), 1u);
  EXPECT_EQ(old[0].repeats, 1);
  for (const char* bad : {"0,9,1000,1e-6,5e-6,0,0\n", "0,9,1000,1e-6,5e-6,0,x\n", "0,9,1000,1e-6,5e-6,0;3\n"}) {
    try {
      io::parse_transfers_csv(std::string("src,dst,bytes,start_s,end_s,iteration,repeats\n") + bad, "t.csv");
      ADD_FAILURE() << "accepted " << bad;
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find("t.csv:2: not a transfers row"), std::string::npos) << e.what();
    }
  }
}

TEST(ResultsWriter, RejectsForeignJson) { EXPECT_THROW(io::parse_results_json("{\"x\":1}"), std::runtime_error); }

// The report draws the most loaded point's heat map from the traffic report its run wrote: every link
// comes back with its load, and the torus links with their dimension and direction.
TEST(ResultsWriter, TrafficLinksReadBackWithTheirDimensions) {
  analysis::TrafficReport t;
  t.links = {{"eject.n0", -1, false, 2.5e8, 0.9999903093300032},
             {"n32.z-", 2, false, 2e8, 0.7558981865801606},
             {"n1.x+", 0, true, 2097152, 0.00787393944354335},
             {"inject.n1", -1, true, 2097152, 0.00787393944354335}};
  const auto back = io::links_of_traffic_json(io::traffic_json(t), "t.json");
  ASSERT_EQ(back.size(), t.links.size());
  for (size_t i = 0; i < back.size(); ++i) {
    EXPECT_EQ(back[i].name, t.links[i].name);
    EXPECT_EQ(back[i].bytes, t.links[i].bytes);
    EXPECT_EQ(back[i].utilisation, t.links[i].utilisation);  // exactly: the heat map is byte-identical
    EXPECT_EQ(back[i].dim, t.links[i].dim);
    if (back[i].dim >= 0) {
      EXPECT_EQ(back[i].plus, t.links[i].plus);
    }
  }
  EXPECT_THROW(io::links_of_traffic_json("{\"makespan_s\": 1}", "t.json"), std::runtime_error);
}
