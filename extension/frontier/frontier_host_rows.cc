// `frontier`'s hosts in its shadow tables (frontier_table.h tells the formats): the host groups
// in <t>_snapshot, what each fold changed of them in <t>_pending rows below 0, and the <t>_hosts
// rows of formats 5 and 6.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "absl/container/btree_set.h"
#include "absl/strings/str_cat.h"
#include "extension/common/sql_values.h"
#include "extension/common/status.h"
#include "extension/frontier/frontier_changes.h"
#include "extension/frontier/frontier_slots.h"
#include "extension/frontier/frontier_table.h"
#include "extension/identity/url_fingerprint.h"

namespace crawldb::frontier {
namespace {

// Hosts are stored kHostsPerGroup to a <t>_snapshot row, group g (hosts g × kHostsPerGroup
// onwards) in row −1 − g: opening reads a few dozen rows rather than one per host.
constexpr uint32_t kHostsPerGroup = 256;
int64_t HostGroupRow(uint32_t group) { return -1 - int64_t{group}; }
// A fold writes the hosts the tail touched as one <t>_pending row, row −seq, rather than their
// groups: with hosts spread over every group (a crawl of many sites) that rewrote every group
// at every fold. The groups are rewritten, and those rows deleted, once the rows weigh half
// the groups or are kMaxHostPendingRows: each host is then rewritten a few times per doubling
// of what changed, and opening reads at most one and a half times the groups.
constexpr int64_t kMaxHostPendingRows = 64;
int64_t HostPendingRow(int64_t seq) { return -seq; }

// Host `id` as the store holds it now, for a host group or a fold's host row.
HostChange PostImage(const FrontierStore& store, uint32_t id) {
  const Host& host = store.host(id);
  return {id, host.name, host.settings, host.summary};
}

// Whether a decoded host group or host row holds hosts, and nothing else.
bool HoldsHostsAlone(const ChangeSet& changes) {
  return !changes.hosts.empty() && changes.urls.empty() && changes.parts.empty() &&
         !changes.counts.has_value();
}

}  // namespace

absl::StatusOr<HostChange> FrontierTable::HostOfRow(const ScopedStatement& select,
                                                    std::string* name_out) {
  sqlite3_stmt* statement = select.get();
  auto is = [&](int column, int type) { return sqlite3_column_type(statement, column) == type; };
  HostChange host;
  const int64_t id = select.ColumnInt64(0);
  host.settings.delay_s = select.ColumnDouble(2);
  host.settings.budget = select.ColumnInt64(3);
  host.settings.blocked_until = select.ColumnDouble(4);
  host.settings.next_allowed = select.ColumnDouble(5);
  const int64_t size = select.ColumnInt64(6), queued = select.ColumnInt64(7),
                depth = select.ColumnInt64(8), priority = select.ColumnInt64(9),
                timed = select.ColumnInt64(11);
  HostSummary& summary = host.summary;
  summary.best.fp = identity::FingerprintFromSql(select.ColumnInt64(10));
  summary.first_due = select.ColumnDouble(12);
  absl::string_view host_name = select.ColumnText(1);
  bool valid = id >= 0 && id <= UINT32_MAX && is(1, SQLITE_TEXT) && !host_name.empty() &&
               host_name.size() <= kMaxHostBytes && is(2, SQLITE_FLOAT) && is(3, SQLITE_INTEGER) &&
               is(4, SQLITE_FLOAT) && is(5, SQLITE_FLOAT) && std::isfinite(host.settings.delay_s) &&
               std::isfinite(host.settings.blocked_until) &&
               std::isfinite(host.settings.next_allowed);
  for (int column = 6; column <= 11; ++column) valid = valid && is(column, SQLITE_INTEGER);
  valid = valid && is(12, SQLITE_FLOAT) && std::isfinite(summary.first_due) && size >= 0 &&
          queued >= 0 && timed >= 0 && queued + timed <= size && depth >= 0 &&
          depth <= UINT16_MAX && priority >= INT32_MIN && priority <= INT32_MAX;
  if (!valid) {
    return CorruptError(kFrontierModule,
                        absl::StrCat("table '", name(), "': host row ", id, " is not valid"));
  }
  host.id = static_cast<uint32_t>(id);
  summary.size = static_cast<uint64_t>(size);
  summary.queued = static_cast<uint64_t>(queued);
  summary.timed = static_cast<uint64_t>(timed);
  summary.best.depth = static_cast<uint16_t>(depth);
  summary.best.priority = static_cast<int32_t>(priority);
  name_out->assign(host_name.data(), host_name.size());
  return host;
}

absl::Status FrontierTable::LoadHosts() {
  // The commit each group was written by: a host row of an older fold yields to its group
  // (written by a build of format 8, which knew nothing of the rows).
  std::vector<int64_t> group_seqs;
  {
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement select, Use(kReadHostGroups));
    while (true) {
      CRAWLDB_ASSIGN_OR_RETURN(bool row, select.Step());
      if (!row) break;
      const uint32_t groups = static_cast<uint32_t>(group_seqs.size());
      const size_t first = store_.host_count();
      if (select.ColumnInt64(0) != HostGroupRow(groups) || first % kHostsPerGroup != 0) {
        return CorruptError(kFrontierModule, absl::StrCat("table '", name(), "': host group ",
                                                          groups, " is missing"));
      }
      CRAWLDB_ASSIGN_OR_RETURN(ChangeSet group, Decode(select.ColumnBlob(2)));
      bool valid = HoldsHostsAlone(group) && group.hosts.size() <= kHostsPerGroup;
      for (size_t i = 0; valid && i < group.hosts.size(); ++i) {
        valid = group.hosts[i].id == first + i;
      }
      if (!valid) {
        return CorruptError(kFrontierModule, absl::StrCat("table '", name(), "': host group ",
                                                          groups, " is not valid"));
      }
      if (absl::Status status = store_.ApplyCommitted(group); !status.ok()) return Corrupt(status);
      group_seqs.push_back(select.ColumnInt64(1));
    }
  }
  hosts_in_rows_ = false;
  // What the folds since the groups were written changed, oldest first (rows −1, −2, …).
  CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement select, Use(kReadHostPending));
  while (true) {
    CRAWLDB_ASSIGN_OR_RETURN(bool row, select.Step());
    if (!row) break;
    const int64_t seq = -select.ColumnInt64(0);
    if (group_seqs.empty()) {
      return CorruptError(kFrontierModule, absl::StrCat("table '", name(), "': the hosts fold ",
                                                        seq, " changed have no host groups"));
    }
    CRAWLDB_ASSIGN_OR_RETURN(ChangeSet hosts, Decode(select.ColumnBlob(1)));
    bool valid = HoldsHostsAlone(hosts);
    for (size_t i = 1; valid && i < hosts.hosts.size(); ++i) {
      valid = hosts.hosts[i - 1].id < hosts.hosts[i].id;
    }
    if (!valid) {
      return CorruptError(kFrontierModule, absl::StrCat("table '", name(), "': the hosts fold ",
                                                        seq, " changed are not valid"));
    }
    std::erase_if(hosts.hosts, [&](const HostChange& host) {
      const size_t group = host.id / kHostsPerGroup;
      return group < group_seqs.size() && group_seqs[group] >= seq;
    });
    if (absl::Status status = store_.ApplyCommitted(hosts); !status.ok()) return Corrupt(status);
  }
  if (!group_seqs.empty()) return absl::OkStatus();
  return LoadHostRows();
}

