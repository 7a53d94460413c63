// Fuzz target: a frontier part as a connection reads it (extension/frontier/frontier_store.h,
// frontier_changes.h): the hosts of a host group (a row of <t>_snapshot with part < 0), then the
// part's snapshot and its pending change sets, applied to a FrontierStore as
// FrontierTable::ReadPart does (a snapshot holds only new records).
//
// Input: group:blob snapshot:blob pending:blob…, each blob sealed:u8 bytes:piece
// (ChangeSetBlob, frontier_seed_changes.h); every part of the group's hosts reads the same
// snapshot and pending rows.
// Properties: nothing crashes and every error is a DataLossError; a store whose parts all read
// leases, and Check() runs over it.
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "extension/frontier/frontier_changes.h"
#include "extension/frontier/frontier_store.h"
#include "extension/identity/url_fingerprint.h"
#include "tests/fuzz/frontier_seed_changes.h"
#include "tests/fuzz/fuzz_target.h"

namespace crawldb::fuzz {
namespace {

using frontier::ChangeSet;
using frontier::FrontierStore;

// Parts read at most.
constexpr size_t kMaxParts = 4;
constexpr double kNow = 1.7e9;

class Source : public frontier::FrontierPartSource {
 public:
  explicit Source(std::vector<std::vector<uint8_t>> rows) : rows_(std::move(rows)) {}

  absl::Status ReadPart(size_t,
                        const std::function<absl::Status(const ChangeSet&)>& apply) override {
    for (size_t i = 0; i < rows_.size(); ++i) {
      absl::StatusOr<ChangeSet> changes = frontier::DecodeChangeSet(rows_[i]);
      if (!changes.ok()) return changes.status();
      for (const frontier::UrlChange& change : changes->urls) {
        if (i == 0 && change.kind != frontier::UrlChangeKind::kNew) {
          return absl::DataLossError("snapshot holds a change");
        }
      }
      if (absl::Status status = apply(*changes); !status.ok()) return status;
    }
    return absl::OkStatus();
  }
  absl::Status Refuse(absl::Status cause) override { return cause; }

 private:
  std::vector<std::vector<uint8_t>> rows_;  // the snapshot, then the pending rows
};

void CheckError(const absl::Status& status) { FUZZ_CHECK(status.ok() || absl::IsDataLoss(status)); }

// Host names that all live in one part, so that one snapshot serves them.
std::vector<std::string> NamesInOnePart(size_t count) {
  std::vector<std::string> names = {"example.com"};
  const size_t part = frontier::FrontierPartOf(names[0]);
  for (int i = 0; names.size() < count; ++i) {
    std::string name = absl::StrCat("host", i, ".example.org");
    if (frontier::FrontierPartOf(name) == part) names.push_back(name);
  }
  return names;
}

}  // namespace

std::vector<Seed> FuzzSeeds() {
  std::vector<Seed> seeds;
  const std::vector<std::string> names = NamesInOnePart(3);
  const size_t part = frontier::FrontierPartOf(names[0]);
  for (size_t urls_per_host : {1, 4, 20}) {
    FrontierStore writer;
    int64_t url_id = 0;
    for (const std::string& name : names) {
      for (size_t i = 0; i < urls_per_host; ++i) {
        const std::string url = absl::StrCat("http://", name, "/page", i);
        FUZZ_CHECK(writer
                       .Add(identity::UrlFingerprint(url), ++url_id, name,
                            static_cast<uint32_t>(1 + i % 3), static_cast<int32_t>(i % 4))
                       .ok());
      }
    }
    FUZZ_CHECK(writer.Lease(2, 60, kNow).ok());
    ChangeSet snapshot;
    FUZZ_CHECK(writer.PartSnapshot(part, &snapshot).ok());
    const size_t mark = writer.UndoMark();
    absl::StatusOr<std::vector<FrontierStore::Leased>> leased = writer.Lease(2, 60, kNow + 10);
    FUZZ_CHECK(leased.ok());
    for (const FrontierStore::Leased& lease : *leased) {
      FUZZ_CHECK(writer.Confirm(lease.part, lease.fp, 200, 3600, kNow + 11).ok());
    }
    writer.SetHost(names[1], 5, 10, kNow + 100);
    ChangeSet pending = writer.ChangesSince(mark);
    pending.hosts.clear();
    pending.parts.clear();
    pending.counts.reset();
    ChangeSet group = writer.ChangesSince(0);
    group.urls.clear();
    group.parts.clear();
    for (bool body : {false, true}) {
      std::vector<uint8_t> input;
      for (const ChangeSet* changes : {&group, &snapshot, &pending}) {
        input.push_back(body ? 1 : 0);
        AppendPiece(ChangeSetBytes(*changes, body), &input);
      }
      seeds.push_back({absl::StrCat("hosts_3_urls_", urls_per_host, body ? "_body" : "_blob"),
                       std::move(input)});
    }
  }
  return seeds;
}

void TestOneInput(FuzzInput input) {
  std::vector<std::vector<uint8_t>> blobs;
  while (!input.empty()) {
    const uint8_t sealed = input.Byte();
    blobs.push_back(ChangeSetBlob(sealed, input.Piece()));
  }
  if (blobs.empty()) return;
  absl::StatusOr<ChangeSet> group = frontier::DecodeChangeSet(blobs[0]);
  if (!group.ok()) {
    CheckError(group.status());
    return;
  }
  Source source(std::vector<std::vector<uint8_t>>(blobs.begin() + 1, blobs.end()));
  FrontierStore store({}, &source);
  if (absl::Status status = store.ApplyCommitted(*group); !status.ok()) {
    CheckError(status);
    return;
  }
  CheckError(store.CheckCounts());
  std::set<size_t> parts;
  for (uint32_t id = 0; id < store.host_count() && parts.size() < kMaxParts; ++id) {
    parts.insert(store.host(id).part);
  }
  for (size_t part : parts) {
    absl::Status status = store.ForEachInPart(part, [](uint64_t, const frontier::UrlRecord&) {});
    CheckError(status);
    if (!status.ok()) return;
  }
  absl::StatusOr<std::vector<FrontierStore::Leased>> leased = store.Lease(3, 60, kNow);
  CheckError(leased.status());
  std::vector<std::string> problems;
  CheckError(store.Check(&problems));
}

}  // namespace crawldb::fuzz
