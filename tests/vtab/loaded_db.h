// Helpers for tests that drive the built crawldb.so through SQLiteCpp, as a user's program does.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <SQLiteCpp/SQLiteCpp.h>
#include <gtest/gtest.h>
#include <sqlite3.h>

#include "tests/shared_data.h"

namespace crawldb::testing {

// A database (":memory:" or a file path) with crawldb loaded.
inline SQLite::Database LoadedDb(const std::string& path = ":memory:") {
  SQLite::Database db(path, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
  db.loadExtension(CRAWLDB_EXTENSION_PATH, nullptr);
  return db;
}

// A fresh path for a database file in the test temp folder.
inline std::string TempDbPath(const std::string& name) {
  std::filesystem::path dir = std::filesystem::temp_directory_path() / "crawldb_vtab_tests";
  std::filesystem::create_directories(dir);
  std::filesystem::path path = dir / (name + ".db");
  for (const char* suffix : {"", "-wal", "-shm", "-journal"}) {
    std::filesystem::remove(path.string() + suffix);
  }
  return path.string();
}

// The single text value of `sql`; "NULL" for NULL.
inline std::string One(SQLite::Database& db, const std::string& sql) {
  SQLite::Column column = db.execAndGet(sql);
  return column.isNull() ? "NULL" : column.getString();
}

// Every row of `sql`, columns joined by '|'.
inline std::vector<std::string> Rows(SQLite::Database& db, const std::string& sql) {
  SQLite::Statement statement(db, sql);
  std::vector<std::string> rows;
  while (statement.executeStep()) {
    std::string row;
    for (int i = 0; i < statement.getColumnCount(); ++i) {
      if (i > 0) row += '|';
      SQLite::Column column = statement.getColumn(i);
      row += column.isNull() ? "NULL" : column.getString();
    }
    rows.push_back(row);
  }
  return rows;
}

// Runs `sql`, which must fail with `code` (primary or extended) and exactly `message`.
inline void ExpectError(SQLite::Database& db, const std::string& sql, int code,
                        const std::string& message) {
  try {
    db.exec(sql);
    ADD_FAILURE() << "no error from: " << sql;
  } catch (const SQLite::Exception& e) {
    EXPECT_TRUE(e.getErrorCode() == code || e.getExtendedErrorCode() == code)
        << sql << ": code " << e.getErrorCode() << "/" << e.getExtendedErrorCode();
    EXPECT_EQ(std::string(e.what()), message) << sql;
  }
}

// The SQL function flip(blob, at): the blob with byte `at` XOR 0x5A (the blob itself when it
// is shorter). Corruption tests register it to damage stored bytes.
inline void FlipByte(sqlite3_context* context, int, sqlite3_value** argv) {
  const auto* data = static_cast<const unsigned char*>(sqlite3_value_blob(argv[0]));
  std::string bytes(reinterpret_cast<const char*>(data),
                    static_cast<size_t>(sqlite3_value_bytes(argv[0])));
  size_t at = static_cast<size_t>(sqlite3_value_int64(argv[1]));
  if (at < bytes.size()) bytes[at] = static_cast<char>(bytes[at] ^ 0x5A);
  sqlite3_result_blob(context, bytes.data(), static_cast<int>(bytes.size()), SQLITE_TRANSIENT);
}

// A copy of the database file at `path`, named `name`, with `damage` (SQL, which may call
// flip) run on it.
inline std::string DamagedCopy(const std::string& path, const std::string& name,
                               const std::string& damage) {
  std::string copy = TempDbPath(name);
  std::filesystem::copy_file(path, copy, std::filesystem::copy_options::overwrite_existing);
  SQLite::Database db = LoadedDb(copy);
  db.createFunction("flip", 2, true, nullptr, &FlipByte);
  db.exec(damage);
  return copy;
}

// Reading a damaged table either works (the damage kept the data valid) or fails with
// SQLITE_CORRUPT_VTAB and a message starting with `prefix`; it never crashes or reads out of
// bounds (ASan watches). Runs `statements` until one fails.
inline void ExpectReadOrCorrupt(SQLite::Database& db, const std::vector<std::string>& statements,
                                const std::string& prefix) {
  try {
    for (const std::string& sql : statements) db.exec(sql);
  } catch (const SQLite::Exception& e) {
    EXPECT_EQ(e.getExtendedErrorCode(), SQLITE_CORRUPT_VTAB) << e.what();
    EXPECT_EQ(std::string(e.what()).rfind(prefix, 0), 0u) << e.what();
  }
}

}  // namespace crawldb::testing