absl::Status FrontierTable::LoadHostRows() {
  CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement select, Use(kReadHostRows));
  ChangeSet hosts;
  std::vector<std::string> names;
  while (true) {
    CRAWLDB_ASSIGN_OR_RETURN(bool row, select.Step());
    if (!row) break;
    names.emplace_back();
    CRAWLDB_ASSIGN_OR_RETURN(HostChange host, HostOfRow(select, &names.back()));
    if (host.id != hosts.hosts.size()) {
      return CorruptError(kFrontierModule, absl::StrCat("table '", name(), "': host row ",
                                                        hosts.hosts.size(), " is missing"));
    }
    hosts.hosts.push_back(host);
  }
  for (size_t i = 0; i < names.size(); ++i) hosts.hosts[i].name = names[i];
  if (absl::Status status = store_.ApplyCommitted(hosts); !status.ok()) return Corrupt(status);
  hosts_in_rows_ = !hosts.hosts.empty();
  return absl::OkStatus();
}

absl::Status FrontierTable::WriteHosts(const absl::btree_set<uint32_t>& ids, int64_t seq) {
  if (hosts_in_rows_) return WriteEveryHostGroup(seq);  // a file of format 5 or 6
  if (ids.empty()) return absl::OkStatus();
  part_changes_.Clear();
  for (uint32_t id : ids) {  // in order, so that new hosts come in the order of their ids
    part_changes_.hosts.push_back(PostImage(store_, id));
  }
  EncodeChangeSet(part_changes_, &body_, &blob_, &zstd_);
  // Read from the file, so that every connection that folds decides alike.
  int64_t rows = 0, bytes = 0, group_bytes = 0;
  {
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement stats, Use(kHostPendingStats));
    CRAWLDB_ASSIGN_OR_RETURN(bool row, stats.Step());
    if (row) {
      rows = stats.ColumnInt64(0);
      bytes = stats.ColumnInt64(1);
      group_bytes = stats.ColumnInt64(2);
    }
  }
  if (rows + 1 >= kMaxHostPendingRows ||
      2 * (bytes + static_cast<int64_t>(blob_.size())) >= group_bytes) {
    return WriteEveryHostGroup(seq);
  }
  CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement append, Use(kAppendPending));
  CRAWLDB_RETURN_IF_ERROR(append.BindInt64(1, HostPendingRow(seq)));
  CRAWLDB_RETURN_IF_ERROR(append.BindBlobView(2, BytesOf(blob_)));
  return append.Run();
}

