// Helpers of the `urls` integration tests: inserting URLs in transactions of a given size, and
// reading back every URL with its id.
#pragma once

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include <SQLiteCpp/SQLiteCpp.h>

namespace crawldb::testing {

// Inserts `urls[begin, end)` into the table `urls` (OR IGNORE) in transactions of `batch`.
inline void InsertBatches(SQLite::Database& db, const std::vector<std::string>& urls, size_t begin,
                          size_t end, size_t batch) {
  SQLite::Statement insert(db, "INSERT OR IGNORE INTO urls(url) VALUES (?)");
  for (size_t start = begin; start < end; start += batch) {
    SQLite::Transaction transaction(db);
    for (size_t i = start; i < std::min(end, start + batch); ++i) {
      insert.bind(1, urls[i]);
      insert.exec();
      insert.reset();
    }
    transaction.commit();
  }
}

// Every stored URL with its id.
inline std::map<std::string, std::string> UrlIds(SQLite::Database& db) {
  std::map<std::string, std::string> ids;
  SQLite::Statement select(db, "SELECT url, id FROM urls");
  while (select.executeStep()) {
    ids[select.getColumn(0).getString()] = select.getColumn(1).getString();
  }
  return ids;
}

}  // namespace crawldb::testing
