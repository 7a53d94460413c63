// The statements `urls` runs on its shadow tables, by slot (UrlsTable::StatementSql holds their
// SQL). Private to the table's sources.
#pragma once

namespace crawldb::urls {

// Statements on the shadow tables, by slot (StatementSql holds the SQL).
enum Slot {
  kReadBase,
  kClearBase,
  kWriteBasePart,
  kReadLogSince,
  kAppendLog,
  kClearLog,
  kLogSize,
  kReadParts,
  kReadPartsSince,
  kWritePart,
  kClearParts,
  kReadDeleted,
  kWriteDeleted,
  kClearDeleted,
  kTrimLog,
};

}  // namespace crawldb::urls
