// A small virtual table for the boundary-layer tests only (never shipped in crawldb.so):
//   CREATE VIRTUAL TABLE t USING crawldb_test_kv(label, limit=100, mode=plain)
// keeps (key INTEGER, value TEXT) rows in a shadow table t_rows through VtabModule,
// VtabOptions, ShadowTableSet and StatementCache, so tests can drive each piece through SQL.
// Inserting a value named 'throw-bad-alloc', 'throw-runtime', 'busy', 'full', 'corrupt' or
// 'duplicate' makes xUpdate fail in that way, to test the error mapping.
#pragma once

#include <memory>
#include <new>
#include <stdexcept>
#include <string>

#include "absl/strings/str_cat.h"
#include "extension/common/shadow_tables.h"
#include "extension/common/sqlite_api.h"
#include "extension/common/statement_cache.h"
#include "extension/common/status.h"
#include "extension/common/trampoline.h"
#include "extension/common/vtab_args.h"

namespace crawldb::testing {

inline constexpr absl::string_view kKvModule = "crawldb_test_kv";
inline constexpr ShadowTableSpec kKvShadowTables[] = {
    {"rows", "(key INTEGER PRIMARY KEY, value TEXT)"},
};
inline const ShadowTableSet& KvShadowTables() {
  static const ShadowTableSet set(kKvModule, kKvShadowTables, /*format_version=*/2,
                                  /*oldest_readable=*/1);
  return set;
}
inline constexpr PositionalSpec kKvPositional[] = {{"label", "none"}};
inline const OptionSpec kKvOptions[] = {
    {.name = "limit", .kind = OptionKind::kInteger, .default_value = "100", .min = 1, .max = 1000},
    {.name = "ratio", .kind = OptionKind::kReal, .default_value = "0.5", .min = 0, .max = 1},
    {.name = "mode",
     .kind = OptionKind::kText,
     .default_value = "plain",
     .choices = {"plain", "fancy"}},
    {.name = "strict", .kind = OptionKind::kBoolean, .default_value = "false"},
};

class KvTable : public VirtualTable {
 public:
  struct Cursor : VirtualCursor {
    std::vector<std::pair<int64_t, std::string>> rows;
    size_t at = 0;
    absl::Status Filter(int, const char*, int, sqlite3_value**) {
      KvTable* table = static_cast<KvTable*>(pVtab);
      CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement select, table->statements_->Use(kSelectAll));
      rows.clear();
      while (true) {
        CRAWLDB_ASSIGN_OR_RETURN(bool row, select.Step());
        if (!row) break;
        rows.emplace_back(select.ColumnInt64(0), std::string(select.ColumnText(1)));
      }
      at = 0;
      return absl::OkStatus();
    }
    absl::Status Next() {
      ++at;
      return absl::OkStatus();
    }
    bool Eof() const { return at >= rows.size(); }
    absl::Status Column(sqlite3_context* context, int column) {
      if (column == 0) {
        sqlite3_result_int64(context, rows[at].first);
      } else {
        sqlite3_result_text(context, rows[at].second.c_str(), -1, SQLITE_TRANSIENT);
      }
      return absl::OkStatus();
    }
    absl::StatusOr<sqlite3_int64> Rowid() { return rows[at].first; }
  };

  static absl::StatusOr<std::unique_ptr<KvTable>> Create(sqlite3* db, void* aux,
                                                         const VtabArgs& args) {
    CRAWLDB_ASSIGN_OR_RETURN(VtabOptions options,
                             VtabOptions::Parse(args, kKvPositional, kKvOptions));
    CRAWLDB_RETURN_IF_ERROR(
        KvShadowTables().Create(db, args.schema, args.table, options.Canonical()));
    return Connect(db, aux, args);
  }
  static absl::StatusOr<std::unique_ptr<KvTable>> Connect(sqlite3* db, void*,
                                                          const VtabArgs& args) {
    CRAWLDB_ASSIGN_OR_RETURN(VtabOptions options,
                             VtabOptions::Parse(args, kKvPositional, kKvOptions));
    CRAWLDB_RETURN_IF_ERROR(KvShadowTables().ReadStored(db, args.schema, args.table).status());
    int rc = sqlite3_declare_vtab(db, "CREATE TABLE x(key INTEGER, value TEXT)");
    if (rc != SQLITE_OK) return SqliteFailure(db, rc, kKvModule);
    return std::unique_ptr<KvTable>(new KvTable(db, args, options.Integer("limit")));
  }
  static bool IsShadowName(absl::string_view suffix) {
    return KvShadowTables().IsShadowName(suffix);
  }

