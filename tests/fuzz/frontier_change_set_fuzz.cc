// Fuzz target: the frontier's change sets (extension/frontier/frontier_changes.h) — the blob of
// every row of <t>_log, <t>_snapshot and <t>_pending.
//
// Input: a blob as ChangeSetBlob (frontier_seed_changes.h) frames it: the stored bytes, or a
// body that the target seals with a valid checksum.
// Properties: nothing crashes and every error is a DataLossError; a change set that decodes
// encodes again to a blob that decodes to the same change set.
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "extension/frontier/frontier_changes.h"
#include "tests/fuzz/frontier_seed_changes.h"
#include "tests/fuzz/fuzz_target.h"

namespace crawldb::fuzz {
namespace {

using frontier::ChangeSet;
using frontier::UrlChangeKind;

bool SameRecord(const frontier::UrlChange& a, const frontier::UrlChange& b) {
  if (a.fp != b.fp || a.kind != b.kind || a.record.host != b.record.host) return false;
  if (a.kind == UrlChangeKind::kDelete) return true;
  const frontier::UrlRecord& x = a.record;
  const frontier::UrlRecord& y = b.record;
  return x.due == y.due && x.last_fetch == y.last_fetch && x.priority == y.priority &&
         x.status == y.status && x.depth == y.depth && x.state == y.state &&
         x.attempts == y.attempts && (a.kind != UrlChangeKind::kNew || x.url_id == y.url_id);
}

bool Same(const ChangeSet& a, const ChangeSet& b) {
  if (a.hosts.size() != b.hosts.size() || a.urls.size() != b.urls.size() || a.parts != b.parts ||
      a.host_ids != b.host_ids || a.counts != b.counts || a.folded != b.folded) {
    return false;
  }
  for (size_t i = 0; i < a.hosts.size(); ++i) {
    const frontier::HostChange& x = a.hosts[i];
    const frontier::HostChange& y = b.hosts[i];
    if (x.id != y.id || x.name != y.name || !(x.settings == y.settings) ||
        !(x.summary == y.summary)) {
      return false;
    }
  }
  for (size_t i = 0; i < a.urls.size(); ++i) {
    if (!SameRecord(a.urls[i], b.urls[i])) return false;
  }
  return true;
}

}  // namespace

std::vector<Seed> FuzzSeeds() {
  const std::vector<std::string> names = SeedHostNames();
  ChangeSet log;  // a log row: host post-images, parts, counts, folded
  log.hosts = SeedHosts(names, 2, 1);
  for (const std::string& name : names) {
    log.parts.push_back(static_cast<uint32_t>(frontier::FrontierPartOf(name)));
  }
  log.counts = frontier::StateCounts{10, 0, 5, 0, 0, 0};
  log.folded = 7;
  ChangeSet pending;  // a pending row: every kind of URL change
  pending.urls = SeedRecords(1, 2, 2);
  pending.urls[1].kind = UrlChangeKind::kUpdate;
  pending.urls[2].kind = UrlChangeKind::kDelete;
  ChangeSet snapshot;  // a snapshot part, large enough to be compressed
  snapshot.urls = SeedRecords(0, 20, 10);
  ChangeSet unfolded;  // what version 3 wrote: host ids, no folded
  unfolded.host_ids = {0, 1, 5, 6};
  std::vector<Seed> seeds;
  for (bool body : {false, true}) {
    for (const auto& [name, changes] : {std::pair<std::string, const ChangeSet*>{"empty", nullptr},
                                        {"log", &log},
                                        {"pending", &pending},
                                        {"snapshot", &snapshot},
                                        {"host_ids", &unfolded}}) {
      std::vector<uint8_t> seed = {static_cast<uint8_t>(body ? 1 : 0)};
      const std::vector<uint8_t> bytes =
          ChangeSetBytes(changes == nullptr ? ChangeSet() : *changes, body);
      seed.insert(seed.end(), bytes.begin(), bytes.end());
      seeds.push_back({name + (body ? "_body" : "_blob"), std::move(seed)});
    }
  }
  return seeds;
}

void TestOneInput(FuzzInput input) {
  const uint8_t sealed = input.Byte();
  const std::vector<uint8_t> blob = ChangeSetBlob(sealed, input.Rest());
  absl::StatusOr<ChangeSet> changes = frontier::DecodeChangeSet(blob);
  if (!changes.ok()) {
    FUZZ_CHECK(absl::IsDataLoss(changes.status()));
    return;
  }
  std::string body, again_blob;
  frontier::EncodeChangeSet(*changes, &body, &again_blob);
  absl::StatusOr<ChangeSet> again = frontier::DecodeChangeSet(frontier::BytesOf(again_blob));
  FUZZ_CHECK(again.ok() && Same(*again, *changes));
}

}  // namespace crawldb::fuzz
