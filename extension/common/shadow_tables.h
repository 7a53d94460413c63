// The managed set of shadow tables behind one virtual table.
//
// A crawldb table `t` keeps its state in real tables named `t_<suffix>`. ShadowTableSet creates,
// drops and renames them together, answers xShadowName from the same list (so that
// SQLITE_DBCONFIG_DEFENSIVE protects them), and owns the config table every set has:
//
//   t_config(key TEXT PRIMARY KEY, value) WITHOUT ROWID
//     'module'          the module that created t ("crawldb_urls"); checked on open
//     'format_version'  integer; the layout of every shadow table of t. Checked on open: a
//                       version newer than this build writes, or older than it reads, is refused
//     'option.<name>'   each CREATE VIRTUAL TABLE option with defaults filled in (documentation;
//                       the options in force are the ones SQLite passes xConnect)
//   plus whatever keys the table itself keeps there (ReadConfig / WriteConfig).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>
#include "absl/strings/string_view.h"

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "extension/common/plan_figures.h"
#include "extension/common/sqlite_api.h"

namespace crawldb {

struct ShadowTableSpec {
  absl::string_view suffix;  // "blocks" → table "t_blocks"
  absl::string_view
      definition;  // what follows the name in CREATE TABLE: "(id INTEGER PRIMARY KEY, data BLOB)"
};

class ShadowTableSet {
 public:
  static constexpr absl::string_view kConfigSuffix = "config";

  // `tables` must outlive the set (in practice: a static array next to the table's module).
  // This build writes `format_version` and reads every version from `oldest_readable` up to it.
  ShadowTableSet(absl::string_view module, absl::Span<const ShadowTableSpec> tables,
                 int format_version, int oldest_readable)
      : module_(module),
        tables_(tables),
        format_version_(format_version),
        oldest_readable_(oldest_readable) {}

  // True for "config" and every suffix of the set: the xShadowName answer.
  bool IsShadowName(absl::string_view suffix) const;

  // Creates every shadow table and the config rows for a new virtual table.
  absl::Status Create(sqlite3* db, absl::string_view schema, absl::string_view table,
                      absl::Span<const std::pair<std::string, std::string>> options) const;

  // What xConnect reads of an existing table's config, in one statement: its format version,
  // checked (created by this module, a version this build reads), the figures it plans with
  // until its store is loaded (plan_figures.h; the defaults where none are stored), and its
  // 'generation' (table_sync.h) with the pager's data version of the snapshot it was read in,
  // so that the first load can skip reading it again when nothing was committed since.
  struct Stored {
    int format_version = 0;
    PlanFigures figures;
    std::optional<int64_t> generation;
    std::optional<unsigned int> pager_data_version;
  };
  absl::StatusOr<Stored> ReadStored(sqlite3* db, absl::string_view schema,
                                    absl::string_view table) const;

  // Drop and Rename skip the shadow tables a file of an older format lacks.
  absl::Status Drop(sqlite3* db, absl::string_view schema, absl::string_view table) const;
  absl::Status Rename(sqlite3* db, absl::string_view schema, absl::string_view old_table,
                      absl::string_view new_table) const;

  // A config value; nullopt when the key is absent.
  absl::StatusOr<std::optional<std::string>> ReadConfig(sqlite3* db, absl::string_view schema,
                                                        absl::string_view table,
                                                        absl::string_view key) const;
  absl::Status WriteConfig(sqlite3* db, absl::string_view schema, absl::string_view table,
                           absl::string_view key, absl::string_view value) const;

  // "schema"."table_suffix", quoted for SQL.
  static std::string QualifiedName(absl::string_view schema, absl::string_view table,
                                   absl::string_view suffix);

  int format_version() const { return format_version_; }

 private:
  absl::string_view module_;
  absl::Span<const ShadowTableSpec> tables_;
  int format_version_;
  int oldest_readable_;
};

}  // namespace crawldb
