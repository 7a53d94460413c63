// Arguments of CREATE VIRTUAL TABLE t USING module(arg, key=value, ...).
//
// SQLite passes xCreate/xConnect argv[0] = module, argv[1] = schema, argv[2] = table, then one
// string per argument exactly as written. ParseVtabArgv splits that; VtabOptions validates the
// arguments against a table's spec: first the positional arguments (in order, each optional
// when it has a default), then key=value options. Unknown keys, repeated keys, missing or
// surplus positional arguments and out-of-range values are refused with a message naming them:
//   "crawldb_frontier: unknown option 'leese'; expected one of: lease, max_depth"
//   "crawldb_frontier: option 'lease' must be an integer from 1 to 86400, got 'abc'"
// Values may be quoted ('x' or "x", with '' or "" standing for the quote itself). Booleans
// are true/false, on/off, yes/no or 1/0, in any case.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>
#include "absl/strings/string_view.h"

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace crawldb {

struct VtabArgs {
  std::string module;                  // argv[0], the module name: "crawldb_urls"
  std::string schema;                  // argv[1]: "main", "temp" or an attached name
  std::string table;                   // argv[2]: the virtual table's name
  std::vector<std::string> arguments;  // argv[3..], whitespace-trimmed, as written
};

VtabArgs ParseVtabArgv(int argc, const char* const* argv);

enum class OptionKind { kInteger, kReal, kText, kBoolean };

struct PositionalSpec {
  absl::string_view name;           // for messages: "urls table"
  absl::string_view default_value;  // empty: required
};

struct OptionSpec {
  absl::string_view name;
  OptionKind kind = OptionKind::kInteger;
  absl::string_view default_value;  // used when the option is absent; parsed like a given value
  double min = 0;                   // numeric kinds: the accepted closed range
  double max = 0;
  std::vector<absl::string_view> choices = {};  // kText: the accepted values (any if empty)
};

// Options several tables take; each table's header says what they bound there.
// cache_mb=N: MiB of parts one connection holds (default 256; 0 keeps only what a call is
// reading, so parts are dropped and read again all the time: tests).
OptionSpec CacheMbOption();
// log_tail_kb=N: KiB of log rows after which a commit folds the log tail (default 1024).
OptionSpec LogTailKbOption();

class VtabOptions {
 public:
  // Validates `args.arguments` against the specs; messages are prefixed with args.module.
  static absl::StatusOr<VtabOptions> Parse(const VtabArgs& args,
                                           absl::Span<const PositionalSpec> positional,
                                           absl::Span<const OptionSpec> options);

  // The value of a positional argument or option, by name. The name must be in the spec and
  // of the matching kind (a programming error otherwise: it aborts in debug builds).
  const std::string& Text(absl::string_view name) const;
  int64_t Integer(absl::string_view name) const;
  double Real(absl::string_view name) const;
  bool Boolean(absl::string_view name) const;
  // True when the statement gave the option (its value is not the default).
  bool Given(absl::string_view name) const { return given_.contains(name); }

  // Every option as "key=value" with defaults filled in, in spec order: what a table stores in
  // its config row so that the file documents how it was created.
  std::vector<std::pair<std::string, std::string>> Canonical() const;

 private:
  std::vector<std::string> order_;                        // names in spec order
  absl::flat_hash_map<std::string, std::string> values_;  // canonical text of each value
  absl::flat_hash_set<std::string> given_;                // the options the statement gave
};

}  // namespace crawldb
