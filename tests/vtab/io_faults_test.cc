// I/O faults at every point of a commit (issue 15, item 2). A VFS shim over the default one
// fails the N-th read, write, sync, lock or truncate once, with the error a disk gives
// (SQLITE_IOERR_* or SQLITE_FULL). Each scenario — a representative commit per table (merges
// forced by merge_bytes=0), optimize and an import — runs with N = 1, 2, … until it passes
// untouched.
// After each failure: the statement reported an error; a fresh connection on the default VFS
// finds crawldb_check() = ok and either the state before the commit or the state after it (a
// fault after the commit point, such as deleting the journal, may leave it done); and the
// connection that saw the fault goes on: its next statement works and agrees with a fresh one.

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>

#include <SQLiteCpp/SQLiteCpp.h>
#include <gtest/gtest.h>
#include <sqlite3.h>

#include "tests/vtab/loaded_db.h"

namespace crawldb::testing {
namespace {

// The shim: "faulty", registered once, forwarding to the default VFS.
struct FaultyFile {
  sqlite3_file base;
  sqlite3_file* real;  // the default VFS's file, in the same allocation after this struct
};

struct Faults {
  sqlite3_vfs* real_vfs = nullptr;
  long countdown = 0;   // > 0: the operation that brings it to 0 fails; 0: none fails
  long operations = 0;  // operations seen while armed
  int failed_with = 0;  // the error of the fault, once it happened
};
Faults faults;

// Whether this operation fails; `code` is its error.
bool Fault(int code) {
  if (faults.countdown <= 0) return false;
  ++faults.operations;
  if (--faults.countdown > 0) return false;
  faults.failed_with = code;
  return true;
}

sqlite3_file* Real(sqlite3_file* file) { return reinterpret_cast<FaultyFile*>(file)->real; }

int Close(sqlite3_file* file) { return Real(file)->pMethods->xClose(Real(file)); }
int Read(sqlite3_file* file, void* buffer, int amount, sqlite3_int64 offset) {
  if (Fault(SQLITE_IOERR_READ)) return SQLITE_IOERR_READ;
  return Real(file)->pMethods->xRead(Real(file), buffer, amount, offset);
}
int Write(sqlite3_file* file, const void* buffer, int amount, sqlite3_int64 offset) {
  // Every other write fault is a full disk.
  if (Fault(faults.operations % 2 == 0 ? SQLITE_FULL : SQLITE_IOERR_WRITE)) {
    return faults.failed_with;
  }
  return Real(file)->pMethods->xWrite(Real(file), buffer, amount, offset);
}
int Truncate(sqlite3_file* file, sqlite3_int64 size) {
  if (Fault(SQLITE_IOERR_TRUNCATE)) return SQLITE_IOERR_TRUNCATE;
  return Real(file)->pMethods->xTruncate(Real(file), size);
}
int Sync(sqlite3_file* file, int flags) {
  if (Fault(SQLITE_IOERR_FSYNC)) return SQLITE_IOERR_FSYNC;
  return Real(file)->pMethods->xSync(Real(file), flags);
}
int FileSize(sqlite3_file* file, sqlite3_int64* size) {
  return Real(file)->pMethods->xFileSize(Real(file), size);
}
int Lock(sqlite3_file* file, int level) {
  if (Fault(SQLITE_IOERR_LOCK)) return SQLITE_IOERR_LOCK;
  return Real(file)->pMethods->xLock(Real(file), level);
}
int Unlock(sqlite3_file* file, int level) {
  return Real(file)->pMethods->xUnlock(Real(file), level);
}
int CheckReservedLock(sqlite3_file* file, int* out) {
  return Real(file)->pMethods->xCheckReservedLock(Real(file), out);
}
int FileControl(sqlite3_file* file, int op, void* arg) {
  return Real(file)->pMethods->xFileControl(Real(file), op, arg);
}
int SectorSize(sqlite3_file* file) { return Real(file)->pMethods->xSectorSize(Real(file)); }
int DeviceCharacteristics(sqlite3_file* file) {
  return Real(file)->pMethods->xDeviceCharacteristics(Real(file));
}

// Version 1 methods: no shared memory, so the files use a rollback journal.
const sqlite3_io_methods kFaultyMethods = {
    1,
    Close,
    Read,
    Write,
    Truncate,
    Sync,
    FileSize,
    Lock,
    Unlock,
    CheckReservedLock,
    FileControl,
    SectorSize,
    DeviceCharacteristics,
    nullptr,  // xShmMap and the rest of versions 2 and 3
    nullptr,
    nullptr,
    nullptr,
    nullptr,
    nullptr,
};

int Open(sqlite3_vfs*, sqlite3_filename name, sqlite3_file* file, int flags, int* out_flags) {
  auto* faulty = reinterpret_cast<FaultyFile*>(file);
  faulty->real = reinterpret_cast<sqlite3_file*>(faulty + 1);
  faulty->base.pMethods = nullptr;
  int rc = faults.real_vfs->xOpen(faults.real_vfs, name, faulty->real, flags, out_flags);
  if (rc == SQLITE_OK) faulty->base.pMethods = &kFaultyMethods;
  return rc;
}
int Delete(sqlite3_vfs*, const char* name, int sync_dir) {
  if (Fault(SQLITE_IOERR_DELETE)) return SQLITE_IOERR_DELETE;
  return faults.real_vfs->xDelete(faults.real_vfs, name, sync_dir);
}
int Access(sqlite3_vfs*, const char* name, int flags, int* out) {
  return faults.real_vfs->xAccess(faults.real_vfs, name, flags, out);
}
int FullPathname(sqlite3_vfs*, const char* name, int size, char* out) {
  return faults.real_vfs->xFullPathname(faults.real_vfs, name, size, out);
}
int Randomness(sqlite3_vfs*, int size, char* out) {
  return faults.real_vfs->xRandomness(faults.real_vfs, size, out);
}
int Sleep(sqlite3_vfs*, int microseconds) {
  return faults.real_vfs->xSleep(faults.real_vfs, microseconds);
}
int CurrentTime(sqlite3_vfs*, double* out) {
  return faults.real_vfs->xCurrentTime(faults.real_vfs, out);
}
int GetLastError(sqlite3_vfs*, int size, char* out) {
  return faults.real_vfs->xGetLastError(faults.real_vfs, size, out);
}

void RegisterFaultyVfs() {
  static sqlite3_vfs vfs;
  if (faults.real_vfs != nullptr) return;
  faults.real_vfs = sqlite3_vfs_find(nullptr);
  vfs.iVersion = 1;
  vfs.szOsFile = static_cast<int>(sizeof(FaultyFile)) + faults.real_vfs->szOsFile;
  vfs.mxPathname = faults.real_vfs->mxPathname;
  vfs.zName = "faulty";
  vfs.xOpen = Open;
  vfs.xDelete = Delete;
  vfs.xAccess = Access;
  vfs.xFullPathname = FullPathname;
  vfs.xDlOpen = [](sqlite3_vfs*, const char* name) {
    return faults.real_vfs->xDlOpen(faults.real_vfs, name);
  };
  vfs.xDlError = [](sqlite3_vfs*, int size, char* out) {
    faults.real_vfs->xDlError(faults.real_vfs, size, out);
  };
  vfs.xDlSym = [](sqlite3_vfs*, void* handle, const char* name) {
    return faults.real_vfs->xDlSym(faults.real_vfs, handle, name);
  };
  vfs.xDlClose = [](sqlite3_vfs*, void* handle) {
    faults.real_vfs->xDlClose(faults.real_vfs, handle);
  };
  vfs.xRandomness = Randomness;
  vfs.xSleep = Sleep;
  vfs.xCurrentTime = CurrentTime;
  vfs.xGetLastError = GetLastError;
  ASSERT_EQ(sqlite3_vfs_register(&vfs, 0), SQLITE_OK);
}

// What a commit can change, in one line: every table's rows, summed up.
std::string State(SQLite::Database& db) {
  return One(db,
             "SELECT (SELECT count(*) || '/' || total(id) || '/' || total(length(url)) FROM urls) "
             "|| ' ' || (SELECT count(*) || '/' || total(depth) || '/' || group_concat(DISTINCT "
             "state) FROM frontier) || ' ' || (SELECT count(*) || '/' || total(src * 7 + dst) "
             "FROM outlinks)");
}

class IoFaults : public ::testing::Test {
 protected:
  void SetUp() override {
    RegisterFaultyVfs();
    template_ = TempDbPath("io_faults_template");
    arcs_ = std::filesystem::path(template_).replace_extension(".arcs").string();
    std::ofstream(arcs_) << "1\t2\n2\t3\n3\t1\n4\t1\n";
    SQLite::Database db = LoadedDb(template_);
    db.exec(
        "CREATE VIRTUAL TABLE urls USING crawldb_urls(merge_bytes=0);"
        "CREATE VIRTUAL TABLE frontier USING crawldb_frontier(urls, host_delay=0);"
        "CREATE VIRTUAL TABLE outlinks USING crawldb_links(urls);"
        "CREATE VIRTUAL TABLE inlinks USING crawldb_inlinks(outlinks);");
    db.exec(
        "SELECT count(crawl_add('http://h' || (x % 5) || '.example/p' || x, CASE WHEN x > 1 "
        "THEN 'http://h' || ((x - 1) % 5) || '.example/p' || (x - 1) END, 0, 1000)) FROM "
        "(WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 300) "
        "SELECT x FROM n)");
    db.exec("SELECT count(*) FROM crawl_lease(40, 60, 1000)");
  }

