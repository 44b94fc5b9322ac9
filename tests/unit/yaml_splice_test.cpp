#include <gtest/gtest.h>

#include "sim/io/files/input_error.hpp"
#include "sim/io/yaml/yaml_splice.hpp"

using namespace t3sim::io;

TEST(YamlSplice, ReplacesValuesAndKeepsEverythingElse) {
  const std::string text =
      "# comment stays\n"
      "a:\n"
      "  b: 1us   # trailing comment stays\n"
      "  c: {d: x, e: 0}\n"
      "f: 2\n";
  const std::string out = splice_scalars("t.yaml", text, {{"a.b", "8.5us"}, {"a.c.e", "0.0232"}, {"f", "3"}});
  EXPECT_EQ(out,
            "# comment stays\n"
            "a:\n"
            "  b: 8.5us   # trailing comment stays\n"
            "  c: {d: x, e: 0.0232}\n"
            "f: 3\n");
}

TEST(YamlSplice, MissingKeyIsAnError) {
  EXPECT_THROW(splice_scalars("t.yaml", "a: 1\n", {{"a.b", "2"}}), InputError);
  EXPECT_THROW(splice_scalars("t.yaml", "a: 1\n", {{"z", "2"}}), InputError);
}

TEST(YamlSplice, QuotedValueIsAnError) {
  EXPECT_THROW(splice_scalars("t.yaml", "a: \"1us\"\n", {{"a", "2us"}}), InputError);
}
