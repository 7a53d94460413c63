# The Debian package, made by CPack from the install rules (cmake/crawldb_install.cmake) under
# /usr: `cpack --config build/release/CPackConfig.cmake -B DIR` (scripts/package.sh) writes
# DIR/crawldb_<version>_<arch>.deb, which `apt install ./crawldb_*.deb` installs with the shared
# libraries it links (dpkg-shlibdeps finds them). It needs the module built, not every target.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME crawldb)
set(CPACK_PACKAGE_CONTACT "crawldb maintainers <maintainers@users.noreply.a-seed-109be77b.example>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "SQLite extension: URL store, crawl frontier and compressed link graph")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "crawldb keeps what a web crawler and a web-graph analyst need (the set of URLs, the crawl\n\
frontier and the link graph) compressed in one SQLite database file, queryable with\n\
plain SQL through virtual tables. Load it with: sqlite3 DB '.load crawldb'")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION database)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The module calls SQLite only through the host's routine table: it does not link libsqlite3.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS sqlite3)
set(CPACK_STRIP_FILES ON)
include(CPack)