  // Runs `commit` on a copy of the template through the faulty VFS with the N-th operation
  // failing, N = 1, 2, … until it runs untouched; checks each failure as the header says.
  // Returns how many I/O points the commit has.
  long FailEveryPoint(const std::string& name, const std::string& commit) {
    for (long n = 1;; ++n) {
      SCOPED_TRACE(name + ", I/O operation " + std::to_string(n));
      const std::string path = TempDbPath("io_faults_" + name);
      std::filesystem::copy_file(template_, path,
                                 std::filesystem::copy_options::overwrite_existing);
      std::string before, after;
      {
        SQLite::Database db = LoadedDb(path);
        before = State(db);
      }
      SQLite::Database db(path, SQLite::OPEN_READWRITE, 0, "faulty");
      db.loadExtension(CRAWLDB_EXTENSION_PATH, nullptr);
      faults = Faults{faults.real_vfs, n, 0, 0};
      bool failed = false;
      try {
        db.exec(commit);
      } catch (const SQLite::Exception& e) {
        failed = true;
        EXPECT_NE(faults.failed_with, 0) << "an error without a fault: " << e.what();
      }
      const long operations = faults.operations;
      const bool faulted = faults.failed_with != 0;
      faults.countdown = 0;
      if (!faulted) {
        EXPECT_FALSE(failed);
        return operations;
      }
      SQLite::Database fresh = LoadedDb(path);
      EXPECT_EQ(One(fresh, "SELECT crawldb_check()"), "ok");
      const std::string state = State(fresh);
      if (!failed || state != before) {
        // Done (despite the error, if any): the state is the one a run without faults leaves.
        if (after.empty()) after = CleanRun(name, commit);
        EXPECT_EQ(state, after);
      }
      // The connection that saw the fault goes on (out of the transaction a failed script left
      // open, as an application would).
      if (!sqlite3_get_autocommit(db.getHandle())) db.exec("ROLLBACK");
      try {
        db.exec("SELECT count(crawl_add('http://after.example/', NULL, 0, 3000))");
      } catch (const SQLite::Exception& e) {
        ADD_FAILURE() << "after the fault: " << e.what();
      }
      EXPECT_EQ(State(db), State(fresh));
      EXPECT_EQ(One(db, "SELECT crawldb_check()"), "ok");
    }
  }

