# What `cmake --install` puts where (and so what the Debian package holds), under the prefix:
#   lib/<multiarch>/crawldb.so            the module: under /usr, `.load crawldb` finds it with no
#                                         path, since dlopen searches the multiarch folder
#   lib/<multiarch>/pkgconfig/crawldb.pc  its path and the SQL folder for build scripts
#   share/crawldb/                        sql/: crawldb.sql, smoke.sql, recipes/
#   share/doc/crawldb/                    README.md, docs/, ARCHITECTURE.md, examples/
# The multiarch folder for every prefix, as Debian's own packages are configured, so that an
# install into a scratch prefix has the layout of the package.
if(CMAKE_LIBRARY_ARCHITECTURE AND NOT DEFINED CMAKE_INSTALL_LIBDIR)
  set(CMAKE_INSTALL_LIBDIR "lib/${CMAKE_LIBRARY_ARCHITECTURE}" CACHE PATH
      "Object code libraries (lib/<multiarch> on Debian)")
endif()
include(GNUInstallDirs)

install(TARGETS crawldb LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})

# The .pc file names its prefix relative to itself (pkg-config's ${pcfiledir}), so it stays true
# wherever the tree is installed (`cmake --install --prefix`, the package's /usr).
file(RELATIVE_PATH CRAWLDB_PC_TO_PREFIX "/prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/prefix")
string(REGEX REPLACE "/$" "" CRAWLDB_PC_TO_PREFIX "${CRAWLDB_PC_TO_PREFIX}")
configure_file(${CMAKE_CURRENT_LIST_DIR}/crawldb.pc.in ${PROJECT_BINARY_DIR}/crawldb.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/crawldb.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/sql/ DESTINATION ${CMAKE_INSTALL_DATADIR}/crawldb)
install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/extension/ARCHITECTURE.md
        DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(FILES ${PROJECT_SOURCE_DIR}/examples/crawler.py ${PROJECT_SOURCE_DIR}/examples/page_links.py
              ${PROJECT_SOURCE_DIR}/examples/sample_links.py
              ${PROJECT_SOURCE_DIR}/examples/analysis.sql
              ${PROJECT_SOURCE_DIR}/examples/quickstart.sql
        DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples)
