// The statements `frontier` runs on its shadow tables, by slot (FrontierTable::StatementSql holds
// their SQL), and the columns of the table. Private to the table's sources.
#pragma once

namespace crawldb::frontier {

// Columns, in declaration order.
enum Column {
  kColumnId,
  kColumnUrl,
  kColumnHost,
  kColumnDepth,
  kColumnPriority,
  kColumnState,
  kColumnDue,
  kColumnAttempts,
  kColumnStatus,
  kColumnCommand,  // hidden, named like the table
  kColumnParent,
  kColumnN,
  kColumnSeconds,
  kColumnNow,
  kColumnDelay,
  kColumnBudget,
  kColumnUntil,
  kColumnLink,
  kColumnRequest,     // hidden: crawl_add's AddRequest, by pointer
  kColumnLeaseToken,  // hidden: the token of a 'lease' command row, and of a URL leased under one
  kColumnCount,
};

enum Slot {
  kReadHostGroups,
  kReadHostPending,
  kHostPendingStats,
  kDeleteHostPending,
  kReadHostRows,
  kEmptyHostRows,
  kReadPart,
  kWriteSnapshotPart,
  kNewestSeq,
  kPartStats,
  kAppendPending,
  kDeletePending,
  kReadNewestLog,
  kReadLogSince,
  kAppendLog,
  kTrimLog,
  kLogBytes,
  kSnapshotBytes,
  kPendingBytes,
  kStoredParts,
  kAppendLink,
  kInsertUrl,
  kReadUrlsLineage,
  kWriteUrlsLineage,
  // <t>_leases (lease tokens, frontier_table.h).
  kLeasesExist,
  kCreateLeases,
  kReadLeasesOfToken,
  kReadLeaseOfUrl,
  kDeleteExpiredLeases,
  kDeleteLeasesOfToken,
  kInsertLease,
  kSlotCount,
};

}  // namespace crawldb::frontier
