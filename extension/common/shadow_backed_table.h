// ShadowBackedTable: the one base of the crawldb tables whose state lives in shadow tables
// (urls, outlinks, frontier). It owns what the three share:
// - the connection and the table's schema and name, and its place in the connection's registry
//   (Connection, from construction to destruction);
// - the statements on its shadow tables, prepared once and cached (StatementCache), the SQL of
//   each given by the table (StatementSql) and made again after a rename;
// - the managed shadow-table set (ShadowTableSet): xDestroy drops it, xRename renames it;
// - the corruption policy: stored bytes that fail validation (DataLoss) become
//   SQLITE_CORRUPT_VTAB naming the table; a format version this build cannot read
//   (FailedPrecondition) a user error that says which build to use;
// - reading a blob table stored as numbered parts 0, 1, 2, … (ReadParts), one blob by its
//   rowid (ReadBlob), and the first few by rowid (ReadFirstBlobs);
// - the bound on what the table caches: its cache_mb option, or else the connection's bound,
//   followed as crawldb_cache_mb() changes it (InitCacheBound, SetCacheBytes).
// Transactions and catching up with other connections are LoggedTable's; the trampolines
// (trampoline.h) find xDestroy and xRename here.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "extension/common/connection.h"
#include "extension/common/logged_table.h"
#include "extension/common/shadow_tables.h"
#include "extension/common/sqlite_api.h"
#include "extension/common/statement_cache.h"
#include "extension/common/trampoline.h"
#include "extension/common/vtab_args.h"

namespace crawldb {

class ShadowBackedTable : public VirtualTable, public CrawldbTable, public LoggedTable {
 public:
  ~ShadowBackedTable() override;

  absl::Status Destroy();
  absl::Status Rename(const char* new_name);

  // CrawldbTable
  const std::string& schema() const override { return schema_; }
  const std::string& name() const override { return name_; }
  // Catches up (a failure is the one problem), then CheckStore; each problem is prefixed with
  // the table's name.
  absl::Status Check(std::vector<std::string>* problems) final;
  // Passes the connection's new bound on (SetCacheBytes) unless the cache_mb option set one.
  void ConnectionCacheChanged(size_t cache_mb) final;

 protected:
  // `shadow` must outlive the table (a static set beside the module); `module` is the module's
  // name ("crawldb_urls"), which starts every message. `connection` may be nullptr (a table used
  // without the registry).
  ShadowBackedTable(sqlite3* db, Connection* connection, const ShadowTableSet& shadow,
                    const char* module, const VtabArgs& args);

  // The SQL of every statement on the shadow tables, by slot, naming the tables as they are now.
  virtual std::vector<std::string> StatementSql() const = 0;
  // Checks every invariant of the caught-up store; appends one line per problem to *found.
  virtual absl::Status CheckStore(std::vector<std::string>* found) = 0;
  // The table's store takes `bytes` as its new cache bound.
  virtual void SetCacheBytes(uint64_t bytes) = 0;
  // Sets the first bound (SetCacheBytes): the cache_mb option in MiB when given, else the
  // connection's bound. Called by the table's constructor once its store exists.
  void InitCacheBound(std::optional<size_t> cache_mb);
  // Statement `slot`, prepared on first use, lent until the ScopedStatement goes.
  absl::StatusOr<ScopedStatement> Use(size_t slot);

  // "schema"."<name>_<suffix>", quoted for SQL.
  std::string ShadowName(absl::string_view suffix) const;
  // The corruption policy above, for a status from a decoder or a store.
  absl::Status Corrupt(const absl::Status& cause) const;
  // Writes this build's format version into <t>_config when it holds an older one this build
  // still reads: called by every commit that writes (xSync), so that builds which cannot read
  // what it wrote refuse the file instead of misreading it.
  absl::Status UpgradeFormat();
  // The blobs a `SELECT part, data … ORDER BY part` statement returns, which must number the
  // parts 0, 1, 2, … without a gap; `what` names them in the message when one is missing
  // ("graph part 3 is missing").
  absl::StatusOr<std::vector<std::vector<uint8_t>>> ReadParts(size_t slot, absl::string_view what);
  // Where a value of `size` bytes goes: a span of exactly `size` bytes, or why it may not be read
  // (a size not the one expected).
  using BlobDestination = std::function<absl::StatusOr<absl::Span<uint8_t>>(size_t size)>;
  // The BLOB `column` of row `rowid` of the shadow table <name>_<suffix>, read by incremental
  // blob I/O into *into(size): a new connection prepares no statement for it, and a value that
  // spills onto overflow pages is copied once, not first into SQLite's memory as a statement's
  // step does (about a sixth of the instructions for a part of 16 KiB). NotFoundError when the
  // row is missing, DataLossError (to pass through Corrupt) when its value is not a blob.
  absl::Status ReadBlob(absl::string_view suffix, const char* column, int64_t rowid,
                        const BlobDestination& into);
  // A destination that resizes *bytes to the value.
  static BlobDestination IntoVector(std::vector<uint8_t>* bytes);
  // The blobs `column` of rows 0, 1, … up to `count` (excluded) of <name>_<suffix> (ReadBlob),
  // as many as are stored, which must be the first ones without a gap (named by `what`, as
  // ReadParts does).
  absl::StatusOr<std::vector<std::vector<uint8_t>>> ReadFirstBlobs(absl::string_view suffix,
                                                                   const char* column, size_t count,
                                                                   absl::string_view what);

  sqlite3* db() const { return db_; }
  Connection* connection() const { return connection_; }
  const char* module() const { return module_; }

 private:
  sqlite3* db_;
  Connection* connection_;
  const ShadowTableSet& shadow_;
  const char* module_;
  std::string schema_;
  std::string name_;
  std::unique_ptr<StatementCache> statements_;  // made at the first Use after a (re)name
  bool format_current_ = false;  // UpgradeFormat found this build's version committed
  // The cache_mb option was given: the connection's bound does not apply.
  bool own_cache_mb_ = false;
};

}  // namespace crawldb