absl::Status FrontierTable::WriteEveryHostGroup(int64_t seq) {
  const size_t groups = (store_.host_count() + kHostsPerGroup - 1) / kHostsPerGroup;
  for (uint32_t group = 0; group < groups; ++group) {
    CRAWLDB_RETURN_IF_ERROR(WriteHostGroup(group, seq));
  }
  {
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement erase, Use(kDeleteHostPending));
    CRAWLDB_RETURN_IF_ERROR(erase.Run());
  }
  if (!hosts_in_rows_) return absl::OkStatus();
  CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement empty, Use(kEmptyHostRows));
  CRAWLDB_RETURN_IF_ERROR(empty.Run());
  hosts_in_rows_ = false;
  return absl::OkStatus();
}

absl::Status FrontierTable::WriteHostGroup(uint32_t group, int64_t seq) {
  part_changes_.Clear();
  const size_t end = std::min(store_.host_count(), size_t{group + 1} * kHostsPerGroup);
  for (size_t id = size_t{group} * kHostsPerGroup; id < end; ++id) {
    part_changes_.hosts.push_back(PostImage(store_, static_cast<uint32_t>(id)));
  }
  EncodeChangeSet(part_changes_, &body_, &blob_, &zstd_);
  CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement write, Use(kWriteSnapshotPart));
  CRAWLDB_RETURN_IF_ERROR(write.BindInt64(1, HostGroupRow(group)));
  CRAWLDB_RETURN_IF_ERROR(write.BindInt64(2, seq));
  CRAWLDB_RETURN_IF_ERROR(write.BindBlobView(3, BytesOf(blob_)));
  return write.Run();
}

}  // namespace crawldb::frontier
