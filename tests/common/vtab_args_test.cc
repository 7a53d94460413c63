#include "extension/common/vtab_args.h"

#include <gtest/gtest.h>

#include "extension/common/sqlite_api.h"
#include "extension/common/status.h"
#include "tests/common/kv_test_table.h"

namespace crawldb {
namespace {

using testing::kKvOptions;
using testing::kKvPositional;

VtabArgs Args(std::vector<std::string> arguments) {
  return VtabArgs{"crawldb_test_kv", "main", "t", std::move(arguments)};
}

std::string ErrorOf(std::vector<std::string> arguments) {
  absl::StatusOr<VtabOptions> options =
      VtabOptions::Parse(Args(std::move(arguments)), kKvPositional, kKvOptions);
  EXPECT_FALSE(options.ok());
  EXPECT_EQ(SqliteCode(options.status()), SQLITE_ERROR);
  return std::string(options.status().message());
}

TEST(VtabArgs, SplitsArgv) {
  const char* argv[] = {"crawldb_test_kv", "main", "t", "  lbl ", "limit = 5"};
  VtabArgs args = ParseVtabArgv(5, argv);
  EXPECT_EQ(args.module, "crawldb_test_kv");
  EXPECT_EQ(args.schema, "main");
  EXPECT_EQ(args.table, "t");
  EXPECT_EQ(args.arguments, (std::vector<std::string>{"lbl", "limit = 5"}));
}

TEST(VtabArgs, DefaultsFillEverything) {
  absl::StatusOr<VtabOptions> options = VtabOptions::Parse(Args({}), kKvPositional, kKvOptions);
  ASSERT_TRUE(options.ok()) << options.status();
  EXPECT_EQ(options->Text("label"), "none");
  EXPECT_EQ(options->Integer("limit"), 100);
  EXPECT_DOUBLE_EQ(options->Real("ratio"), 0.5);
  EXPECT_EQ(options->Text("mode"), "plain");
  EXPECT_FALSE(options->Boolean("strict"));
  EXPECT_EQ(options->Canonical(),
            (std::vector<std::pair<std::string, std::string>>{{"label", "none"},
                                                              {"limit", "100"},
                                                              {"ratio", "0.5"},
                                                              {"mode", "plain"},
                                                              {"strict", "false"}}));
}

TEST(VtabArgs, ParsesGivenValues) {
  absl::StatusOr<VtabOptions> options = VtabOptions::Parse(
      Args({"'my label'", "limit = 7", "ratio=0.25", "mode=\"fancy\"", "strict=on"}), kKvPositional,
      kKvOptions);
  ASSERT_TRUE(options.ok()) << options.status();
  EXPECT_EQ(options->Text("label"), "my label");
  EXPECT_EQ(options->Integer("limit"), 7);
  EXPECT_DOUBLE_EQ(options->Real("ratio"), 0.25);
  EXPECT_EQ(options->Text("mode"), "fancy");
  EXPECT_TRUE(options->Boolean("strict"));
}

TEST(VtabArgs, QuotesMayHoldQuotes) {
  absl::StatusOr<VtabOptions> options =
      VtabOptions::Parse(Args({"'it''s'"}), kKvPositional, kKvOptions);
  ASSERT_TRUE(options.ok()) << options.status();
  EXPECT_EQ(options->Text("label"), "it's");
}

TEST(VtabArgs, RefusesWithMessagesNamingTheProblem) {
  EXPECT_EQ(ErrorOf({"leemit=5"}),
            "crawldb_test_kv: unknown option 'leemit'; expected one of: limit, ratio, mode, "
            "strict");
  EXPECT_EQ(ErrorOf({"limit=abc"}),
            "crawldb_test_kv: option 'limit' must be an integer from 1 to 1000, got 'abc'");
  EXPECT_EQ(ErrorOf({"limit=0"}),
            "crawldb_test_kv: option 'limit' must be an integer from 1 to 1000, got '0'");
  EXPECT_EQ(ErrorOf({"limit=1001"}),
            "crawldb_test_kv: option 'limit' must be an integer from 1 to 1000, got '1001'");
  EXPECT_EQ(ErrorOf({"limit=5.5"}),
            "crawldb_test_kv: option 'limit' must be an integer from 1 to 1000, got '5.5'");
  EXPECT_EQ(ErrorOf({"ratio=2"}),
            "crawldb_test_kv: option 'ratio' must be a number from 0 to 1, got '2'");
  EXPECT_EQ(ErrorOf({"ratio=nan"}),
            "crawldb_test_kv: option 'ratio' must be a number from 0 to 1, got 'nan'");
  EXPECT_EQ(ErrorOf({"mode=odd"}),
            "crawldb_test_kv: option 'mode' must be one of: plain, fancy, got 'odd'");
  EXPECT_EQ(ErrorOf({"strict=maybe"}),
            "crawldb_test_kv: option 'strict' must be true or false, got 'maybe'");
  EXPECT_EQ(ErrorOf({"limit=5", "limit=6"}), "crawldb_test_kv: option 'limit' is given twice");
  EXPECT_EQ(ErrorOf({"a", "b"}),
            "crawldb_test_kv: unexpected argument 'b'; options are written key=value");
  EXPECT_EQ(ErrorOf({"limit=5", "lbl"}),
            "crawldb_test_kv: argument 'lbl' is not key=value; write positional arguments "
            "before the options");
  EXPECT_EQ(ErrorOf({"''"}), "crawldb_test_kv: argument 'label' is empty");
}

TEST(VtabArgs, RequiredPositionalMustBeGiven) {
  const PositionalSpec positional[] = {{"urls table", ""}};
  absl::StatusOr<VtabOptions> options = VtabOptions::Parse(Args({}), positional, {});
  ASSERT_FALSE(options.ok());
  EXPECT_EQ(options.status().message(), "crawldb_test_kv: missing argument 'urls table'");
  EXPECT_TRUE(VtabOptions::Parse(Args({"urls"}), positional, {}).ok());
  EXPECT_EQ(VtabOptions::Parse(Args({"urls", "x=1"}), positional, {}).status().message(),
            "crawldb_test_kv: unknown option 'x'; this module takes no options");
}

TEST(VtabArgs, RealsKeepTheirPrecision) {
  const OptionSpec options[] = {
      {.name = "delay", .kind = OptionKind::kReal, .default_value = "1", .min = 0, .max = 1e9}};
  absl::StatusOr<VtabOptions> parsed = VtabOptions::Parse(Args({"delay=123456.789"}), {}, options);
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(parsed->Text("delay"), "123456.789");
}

}  // namespace
}  // namespace crawldb
