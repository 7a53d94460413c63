// I/O faults at every point of a commit (issue 15, item 2). A VFS shim over the default one
// fails the N-th read, write, sync, lock, truncate, delete, shared-memory map or shared-memory
// lock once, with the error a disk gives (SQLITE_IOERR_* or SQLITE_FULL). Each scenario — a
// representative commit per table (merges forced by merge_bytes=0 and log_tail_kb=0), optimize
// and an import — runs with N = 1, 2, … until it passes untouched; then each again in WAL mode,
// with the urls tail kept and every frontier commit folding.
// After each failure: the statement reported an error; a fresh connection on the default VFS
// finds crawldb_check() = ok and either the state before the commit or the state after it (a
// fault after the commit point, such as deleting the journal, may leave it done); and the
// connection that saw the fault goes on: its next statement works and agrees with a fresh one.

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include <SQLiteCpp/SQLiteCpp.h>
#include <gtest/gtest.h>
#include <sqlite3.h>

#include "tests/vtab/fault_scenarios.h"
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

// The shared memory of WAL mode: mapping a region and taking a lock fail like the other
// operations.
int ShmMap(sqlite3_file* file, int region, int size, int extend, void volatile** out) {
  if (Fault(SQLITE_IOERR_SHMMAP)) return SQLITE_IOERR_SHMMAP;
  return Real(file)->pMethods->xShmMap(Real(file), region, size, extend, out);
}
int ShmLock(sqlite3_file* file, int offset, int count, int flags) {
  // Taking a lock may fail; releasing one does not (as xUnlock).
  if ((flags & SQLITE_SHM_LOCK) && Fault(SQLITE_IOERR_SHMLOCK)) return SQLITE_IOERR_SHMLOCK;
  return Real(file)->pMethods->xShmLock(Real(file), offset, count, flags);
}
void ShmBarrier(sqlite3_file* file) { Real(file)->pMethods->xShmBarrier(Real(file)); }
int ShmUnmap(sqlite3_file* file, int delete_flag) {
  return Real(file)->pMethods->xShmUnmap(Real(file), delete_flag);
}

// Version 2 methods: shared memory (WAL), no memory-mapped pages.
const sqlite3_io_methods kFaultyMethods = {
    2,
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
    ShmMap,
    ShmLock,
    ShmBarrier,
    ShmUnmap,
    nullptr,  // xFetch and xUnfetch (version 3)
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

class IoFaults : public ::testing::Test {
 protected:
  void SetUp() override { RegisterFaultyVfs(); }

  // Runs `commit` on a copy of the template through the faulty VFS with the N-th operation
  // failing, N = 1, 2, … until it runs untouched; checks each failure as the header says.
  // Returns how many I/O points the commit has.
  long FailEveryPoint(const std::string& name, const std::string& commit) {
    const std::string before = CleanRun(name, "");
    std::string after;  // CleanRun(name, commit), made when first needed
    for (long n = 1;; ++n) {
      SCOPED_TRACE(name + ", I/O operation " + std::to_string(n));
      const std::string path = TempDbPath(prefix_ + name);
      std::filesystem::copy_file(template_path_, path,
                                 std::filesystem::copy_options::overwrite_existing);
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
      ExpectConnectionGoesOn(db, fresh);
    }
  }

  // The state `commit` leaves on a copy of the template without faults (the template's own
  // for an empty commit).
  std::string CleanRun(const std::string& name, const std::string& commit) {
    const std::string path = TempDbPath(prefix_ + "clean_" + name);
    std::filesystem::copy_file(template_path_, path,
                               std::filesystem::copy_options::overwrite_existing);
    SQLite::Database db = LoadedDb(path);
    if (!commit.empty()) db.exec(commit);
    return State(db);
  }

  // Fails every point of each scenario named in `only` (all when empty) on `options`' template.
  void FailEveryScenario(const FaultTemplate& options, const std::vector<std::string>& only) {
    // Each test its own files: ctest runs them side by side.
    prefix_ = options.wal ? "io_faults_wal_" : "io_faults_";
    template_path_ = TempDbPath(prefix_ + "template");
    WriteFaultTemplate(template_path_, options);
    for (const FaultScenario& scenario : FaultScenarios(template_path_)) {
      if (!only.empty() && std::find(only.begin(), only.end(), scenario.name) == only.end()) {
        continue;
      }
      const long points = FailEveryPoint(scenario.name, scenario.commit);
      EXPECT_GT(points, 0) << scenario.name;
      std::printf("io faults%s: %s: %ld I/O points failed one at a time\n",
                  options.wal ? " (WAL)" : "", scenario.name.c_str(), points);
    }
  }

  std::string prefix_;
  std::string template_path_;
};

// Rollback journal; every urls commit folds its tail and merges.
TEST_F(IoFaults, EveryPointOfEachRepresentativeCommit) {
  FailEveryScenario({.wal = false, .urls_log_tail_kb = 0, .frontier_log_tail_kb = 1024}, {});
}

// WAL mode; urls commits stay in the log tail, every frontier commit folds its own.
TEST_F(IoFaults, EveryPointOfEachCommitInWalMode) {
  FailEveryScenario({.wal = true, .urls_log_tail_kb = 1024, .frontier_log_tail_kb = 0}, {});
}

}  // namespace
}  // namespace crawldb::testing