  absl::Status BestIndex(sqlite3_index_info* info) {
    info->estimatedCost = 1000;
    return absl::OkStatus();
  }
  absl::StatusOr<std::unique_ptr<Cursor>> Open() { return std::make_unique<Cursor>(); }
  absl::Status Destroy() { return KvShadowTables().Drop(db_, schema_, table_); }
  absl::Status Rename(const char* new_name) {
    CRAWLDB_RETURN_IF_ERROR(KvShadowTables().Rename(db_, schema_, table_, new_name));
    table_ = new_name;
    statements_ = MakeStatements();  // the cached SQL names the old tables
    return absl::OkStatus();
  }

  absl::Status Update(int argc, sqlite3_value** argv, sqlite3_int64* rowid) {
    if (argc == 1 || sqlite3_value_type(argv[0]) != SQLITE_NULL) {
      return UserError(kKvModule, "only INSERT is supported");
    }
    std::string value(reinterpret_cast<const char*>(sqlite3_value_text(argv[3])) ?: "");
    if (value == "throw-bad-alloc") throw std::bad_alloc();
    if (value == "throw-runtime") throw std::runtime_error("boom");
    if (value == "busy") return SqliteError(SQLITE_BUSY, "crawldb_test_kv: simulated busy");
    if (value == "full") return SqliteError(SQLITE_FULL, "crawldb_test_kv: simulated full");
    if (value == "corrupt") return CorruptError(kKvModule, "simulated bad block");
    if (value == "duplicate") {
      return ConstraintError(kKvModule, "value 'duplicate' exists", "use INSERT OR IGNORE");
    }
    if (++inserted_ > limit_) return UserError(kKvModule, "row limit reached");
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement insert, statements_->Use(kInsert));
    CRAWLDB_RETURN_IF_ERROR(insert.BindInt64(1, sqlite3_value_int64(argv[2])));
    CRAWLDB_RETURN_IF_ERROR(insert.BindText(2, value));
    CRAWLDB_RETURN_IF_ERROR(insert.Run());
    *rowid = sqlite3_value_int64(argv[2]);
    return absl::OkStatus();
  }

 private:
  enum Slot { kSelectAll, kInsert };
  KvTable(sqlite3* db, const VtabArgs& args, int64_t limit)
      : db_(db),
        schema_(args.schema),
        table_(args.table),
        limit_(limit),
        statements_(MakeStatements()) {}

  std::unique_ptr<StatementCache> MakeStatements() const {
    std::string rows = ShadowTableSet::QualifiedName(schema_, table_, "rows");
    return std::make_unique<StatementCache>(
        db_, std::string(kKvModule),
        std::vector<std::string>{
            absl::StrCat("SELECT key, value FROM ", rows, " ORDER BY key"),
            absl::StrCat("INSERT INTO ", rows, "(key, value) VALUES (?1, ?2)")});
  }

  sqlite3* db_;
  std::string schema_;
  std::string table_;
  int64_t limit_;
  int64_t inserted_ = 0;
  std::unique_ptr<StatementCache> statements_;
};

inline int RegisterKvModule(sqlite3* db) {
  return sqlite3_create_module_v2(db, std::string(kKvModule).c_str(), VtabModule<KvTable>::Get(),
                                  nullptr, nullptr);
}

}  // namespace crawldb::testing
