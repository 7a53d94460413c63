// LinkTarget: what the frontier uses of a crawldb_links table (crawl_add records parent → url in
// `outlinks` when that table holds the ids of the frontier's urls table). The frontier reaches
// it through Connection::ConnectAs<links::LinkTarget>(name) and includes this header, not
// links_table.h (scripts/check_layers.py).
#pragma once

#include <string>

namespace crawldb::links {

class LinkTarget {
 public:
  virtual ~LinkTarget() = default;
  // The urls table whose ids the links hold.
  virtual const std::string& urls_name() const = 0;
};

}  // namespace crawldb::links
