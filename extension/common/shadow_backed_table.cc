#include "extension/common/shadow_backed_table.h"

#include <memory>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "extension/common/status.h"

namespace crawldb {

absl::Status ShadowBackedTable::UpgradeFormat() {
  if (format_current_) return absl::OkStatus();
  CRAWLDB_ASSIGN_OR_RETURN(std::optional<std::string> stored,
                           shadow_.ReadConfig(db_, schema_, name_, "format_version"));
  const std::string current = absl::StrCat(shadow_.format_version());
  // Read as current at a commit's start, the version was committed before (one xSync per
  // transaction): no rollback can take it back. Written here, it is read again next time.
  if (stored == current) {
    format_current_ = true;
    return absl::OkStatus();
  }
  return shadow_.WriteConfig(db_, schema_, name_, "format_version", current);
}

ShadowBackedTable::ShadowBackedTable(sqlite3* db, Connection* connection,
                                     const ShadowTableSet& shadow, const char* module,
                                     const VtabArgs& args)
    : LoggedTable(db, module, args.schema, args.table),
      db_(db),
      connection_(connection),
      shadow_(shadow),
      module_(module),
      schema_(args.schema),
      name_(args.table) {
  if (connection_ != nullptr) connection_->Register(this);
}

void ShadowBackedTable::InitCacheBound(std::optional<size_t> cache_mb) {
  own_cache_mb_ = cache_mb.has_value();
  const size_t mb = cache_mb.value_or(connection_ != nullptr ? connection_->cache_mb()
                                                             : Connection::kDefaultCacheMb);
  SetCacheBytes(uint64_t{mb} << 20);
}

void ShadowBackedTable::ConnectionCacheChanged(size_t cache_mb) {
  if (!own_cache_mb_) SetCacheBytes(uint64_t{cache_mb} << 20);
}

ShadowBackedTable::~ShadowBackedTable() {
  if (connection_ != nullptr) connection_->Unregister(this);
}

absl::Status ShadowBackedTable::Destroy() { return shadow_.Drop(db_, schema_, name_); }

absl::Status ShadowBackedTable::Rename(const char* new_name) {
  CRAWLDB_RETURN_IF_ERROR(shadow_.Rename(db_, schema_, name_, new_name));
  name_ = new_name;
  if (connection_ != nullptr) connection_->Renamed();
  statements_.reset();  // their SQL names the old tables
  RenameSync(schema_, name_);
  return absl::OkStatus();
}

absl::Status ShadowBackedTable::Check(std::vector<std::string>* problems) {
  std::vector<std::string> found;
  if (absl::Status caught_up = CatchUp(); !caught_up.ok()) {
    found.emplace_back(caught_up.message());
  } else {
    CRAWLDB_RETURN_IF_ERROR(CheckStore(&found));
  }
  for (const std::string& problem : found) problems->push_back(absl::StrCat(name_, ": ", problem));
  return absl::OkStatus();
}

absl::StatusOr<ScopedStatement> ShadowBackedTable::Use(size_t slot) {
  if (statements_ == nullptr) {
    statements_ = std::make_unique<StatementCache>(db_, module_, StatementSql());
  }
  return statements_->Use(slot);
}

std::string ShadowBackedTable::ShadowName(absl::string_view suffix) const {
  return ShadowTableSet::QualifiedName(schema_, name_, suffix);
}

absl::Status ShadowBackedTable::Corrupt(const absl::Status& cause) const {
  if (cause.code() == absl::StatusCode::kFailedPrecondition) {
    return UserError(module_, absl::StrCat("table '", name_, "': ", cause.message()),
                     "open the file with the crawldb build that wrote it");
  }
  if (cause.code() != absl::StatusCode::kDataLoss) return cause;
  return CorruptError(module_, absl::StrCat("table '", name_, "': ", cause.message()));
}

absl::StatusOr<std::vector<std::vector<uint8_t>>> ShadowBackedTable::ReadParts(
    size_t slot, absl::string_view what) {
  CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement select, Use(slot));
  std::vector<std::vector<uint8_t>> parts;
  while (true) {
    CRAWLDB_ASSIGN_OR_RETURN(bool row, select.Step());
    if (!row) break;
    if (select.ColumnInt64(0) != static_cast<int64_t>(parts.size())) {
      return CorruptError(
          module_, absl::StrCat("table '", name_, "': ", what, " ", parts.size(), " is missing"));
    }
    absl::Span<const uint8_t> data = select.ColumnBlob(1);
    parts.emplace_back(data.begin(), data.end());
  }
  return parts;
}

