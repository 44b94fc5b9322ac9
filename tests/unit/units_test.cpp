#include <gtest/gtest.h>

#include <cmath>

#include "sim/core/support/units.hpp"

using t3sim::core::format_quantity;
using t3sim::core::parse_quantity;
using t3sim::core::Quantity;

TEST(Units, ParsesEachQuantityToSi) {
  EXPECT_DOUBLE_EQ(*parse_quantity("300MB/s", Quantity::Bandwidth, nullptr), 300e6);
  EXPECT_DOUBLE_EQ(*parse_quantity("1MiB/s", Quantity::Bandwidth, nullptr), 1048576.0);
  EXPECT_DOUBLE_EQ(*parse_quantity("1.5us", Quantity::Time, nullptr), 1.5e-6);
  EXPECT_DOUBLE_EQ(*parse_quantity("13.33ns", Quantity::Time, nullptr), 13.33e-9);
  EXPECT_DOUBLE_EQ(*parse_quantity("2MiB", Quantity::Size, nullptr), 2097152.0);
  EXPECT_DOUBLE_EQ(*parse_quantity("8000B", Quantity::Size, nullptr), 8000.0);
  EXPECT_DOUBLE_EQ(*parse_quantity("150MHz", Quantity::Frequency, nullptr), 150e6);
  EXPECT_DOUBLE_EQ(*parse_quantity("3", Quantity::Count, nullptr), 3.0);
  EXPECT_DOUBLE_EQ(*parse_quantity("0.25", Quantity::Ratio, nullptr), 0.25);
}

TEST(Units, RejectsMissingUnknownAndNonFinite) {
  std::string why;
  EXPECT_FALSE(parse_quantity("300", Quantity::Bandwidth, &why));
  EXPECT_NE(why.find("unit missing"), std::string::npos);
  EXPECT_FALSE(parse_quantity("300Mb/s", Quantity::Bandwidth, &why));
  EXPECT_NE(why.find("unknown unit 'Mb/s'"), std::string::npos);
  EXPECT_FALSE(parse_quantity("fast", Quantity::Time, &why));
  EXPECT_EQ(why, "not a number");
  EXPECT_FALSE(parse_quantity("nan us", Quantity::Time, &why));
  EXPECT_FALSE(parse_quantity("inf us", Quantity::Time, &why));
  EXPECT_FALSE(parse_quantity("1e400us", Quantity::Time, &why));
  EXPECT_FALSE(parse_quantity("1.5", Quantity::Count, &why));
  EXPECT_FALSE(parse_quantity("2us", Quantity::Count, &why));
}

TEST(Units, FormatRoundTripsToSevenDigits) {
  for (double v : {8.524111e-6, 1.0e-9, 120.7462e6, 3.0})
    for (Quantity q : {Quantity::Time, Quantity::Bandwidth, Quantity::Size}) {
      const double back = *parse_quantity(format_quantity(v, q), q, nullptr);
      EXPECT_NEAR(back / v, 1.0, 5e-7) << format_quantity(v, q);
    }
  EXPECT_EQ(format_quantity(8.5e-6, Quantity::Time), "8.5us");
  EXPECT_EQ(format_quantity(300e6, Quantity::Bandwidth), "300MB/s");
}

TEST(Units, ExactFormatReadsBackBitForBit) {
  using t3sim::core::Quantity;
  for (const auto& [v, q] :
       {std::pair{2.0000000123e-8, Quantity::Time}, std::pair{329053500.25, Quantity::Bandwidth},
        std::pair{65536.0, Quantity::Size}, std::pair{4.5e8, Quantity::Frequency}, std::pair{0.1, Quantity::Ratio}}) {
    const std::string text = t3sim::core::format_quantity_exact(v, q);
    EXPECT_EQ(*t3sim::core::parse_quantity(text, q, nullptr), v) << text;
  }
  EXPECT_EQ(t3sim::core::format_quantity_exact(2e-8, Quantity::Time), "2e-08s");
  EXPECT_EQ(t3sim::core::format_quantity_exact(3e8, Quantity::Bandwidth), "300000000B/s");
}
