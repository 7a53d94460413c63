// The one header through which crawldb reaches SQLite.
//
// In the loadable module every sqlite3_* call goes through the routine table that SQLite hands
// to sqlite3_crawldb_init (sqlite3ext.h); entry.cc holds SQLITE_EXTENSION_INIT1 and every other
// file includes this header, which supplies SQLITE_EXTENSION_INIT3. The crawldb_core build
// defines SQLITE_CORE, which turns all of this into direct calls for in-process unit tests.
#pragma once

#include <sqlite3ext.h>

SQLITE_EXTENSION_INIT3
