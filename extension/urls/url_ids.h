// UrlIds: what the other families use of a crawldb_urls table — the id of a URL, the URL of an
// id, which ids are live. `outlinks`, `inlinks` and the frontier reach a urls table through
// Connection::ConnectAs<urls::UrlIds>(name) and include this header, not urls_table.h, so that
// the families stand side by side (scripts/check_layers.py allows no other include between them).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "extension/identity/url_normalizer.h"

namespace crawldb::urls {

class UrlIds {
 public:
  virtual ~UrlIds() = default;

  // Catches up with the commits of other connections.
  virtual absl::Status CatchUpIds() = 0;
  // Catches up as far as HasDeletedIds and IsDeleted need: a table not loaded yet reads only
  // whether any id is deleted, and loads nothing when none is (a new connection's look-up in
  // outlinks then costs nothing in urls). The other members need CatchUpIds. `seen_version`:
  // the data version (TableSync) at which a table of the same schema has just caught up in this
  // call, or -1; a table already caught up at it reads nothing (each cursor open in outlinks).
  virtual absl::Status CatchUpDeletions(int64_t seen_version) = 0;
  // Look-ups on the committed-or-own state, after catching up.
  virtual absl::StatusOr<std::optional<int64_t>> IdOf(const identity::NormalizedUrl& url) = 0;
  virtual absl::StatusOr<std::optional<std::string>> TextOf(int64_t id) = 0;
  // How the table normalises what it is given (its options).
  virtual const identity::NormalizeOptions& normalize_options() const = 0;
  // The table's lineage as this transaction sees it, "<creation>/<deletions>": it changes
  // whenever a URL leaves the table (a delete, or the table dropped and created again), never
  // otherwise. A frontier that recorded it while it held no record knows, while it is unchanged,
  // that every URL it holds is in the table (frontier_table.h). nullopt for a table created
  // before format 7, which has none.
  virtual absl::StatusOr<std::optional<std::string>> Lineage() = 0;
  // Changes whenever Lineage() may have changed as this connection sees it (a delete, a
  // rollback, a transaction's start or end, and another connection's commit once CatchUpIds
  // took it in: catch up first); never repeats, even across tables, so that a caller may keep
  // what Lineage() said while it is unchanged.
  virtual uint64_t lineage_epoch() const = 0;

  // On the state as last caught up: the largest id given, whether `id` names a URL now, and
  // whether any id was deleted (until then every id up to the largest is live).
  virtual int64_t max_id() const = 0;
  virtual bool IsLive(int64_t id) const = 0;
  virtual bool HasDeletedIds() const = 0;
  // An id that was given to a URL since deleted.
  virtual bool IsDeleted(int64_t id) const = 0;
};

}  // namespace crawldb::urls
