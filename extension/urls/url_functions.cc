// The url_* SQL functions (design.md §4).
//
//   url_normalize(url)  normalised text    url_host(url)    host    url_domain(url)  registrable
//   url_fp(url)         fingerprint        url_problem(url) NULL when valid, else the reason
//   url_id(url)         id in table urls   url_text(id)     text of an id in table urls
// All take one argument; NULL in, NULL out. An invalid URL gives NULL (url_problem says why).
// url_id and url_text read the crawldb_urls table named `urls` of the main schema.
#include "extension/urls/url_functions.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "extension/common/sql_function_table.h"
#include "extension/common/statement_cache.h"
#include "extension/common/status.h"
#include "extension/common/trampoline.h"
#include "extension/identity/registrable_domain.h"
#include "extension/identity/url_fingerprint.h"
#include "extension/identity/url_normalizer.h"
#include "extension/urls/urls_table.h"

namespace crawldb::urls {
namespace {

constexpr char kUrlsTableName[] = "urls";

// The argument as a normalised URL; nullopt for NULL; the refusal for an invalid URL.
std::optional<absl::StatusOr<identity::NormalizedUrl>> Argument(sqlite3_value* value) {
  if (sqlite3_value_type(value) == SQLITE_NULL) return std::nullopt;
  const char* text = reinterpret_cast<const char*>(sqlite3_value_text(value));
  size_t size = static_cast<size_t>(sqlite3_value_bytes(value));
  return identity::NormalizeUrl(absl::string_view(text == nullptr ? "" : text, size));
}

absl::Status Normalize(sqlite3_context* context, int, sqlite3_value** argv) {
  auto url = Argument(argv[0]);
  if (url.has_value() && url->ok()) ResultText(context, (*url)->text());
  return absl::OkStatus();
}

absl::Status Host(sqlite3_context* context, int, sqlite3_value** argv) {
  auto url = Argument(argv[0]);
  if (url.has_value() && url->ok()) ResultText(context, (*url)->host());
  return absl::OkStatus();
}

absl::Status Domain(sqlite3_context* context, int, sqlite3_value** argv) {
  auto url = Argument(argv[0]);
  if (url.has_value() && url->ok())
    ResultText(context, identity::RegistrableDomain((*url)->host()));
  return absl::OkStatus();
}

absl::Status Fingerprint(sqlite3_context* context, int, sqlite3_value** argv) {
  auto url = Argument(argv[0]);
  if (url.has_value() && url->ok()) {
    sqlite3_result_int64(context,
                         identity::FingerprintToSql(identity::UrlFingerprint((*url)->text())));
  }
  return absl::OkStatus();
}

absl::Status Problem(sqlite3_context* context, int, sqlite3_value** argv) {
  auto url = Argument(argv[0]);
  if (url.has_value() && !url->ok()) ResultText(context, std::string(url->status().message()));
  return absl::OkStatus();
}

// The table url_id and url_text read, connected and caught up with other connections.
absl::StatusOr<UrlsTable*> UrlsTableOf(sqlite3_context* context, absl::string_view function) {
  auto* connection = static_cast<Connection*>(FunctionStateOf(context));
  CRAWLDB_ASSIGN_OR_RETURN(UrlsTable * urls, connection->ConnectAs<UrlsTable>(kUrlsTableName));
  if (urls == nullptr) {
    return UserError(function, "there is no crawldb_urls table named 'urls'",
                     "create it with CREATE VIRTUAL TABLE urls USING crawldb_urls");
  }
  CRAWLDB_RETURN_IF_ERROR(urls->CatchUp());
  return urls;
}

absl::Status Id(sqlite3_context* context, int, sqlite3_value** argv) {
  auto url = Argument(argv[0]);
  if (!url.has_value() || !url->ok()) return absl::OkStatus();
  CRAWLDB_ASSIGN_OR_RETURN(UrlsTable * table, UrlsTableOf(context, "url_id"));
  CRAWLDB_ASSIGN_OR_RETURN(std::optional<int64_t> id, table->IdOf(**url));
  if (id.has_value()) sqlite3_result_int64(context, *id);
  return absl::OkStatus();
}

absl::Status Text(sqlite3_context* context, int, sqlite3_value** argv) {
  if (sqlite3_value_numeric_type(argv[0]) != SQLITE_INTEGER) return absl::OkStatus();
  CRAWLDB_ASSIGN_OR_RETURN(UrlsTable * table, UrlsTableOf(context, "url_text"));
  CRAWLDB_ASSIGN_OR_RETURN(std::optional<std::string> text,
                           table->TextOf(sqlite3_value_int64(argv[0])));
  if (text.has_value()) ResultText(context, *text);
  return absl::OkStatus();
}

}  // namespace

constexpr SqlFunctionSpec kUrlFunctions[] = {
    {"url_normalize", 1, 1, kPureFunction, &Normalize},
    {"url_host", 1, 1, kPureFunction, &Host},
    {"url_domain", 1, 1, kPureFunction, &Domain},
    {"url_fp", 1, 1, kPureFunction, &Fingerprint},
    {"url_problem", 1, 1, kPureFunction, &Problem},
    {"url_id", 1, 1, kReadingFunction, &Id},
    {"url_text", 1, 1, kReadingFunction, &Text},
};

absl::Status RegisterUrlFunctions(sqlite3* db, Connection* connection) {
  return RegisterSqlFunctions(db, kUrlFunctions, connection);
}

}  // namespace crawldb::urls