absl::Status ShadowBackedTable::ReadBlob(absl::string_view suffix, const char* column,
                                         int64_t rowid, const BlobDestination& into) {
  const std::string table = absl::StrCat(name_, "_", suffix);
  sqlite3_blob* opened = nullptr;
  const int rc = sqlite3_blob_open(db_, schema_.c_str(), table.c_str(), column, rowid, 0, &opened);
  // Closed on every way out (into may throw): an open handle holds its read transaction.
  struct Close {
    void operator()(sqlite3_blob* handle) const { sqlite3_blob_close(handle); }
  };
  const std::unique_ptr<sqlite3_blob, Close> blob(opened);
  if (rc != SQLITE_OK) {
    const absl::string_view message = sqlite3_errmsg(db_);
    if (rc == SQLITE_ERROR && absl::StartsWith(message, "no such rowid")) {
      return absl::NotFoundError(absl::StrCat(table, " has no row ", rowid));
    }
    if (rc == SQLITE_ERROR && absl::StartsWith(message, "cannot open value of type")) {
      return absl::DataLossError(
          absl::StrCat("row ", rowid, " of ", table, " holds no blob in ", column));
    }
    return SqliteFailure(db_, rc, module_);
  }
  const size_t size = static_cast<size_t>(sqlite3_blob_bytes(blob.get()));
  absl::StatusOr<absl::Span<uint8_t>> destination = into(size);
  if (!destination.ok()) return destination.status();
  if (destination->size() != size) {
    return absl::InternalError("a blob's destination is not of its size");
  }
  if (size == 0) return absl::OkStatus();
  const int read = sqlite3_blob_read(blob.get(), destination->data(), static_cast<int>(size), 0);
  return read == SQLITE_OK ? absl::OkStatus() : SqliteFailure(db_, read, module_);
}

ShadowBackedTable::BlobDestination ShadowBackedTable::IntoVector(std::vector<uint8_t>* bytes) {
  return [bytes](size_t size) -> absl::StatusOr<absl::Span<uint8_t>> {
    bytes->resize(size);
    return absl::MakeSpan(*bytes);
  };
}

absl::StatusOr<std::vector<std::vector<uint8_t>>> ShadowBackedTable::ReadFirstBlobs(
    absl::string_view suffix, const char* column, size_t count, absl::string_view what) {
  std::vector<std::vector<uint8_t>> blobs;
  for (size_t row = 0; row < count; ++row) {
    std::vector<uint8_t> bytes;
    absl::Status read = ReadBlob(suffix, column, static_cast<int64_t>(row), IntoVector(&bytes));
    if (absl::IsNotFound(read)) break;
    if (!read.ok()) return Corrupt(read);
    blobs.push_back(std::move(bytes));
  }
  for (size_t row = blobs.size() + 1; row < count; ++row) {
    std::vector<uint8_t> bytes;
    absl::Status read = ReadBlob(suffix, column, static_cast<int64_t>(row), IntoVector(&bytes));
    if (absl::IsNotFound(read)) continue;
    if (!read.ok()) return Corrupt(read);
    return CorruptError(
        module_, absl::StrCat("table '", name_, "': ", what, " ", blobs.size(), " is missing"));
  }
  return blobs;
}

}  // namespace crawldb
