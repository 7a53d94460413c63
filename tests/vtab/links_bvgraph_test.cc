// crawldb_import_bvgraph and crawldb_export_bvgraph (extension/links/link_functions.h) through
// the built module: a small graph exported and imported back in both directions, pinned errors,
// and LAW's cnr-2000 files imported into bv tables, checked against the arcs file, and exported
// again.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <SQLiteCpp/SQLiteCpp.h>
#include <gtest/gtest.h>
#include <sqlite3.h>

#include "tests/shared_data.h"
#include "tests/vtab/loaded_db.h"

namespace crawldb::testing {
namespace {

// `outlinks` (bv) with its inlinks, and two more links tables to import into.
void CreateTables(SQLite::Database& db) {
  db.exec(
      "CREATE VIRTUAL TABLE urls USING crawldb_urls;"
      "CREATE VIRTUAL TABLE outlinks USING crawldb_links(urls, codec=bv);"
      "CREATE VIRTUAL TABLE inlinks USING crawldb_inlinks(outlinks);"
      "CREATE VIRTUAL TABLE copy USING crawldb_links(urls, codec=bv);"
      "CREATE VIRTUAL TABLE transposed USING crawldb_links(urls);");
}

// A fresh folder for exported files.
std::string ExportFolder(const std::string& name) {
  const std::filesystem::path dir = std::filesystem::path(TempDbPath(name) + ".d");
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

TEST(LinksBvGraph, ExportsAndImportsBothDirections) {
  SQLite::Database db = LoadedDb();
  CreateTables(db);
  const std::string arcs = TempDbPath("bvgraph_arcs") + ".tsv";
  {
    std::ofstream out(arcs);
    for (int v = 0; v < 200; ++v) {
      for (int d : {1, 2, 3, 4, 9, 40}) out << v << '\t' << (v * 7 + d) % 230 << '\n';
    }
    out << "229\t229\n";
  }
  db.exec("SELECT crawldb_import_arcs('" + arcs + "')");
  const std::string dir = ExportFolder("bvgraph_small");
  const std::string exported =
      One(db, "SELECT crawldb_export_bvgraph('outlinks', '" + dir + "/g')");
  EXPECT_EQ(exported, "{\"nodes\":230,\"arcs\":1201,\"graph_bytes\":" +
                          std::to_string(std::filesystem::file_size(dir + "/g.graph")) +
                          ",\"offsets_bytes\":" +
                          std::to_string(std::filesystem::file_size(dir + "/g.offsets")) + "}");
  EXPECT_EQ(One(db, "SELECT crawldb_import_bvgraph('" + dir + "/g', 'copy')"),
            "{\"nodes_read\":230,\"arcs_read\":1201,\"links\":1201,\"nodes\":230}");
  EXPECT_EQ(Rows(db, "SELECT src, dst, pos FROM copy"),
            Rows(db, "SELECT src, dst, pos FROM outlinks"));
  db.exec("SELECT crawldb_export_bvgraph('outlinks', '" + dir + "/t', 'in')");
  db.exec("SELECT crawldb_import_bvgraph('" + dir + "/t', 'transposed')");
  EXPECT_EQ(Rows(db, "SELECT src, dst, pos FROM transposed"),
            Rows(db, "SELECT dst, src, pos FROM inlinks"));
  EXPECT_EQ(One(db, "SELECT crawldb_check()"), "ok");
}

TEST(LinksBvGraph, RefusesBadArgumentsAndFiles) {
  SQLite::Database db = LoadedDb();
  CreateTables(db);
  const std::string dir = ExportFolder("bvgraph_errors");
  ExpectError(db, "SELECT crawldb_import_bvgraph(1)", SQLITE_ERROR,
              "crawldb_import_bvgraph: the basename must be text");
  ExpectError(db, "SELECT crawldb_import_bvgraph('x', 2)", SQLITE_ERROR,
              "crawldb_import_bvgraph: the table name must be text");
  ExpectError(db, "SELECT crawldb_import_bvgraph('" + dir + "/none')", SQLITE_ERROR,
              "crawldb_import_bvgraph: '" + dir + "/none': bvgraph: cannot read " + dir +
                  "/none.properties");
  ExpectError(db, "SELECT crawldb_import_bvgraph('x', 'urls')", SQLITE_ERROR,
              "crawldb_import_bvgraph: there is no crawldb_links table named 'urls'; create it "
              "with CREATE VIRTUAL TABLE urls USING crawldb_links(urls)");
  ExpectError(db, "SELECT crawldb_export_bvgraph('outlinks', 'x', 'up')", SQLITE_ERROR,
              "crawldb_export_bvgraph: the direction is 'up'; expected 'out' or 'in'");
  ExpectError(db, "SELECT crawldb_export_bvgraph('outlinks', '/nonexistent/dir/g')", SQLITE_ERROR,
              "crawldb_export_bvgraph: '/nonexistent/dir/g': bvgraph: cannot write "
              "/nonexistent/dir/g.properties");
  std::ofstream(dir + "/bad.properties") << "nodes=2\narcs=1\nversion=1\n";
  std::ofstream(dir + "/bad.graph") << "x";
  ExpectError(
      db, "SELECT crawldb_import_bvgraph('" + dir + "/bad')", SQLITE_ERROR,
      "crawldb_import_bvgraph: '" + dir + "/bad': bvgraph: the properties have no windowsize");
  db.exec("BEGIN");
  ExpectError(db, "SELECT crawldb_import_bvgraph('x')", SQLITE_ERROR,
              "crawldb_import_bvgraph: cannot run inside a transaction (it rewrites the link "
              "lists); COMMIT first");
  db.exec("COMMIT");
}

// The sum of the sources and of the destinations of the `src<TAB>dst` lines.
std::string ArcSums(const std::vector<std::string>& lines) {
  uint64_t src = 0;
  uint64_t dst = 0;
  for (const std::string& line : lines) {
    const size_t tab = line.find('\t');
    src += std::stoull(line.substr(0, tab));
    dst += std::stoull(line.substr(tab + 1));
  }
  return std::to_string(lines.size()) + "|" + std::to_string(src) + "|" + std::to_string(dst);
}

TEST(LinksBvGraph, ImportsLawsCnr2000AndExportsItAgain) {
  const std::vector<std::string> lines =
      ReadXzLines(SharedDataPath("cnr-2000/cnr-2000.arcs.tsv.xz"));
  const std::string graph = SharedDataPath("cnr-2000/cnr-2000.graph");
  const std::string law = graph.substr(0, graph.size() - 6);
  SQLite::Database db = LoadedDb();
  CreateTables(db);
  db.exec("SELECT crawldb_import_bvgraph('" + law + "')");
  const std::string sums = ArcSums(lines);
  EXPECT_EQ(One(db, "SELECT count(*) || '|' || sum(src) || '|' || sum(dst) FROM outlinks"), sums);
  db.exec("SELECT crawldb_import_bvgraph('" + law + "-t', 'transposed')");
  EXPECT_EQ(One(db, "SELECT count(*) || '|' || sum(dst) || '|' || sum(src) FROM transposed"), sums);
  EXPECT_EQ(Rows(db, "SELECT dst FROM transposed WHERE src = 1000"),
            Rows(db, "SELECT src FROM inlinks WHERE dst = 1000"));

  // Exported with LAW's parameters, within 3% of LAW's file, and read back.
  const std::string dir = ExportFolder("bvgraph_cnr");
  db.exec("SELECT crawldb_export_bvgraph('outlinks', '" + dir + "/cnr')");
  const double ours = static_cast<double>(std::filesystem::file_size(dir + "/cnr.graph"));
  EXPECT_LE(ours, 1.03 * static_cast<double>(std::filesystem::file_size(graph)));
  db.exec("SELECT crawldb_import_bvgraph('" + dir + "/cnr', 'copy')");
  EXPECT_EQ(One(db, "SELECT count(*) || '|' || sum(src) || '|' || sum(dst) FROM copy"), sums);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace crawldb::testing
