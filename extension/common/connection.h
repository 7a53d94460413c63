// Per-connection state of crawldb: one Connection for each sqlite3* that loaded the extension,
// created by sqlite3_crawldb_init and destroyed with the connection (it is the client data of
// the modules; SQLite calls its destructor when the connection closes).
//
// It keeps the crawldb virtual tables that are connected right now, so that SQL functions
// (url_id, crawldb_stats, …) reach a table's store directly instead of running nested SQL.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "extension/common/held_statements.h"
#include "extension/common/sqlite_api.h"

namespace crawldb {

// What every crawldb table offers the maintenance functions.
class CrawldbTable {
 public:
  virtual ~CrawldbTable() = default;
  virtual const std::string& schema() const = 0;
  virtual const std::string& name() const = 0;
  // The table's figures as one JSON object.
  virtual absl::StatusOr<std::string> StatsJson() = 0;
  // Checks every invariant; appends one line per problem to *problems.
  virtual absl::Status Check(std::vector<std::string>* problems) = 0;
  // The urls table `urls_table` (same schema) renumbered its ids at optimize: old id i is now
  // old_to_new[i], or gone when that is 0. Tables that hold URL ids follow; ids at or beyond
  // old_to_new.size() are not URLs and keep their number.
  virtual absl::Status RenumberIds(absl::string_view /*urls_table*/,
                                   absl::Span<const int64_t> /*old_to_new*/) {
    return absl::OkStatus();
  }
  // The connection's cache bound (Connection::cache_mb) changed: tables whose own option does
  // not set theirs follow it.
  virtual void ConnectionCacheChanged(size_t /*cache_mb*/) {}
};

class Connection {
 public:
  explicit Connection(sqlite3* db) : db_(db), held_statements_(db) {}
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  sqlite3* db() const { return db_; }

  // The statements SQL functions keep between calls (held_statements.h).
  HeldStatements& held_statements() { return held_statements_; }

  // The bound, in MiB, on what each table that pages from the file holds, unless its cache_mb
  // option says otherwise (crawldb_cache_mb sets it; url_store.h).
  static constexpr size_t kDefaultCacheMb = 256;
  size_t cache_mb() const { return cache_mb_; }
  void SetCacheMb(size_t cache_mb);

  void Register(CrawldbTable* table) {
    tables_.push_back(table);
    ++registry_version_;
  }
  void Unregister(CrawldbTable* table);
  void Renamed() { ++registry_version_; }
  // Changes whenever a table is registered, unregistered or renamed: a caller that keeps a
  // table it found by name uses it again only while this is unchanged.
  uint64_t registry_version() const { return registry_version_; }

  // The connected table `name` in `schema` (case-insensitive, as SQL names are), or nullptr.
  CrawldbTable* Find(absl::string_view schema, absl::string_view name) const;

  // Connects every crawldb virtual table of the main schema (preparing a statement that names a
  // virtual table connects it) and returns them all.
  absl::StatusOr<std::vector<CrawldbTable*>> ConnectAll();

  // Connects table `name` of the main schema if it exists and is not connected yet; returns it
  // or nullptr when there is no such crawldb table.
  absl::StatusOr<CrawldbTable*> Connect(absl::string_view name);

  // The typed look-ups every family uses to reach another's table: Find and Connect, giving
  // nullptr also when the table is a crawldb table of another kind than T.
  template <typename T>
  T* FindAs(absl::string_view schema, absl::string_view name) const {
    return dynamic_cast<T*>(Find(schema, name));
  }
  template <typename T>
  absl::StatusOr<T*> ConnectAs(absl::string_view name) {
    absl::StatusOr<CrawldbTable*> table = Connect(name);
    if (!table.ok()) return table.status();
    return dynamic_cast<T*>(*table);
  }

 private:
  sqlite3* db_;
  HeldStatements held_statements_;
  std::vector<CrawldbTable*> tables_;
  uint64_t registry_version_ = 0;
  size_t cache_mb_ = kDefaultCacheMb;
};

}  // namespace crawldb
