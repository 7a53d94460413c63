// Fuzz target: the argument parser of CREATE VIRTUAL TABLE (extension/common/vtab_args.h), with a
// spec holding every kind of argument.
//
// Input: the arguments, one per line (SQLite passes each as written, a C string).
// Properties: nothing crashes; a refusal is an InvalidArgumentError naming the module; options
// that parse hold values of their kind within their range, and their canonical form, given as
// quoted arguments, parses to the same canonical form (nothing is lost or changed by quoting).
#include <cmath>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "extension/common/vtab_args.h"
#include "tests/fuzz/fuzz_target.h"

namespace crawldb::fuzz {
namespace {

const PositionalSpec kPositional[] = {{"urls table", "urls"}};
const OptionSpec kOptions[] = {
    {.name = "lease", .kind = OptionKind::kInteger, .default_value = "600", .min = 1, .max = 86400},
    {.name = "delay", .kind = OptionKind::kReal, .default_value = "1.5", .min = 0, .max = 1e6},
    {.name = "codec",
     .kind = OptionKind::kText,
     .default_value = "link2",
     .choices = {"link1", "link2", "link3+huff"}},
    {.name = "label", .kind = OptionKind::kText, .default_value = "x"},
    {.name = "verbose", .kind = OptionKind::kBoolean, .default_value = "off"},
};

absl::StatusOr<VtabOptions> Parse(const std::vector<std::string>& arguments) {
  std::vector<const char*> argv = {"crawldb_fuzz", "main", "t"};
  for (const std::string& argument : arguments) argv.push_back(argument.c_str());
  return VtabOptions::Parse(ParseVtabArgv(static_cast<int>(argv.size()), argv.data()), kPositional,
                            kOptions);
}

std::string Quoted(absl::string_view value) {
  return absl::StrCat(
      "'", absl::StrReplaceAll(absl::string_view(value.data(), value.size()), {{"'", "''"}}), "'");
}

}  // namespace

std::vector<Seed> FuzzSeeds() {
  std::vector<Seed> seeds;
  for (absl::string_view text :
       {"", "my_urls", "my_urls\nlease=60\ndelay=0.25\ncodec=link1\nverbose=YES",
        "'it''s'\nlabel = \"a \"\"b\"\" c\"", "lease=0", "codec=link9", "leese=5",
        "lease=1\nlease=2", "x\ny", "lease=5\nurls", "delay=1e400", "verbose=maybe", "''",
        " label = ' x '"}) {
    seeds.push_back({absl::StrCat("args_", seeds.size()), {text.begin(), text.end()}});
  }
  return seeds;
}

void TestOneInput(FuzzInput input) {
  const absl::Span<const uint8_t> data = input.Rest();
  std::vector<std::string> arguments;
  if (!data.empty()) {
    arguments = absl::StrSplit(
        absl::string_view(reinterpret_cast<const char*>(data.data()), data.size()), '\n');
  }
  absl::StatusOr<crawldb::VtabOptions> options = Parse(arguments);
  if (!options.ok()) {
    FUZZ_CHECK(absl::IsInvalidArgument(options.status()) &&
               absl::StartsWith(options.status().message(), "crawldb_fuzz: "));
    return;
  }
  FUZZ_CHECK(!options->Text("urls table").empty());
  const int64_t lease = options->Integer("lease");
  FUZZ_CHECK(lease >= 1 && lease <= 86400);
  const double delay = options->Real("delay");
  FUZZ_CHECK(std::isfinite(delay) && delay >= 0 && delay <= 1e6);
  const std::string& codec = options->Text("codec");
  FUZZ_CHECK(codec == "link1" || codec == "link2" || codec == "link3+huff");
  FUZZ_CHECK(options->Boolean("verbose") == (options->Text("verbose") == "true"));
  const std::vector<std::pair<std::string, std::string>> canonical = options->Canonical();
  FUZZ_CHECK(canonical.size() == 1 + std::size(kOptions));
  std::vector<std::string> written = {Quoted(canonical[0].second)};
  for (size_t i = 1; i < canonical.size(); ++i) {
    written.push_back(absl::StrCat(canonical[i].first, "=", Quoted(canonical[i].second)));
  }
  absl::StatusOr<crawldb::VtabOptions> again = Parse(written);
  FUZZ_CHECK(again.ok() && again->Canonical() == canonical);
}

}  // namespace crawldb::fuzz
