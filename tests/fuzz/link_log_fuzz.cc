// Fuzz target: a link table's log row (extension/links/link_graph_format.h, versions 1 and 2).
//
// Input: the `changes` blob.
// Properties: nothing crashes and every error is a DataLossError (FailedPrecondition for another
// version); the changes that decode encode again to a blob that decodes to the same changes.
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "extension/links/link_graph_format.h"
#include "tests/fuzz/fuzz_target.h"

namespace crawldb::fuzz {
namespace {

bool Same(const std::vector<links::LinkChange>& a, const std::vector<links::LinkChange>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].added != b[i].added || a[i].src != b[i].src || a[i].dst != b[i].dst) return false;
  }
  return true;
}

}  // namespace

std::vector<Seed> FuzzSeeds() {
  std::vector<links::LinkChange> changes;
  for (uint32_t i = 0; i < 100; ++i) changes.push_back({i % 5 != 0, i / 3, 1000 + 7 * i});
  changes.push_back({true, UINT32_MAX, 0});
  changes.push_back({false, 0, UINT32_MAX});
  std::vector<uint8_t> plain = {links::kPlainLogFormatVersion, 2, 1, 5, 9, 0, 5, 9};
  return {{"empty", links::EncodeLogChanges({})},
          {"three", links::EncodeLogChanges(absl::MakeConstSpan(changes).first(3))},
          {"packed", links::EncodeLogChanges(changes)},
          {"version_1", plain}};
}

void TestOneInput(FuzzInput input) {
  const absl::Span<const uint8_t> data = input.Rest();
  std::string scratch;
  absl::StatusOr<std::vector<links::LinkChange>> changes = links::DecodeLogChanges(data, &scratch);
  if (!changes.ok()) {
    FUZZ_CHECK(absl::IsDataLoss(changes.status()) || absl::IsFailedPrecondition(changes.status()));
    return;
  }
  std::string scratch_again;
  absl::StatusOr<std::vector<links::LinkChange>> again =
      links::DecodeLogChanges(links::EncodeLogChanges(*changes), &scratch_again);
  FUZZ_CHECK(again.ok() && Same(*again, *changes));
}

}  // namespace crawldb::fuzz
