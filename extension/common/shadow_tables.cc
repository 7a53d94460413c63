#include "extension/common/shadow_tables.h"

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "extension/common/statement_cache.h"
#include "extension/common/status.h"
#include "extension/common/table_sync.h"

namespace crawldb {
namespace {

constexpr absl::string_view kConfigDefinition = "(key TEXT PRIMARY KEY, value) WITHOUT ROWID";

// Prepares, binds text parameters and runs a one-off statement; returns the first column of the
// first row, if any.
absl::StatusOr<std::optional<std::string>> RunOnce(
    sqlite3* db, absl::string_view module, const std::string& sql,
    std::initializer_list<absl::string_view> params) {
  StatementCache once(db, std::string(module), {sql});
  CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement statement, once.Use(0));
  int index = 1;
  for (absl::string_view param : params) {
    CRAWLDB_RETURN_IF_ERROR(statement.BindText(index++, param));
  }
  CRAWLDB_ASSIGN_OR_RETURN(bool row, statement.Step());
  if (!row) return std::optional<std::string>();
  std::optional<std::string> value(std::string(statement.ColumnText(0)));
  CRAWLDB_RETURN_IF_ERROR(statement.Run());
  return value;
}

}  // namespace

bool ShadowTableSet::IsShadowName(absl::string_view suffix) const {
  if (suffix == kConfigSuffix) return true;
  for (const ShadowTableSpec& spec : tables_) {
    if (spec.suffix == suffix) return true;
  }
  return false;
}

std::string ShadowTableSet::QualifiedName(absl::string_view schema, absl::string_view table,
                                          absl::string_view suffix) {
  return absl::StrCat(QuoteIdentifier(schema), ".",
                      QuoteIdentifier(absl::StrCat(table, "_", suffix)));
}

absl::Status ShadowTableSet::Create(
    sqlite3* db, absl::string_view schema, absl::string_view table,
    absl::Span<const std::pair<std::string, std::string>> options) const {
  std::string ddl = absl::StrCat("CREATE TABLE ", QualifiedName(schema, table, kConfigSuffix),
                                 kConfigDefinition, ";");
  for (const ShadowTableSpec& spec : tables_) {
    absl::StrAppend(&ddl, "CREATE TABLE ", QualifiedName(schema, table, spec.suffix),
                    spec.definition, ";");
  }
  CRAWLDB_RETURN_IF_ERROR(ExecSql(db, ddl, module_));
  CRAWLDB_RETURN_IF_ERROR(WriteConfig(db, schema, table, "module", module_));
  CRAWLDB_RETURN_IF_ERROR(
      WriteConfig(db, schema, table, "format_version", absl::StrCat(format_version_)));
  for (const auto& [name, value] : options) {
    CRAWLDB_RETURN_IF_ERROR(WriteConfig(db, schema, table, absl::StrCat("option.", name), value));
  }
  return absl::OkStatus();
}

