// The statements `urls` runs on its shadow tables, by slot (UrlsTable::StatementSql holds their
// SQL). Private to the table's sources.
#pragma once

namespace crawldb::urls {

// Statements on the shadow tables, by slot (StatementSql holds the SQL).
enum Slot {
  kCountBaseParts,
  kClearBase,
  kWriteBasePart,
  kReadLogSince,
  kReadLastLog,
  kAppendLog,
  kClearLog,
  kLogSize,
  kTrimLog,
  kReadRun,
  kReadRunsSince,
  kWritePart,
  kClearParts,
  kReadPending,
  kWritePending,
  kTrimPending,
  kClearPending,
  kPendingSize,
  kReadIdChunk,
  kWriteIdChunk,
  kClearIds,
  kReadDeleted,
  kWriteDeleted,
  kClearDeleted,
  kAnyDeleted,
  kCountSinceOptimize,
  kReadLineage,
  kCountDeletion,
  kSlotCount
};

}  // namespace crawldb::urls