  // The state `commit` leaves on a copy of the template without faults.
  std::string CleanRun(const std::string& name, const std::string& commit) {
    const std::string path = TempDbPath("io_faults_clean_" + name);
    std::filesystem::copy_file(template_, path, std::filesystem::copy_options::overwrite_existing);
    SQLite::Database db = LoadedDb(path);
    db.exec(commit);
    return State(db);
  }

  std::string template_;
  std::string arcs_;
};

TEST_F(IoFaults, EveryPointOfEachRepresentativeCommit) {
  struct Scenario {
    std::string name;
    std::string commit;
  };
  const Scenario scenarios[] = {
      {"crawl_add_batch",
       "BEGIN; SELECT count(crawl_add('http://h1.example/new' || x, 'http://h1.example/p1', 0, "
       "2000)) FROM (WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < "
       "50) SELECT x FROM n); COMMIT"},
      // Outside a transaction one call is one transaction: its URL and its link together.
      {"crawl_add_autocommit",
       "SELECT crawl_add('http://h1.example/alone', 'http://h1.example/p1', 0, 2000)"},
      {"urls_insert",
       "INSERT INTO urls(url) SELECT 'http://n' || (x % 3) || '.example/q' || x FROM (WITH "
       "RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 50) SELECT x FROM n)"},
      {"lease", "SELECT count(*) FROM crawl_lease(30, 60, 2000)"},
      {"confirm",
       "BEGIN; SELECT count(crawl_confirm(url, 200, 0, 2001)) FROM frontier WHERE state = "
       "'leased'; COMMIT"},
      {"outlinks_insert",
       "INSERT OR IGNORE INTO outlinks(src, dst) SELECT id, id % 50 + 1 FROM urls WHERE id <= 80"},
      {"urls_delete", "DELETE FROM urls WHERE id % 10 = 0"},
      {"optimize", "SELECT crawldb_optimize()"},
      {"import_arcs", "SELECT crawldb_import_arcs('" + arcs_ + "')"},
  };
  for (const Scenario& scenario : scenarios) {
    const long points = FailEveryPoint(scenario.name, scenario.commit);
    EXPECT_GT(points, 0) << scenario.name;
    std::printf("io faults: %s: %ld I/O points failed one at a time\n", scenario.name.c_str(),
                points);
  }
}

}  // namespace
}  // namespace crawldb::testing