absl::StatusOr<ShadowTableSet::Stored> ShadowTableSet::ReadStored(sqlite3* db,
                                                                  absl::string_view schema,
                                                                  absl::string_view table) const {
  Stored stored;
  std::optional<std::string> module, format;
  absl::Status read = [&]() -> absl::Status {
    // Every row (a config holds about ten): a statement without an IN list costs about half
    // as much to prepare (42,000 instructions against 95,000), at each xConnect.
    StatementCache once(
        db, std::string(module_),
        {absl::StrCat("SELECT key, value FROM ", QualifiedName(schema, table, kConfigSuffix))});
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement select, once.Use(0));
    while (true) {
      CRAWLDB_ASSIGN_OR_RETURN(bool row, select.Step());
      if (!row) return absl::OkStatus();
      if (!stored.pager_data_version.has_value()) {
        stored.pager_data_version = TableSync::PagerDataVersion(db, std::string(schema).c_str());
      }
      const absl::string_view key = select.ColumnText(0);
      if (key == "module") {
        module.emplace(select.ColumnText(1));
      } else if (key == "format_version") {
        format.emplace(select.ColumnText(1));
      } else if (key == "generation") {
        int64_t generation = 0;
        if (absl::SimpleAtoi(select.ColumnText(1), &generation)) stored.generation = generation;
      } else {
        TakePlanFigure(key, select.ColumnText(1), &stored.figures);  // ignores other keys
      }
    }
  }();
  if (!read.ok()) {
    return CorruptError(module_, absl::StrCat("cannot read the config of table '", table, "' (",
                                              read.message(), ")"));
  }
  if (!module.has_value()) {
    return CorruptError(module_, absl::StrCat("table '", table, "' has no module in its config"));
  }
  if (*module != module_) {
    return UserError(module_,
                     absl::StrCat("table '", table, "' was created by module '", *module,
                                  "', not '", module_, "'"),
                     absl::StrCat("declare it with USING ", *module));
  }
  int version = 0;
  if (!format.has_value() || !absl::SimpleAtoi(*format, &version)) {
    return CorruptError(module_, absl::StrCat("table '", table, "' has no valid format version"));
  }
  if (version > format_version_) {
    return UserError(module_,
                     absl::StrCat("table '", table, "' has format version ", version,
                                  ", newer than this build reads (", oldest_readable_, " to ",
                                  format_version_, ")"),
                     "open it with a newer crawldb");
  }
  if (version < oldest_readable_) {
    return UserError(module_,
                     absl::StrCat("table '", table, "' has format version ", version,
                                  ", older than this build reads (", oldest_readable_, " to ",
                                  format_version_, ")"),
                     "export it with the crawldb that wrote it and import it again");
  }
  stored.format_version = version;
  return stored;
}

absl::Status ShadowTableSet::Drop(sqlite3* db, absl::string_view schema,
                                  absl::string_view table) const {
  std::string ddl =
      absl::StrCat("DROP TABLE IF EXISTS ", QualifiedName(schema, table, kConfigSuffix), ";");
  for (const ShadowTableSpec& spec : tables_) {
    absl::StrAppend(&ddl, "DROP TABLE IF EXISTS ", QualifiedName(schema, table, spec.suffix), ";");
  }
  return ExecSql(db, ddl, module_);
}

absl::Status ShadowTableSet::Rename(sqlite3* db, absl::string_view schema,
                                    absl::string_view old_table,
                                    absl::string_view new_table) const {
  auto rename = [&](absl::string_view suffix) {
    return absl::StrCat("ALTER TABLE ", QualifiedName(schema, old_table, suffix), " RENAME TO ",
                        QuoteIdentifier(absl::StrCat(new_table, "_", suffix)), ";");
  };
  std::string ddl = rename(kConfigSuffix);
  // A table added by a later format may be missing from a file of an older one.
  const std::string exists = absl::StrCat("SELECT 1 FROM ", QuoteIdentifier(schema),
                                          ".sqlite_master WHERE type = 'table' AND name = ?1");
  for (const ShadowTableSpec& spec : tables_) {
    CRAWLDB_ASSIGN_OR_RETURN(
        std::optional<std::string> found,
        RunOnce(db, module_, exists, {absl::StrCat(old_table, "_", spec.suffix)}));
    if (found.has_value()) absl::StrAppend(&ddl, rename(spec.suffix));
  }
  return ExecSql(db, ddl, module_);
}

absl::StatusOr<std::optional<std::string>> ShadowTableSet::ReadConfig(sqlite3* db,
                                                                      absl::string_view schema,
                                                                      absl::string_view table,
                                                                      absl::string_view key) const {
  return RunOnce(db, module_,
                 absl::StrCat("SELECT value FROM ", QualifiedName(schema, table, kConfigSuffix),
                              " WHERE key = ?1"),
                 {key});
}

absl::Status ShadowTableSet::WriteConfig(sqlite3* db, absl::string_view schema,
                                         absl::string_view table, absl::string_view key,
                                         absl::string_view value) const {
  return RunOnce(
             db, module_,
             absl::StrCat("INSERT OR REPLACE INTO ", QualifiedName(schema, table, kConfigSuffix),
                          "(key, value) VALUES (?1, ?2)"),
             {key, value})
      .status();
}

}  // namespace crawldb
