#include "crawldb-node/node_options.h"

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace crawldb::node {
namespace {

absl::Status Bad(const std::string& what) {
  return absl::InvalidArgumentError(absl::StrCat("crawldb-node: ", what, "\n", kUsage));
}

}  // namespace

absl::StatusOr<NodeOptions> ParseNodeOptions(const std::vector<std::string>& arguments) {
  NodeOptions options;
  for (size_t i = 0; i < arguments.size(); ++i) {
    const std::string& option = arguments[i];
    if (option != "--id" && option != "--address" && option != "--data" && option != "--join" &&
        option != "--network-latency-ms") {
      return Bad(absl::StrCat("unknown option '", option, "'"));
    }
    if (i + 1 == arguments.size()) return Bad(absl::StrCat(option, " needs a value"));
    const std::string& value = arguments[++i];
    if (option == "--id") {
      if (!absl::SimpleAtoi(value, &options.id) || options.id == 0) {
        return Bad(absl::StrCat("--id must be a positive integer, got '", value, "'"));
      }
    } else if (option == "--network-latency-ms") {
      if (!absl::SimpleAtoi(value, &options.network_latency_ms) ||
          options.network_latency_ms == 0) {
        return Bad(
            absl::StrCat("--network-latency-ms must be a positive integer, got '", value, "'"));
      }
    } else if (option == "--address") {
      options.address = value;
    } else if (option == "--data") {
      options.data_dir = value;
    } else {
      // --join takes every following value up to the next option.
      options.join.push_back(value);
      while (i + 1 < arguments.size() && arguments[i + 1].rfind("--", 0) != 0) {
        options.join.push_back(arguments[++i]);
      }
    }
  }
  if (options.id == 0) return Bad("--id is required");
  if (options.address.empty()) return Bad("--address is required");
  if (options.data_dir.empty()) return Bad("--data is required");
  if (options.id == 1 && !options.join.empty()) {
    return Bad("node 1 starts its group and joins none; give the joining nodes other ids");
  }
  if (options.id != 1 && options.join.empty()) {
    return Bad("a node other than 1 needs --join with the address of a member of its group");
  }
  return options;
}

}  // namespace crawldb::node
