#include "extension/common/vtab_args.h"

#include <algorithm>
#include <cassert>
#include <charconv>
#include <cmath>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "extension/common/status.h"

namespace crawldb {
namespace {

// Removes one level of SQL-style quoting: 'it''s' → it's.
std::string Unquote(absl::string_view text) {
  if (text.size() < 2 || (text.front() != '\'' && text.front() != '"') ||
      text.back() != text.front()) {
    return std::string(text);
  }
  char quote = text.front();
  std::string out;
  text = text.substr(1, text.size() - 2);
  for (size_t i = 0; i < text.size(); ++i) {
    out.push_back(text[i]);
    if (text[i] == quote && i + 1 < text.size() && text[i + 1] == quote) ++i;
  }
  return out;
}

// The shortest text that reads back as the same double.
std::string FormatNumber(double value) {
  char buffer[32];
  auto [end, error] = std::to_chars(buffer, buffer + sizeof(buffer), value);
  return error == std::errc() ? std::string(buffer, end) : absl::StrFormat("%.17g", value);
}

// Checks `raw` against `spec`; returns the canonical text of the value.
absl::StatusOr<std::string> ValidateValue(absl::string_view module, const OptionSpec& spec,
                                          absl::string_view raw) {
  auto bad = [&](absl::string_view expected) {
    return UserError(
        module, absl::StrCat("option '", spec.name, "' must be ", expected, ", got '", raw, "'"));
  };
  switch (spec.kind) {
    case OptionKind::kInteger: {
      int64_t value = 0;
      if (!absl::SimpleAtoi(raw, &value) || value < spec.min || value > spec.max) {
        return bad(absl::StrCat("an integer from ", FormatNumber(spec.min), " to ",
                                FormatNumber(spec.max)));
      }
      return absl::StrCat(value);
    }
    case OptionKind::kReal: {
      double value = 0;
      if (!absl::SimpleAtod(raw, &value) || !std::isfinite(value) || value < spec.min ||
          value > spec.max) {
        return bad(
            absl::StrCat("a number from ", FormatNumber(spec.min), " to ", FormatNumber(spec.max)));
      }
      return FormatNumber(value);
    }
    case OptionKind::kBoolean: {
      std::string word = absl::AsciiStrToLower(raw);
      if (word == "true" || word == "on" || word == "yes" || word == "1")
        return std::string("true");
      if (word == "false" || word == "off" || word == "no" || word == "0")
        return std::string("false");
      return bad("true or false");
    }
    case OptionKind::kText:
      if (!spec.choices.empty() &&
          std::find(spec.choices.begin(), spec.choices.end(), raw) == spec.choices.end()) {
        return bad(absl::StrCat("one of: ", absl::StrJoin(spec.choices, ", ")));
      }
      return std::string(raw);
  }
  return bad("valid");
}

std::string ExpectedNames(absl::Span<const OptionSpec> options) {
  std::vector<absl::string_view> names;
  for (const OptionSpec& spec : options) names.push_back(spec.name);
  return names.empty() ? "this module takes no options"
                       : absl::StrCat("expected one of: ", absl::StrJoin(names, ", "));
}

}  // namespace

VtabArgs ParseVtabArgv(int argc, const char* const* argv) {
  VtabArgs args;
  if (argc > 0) args.module = argv[0];
  if (argc > 1) args.schema = argv[1];
  if (argc > 2) args.table = argv[2];
  for (int i = 3; i < argc; ++i) {
    args.arguments.emplace_back(absl::StripAsciiWhitespace(argv[i]));
  }
  return args;
}

absl::StatusOr<VtabOptions> VtabOptions::Parse(const VtabArgs& args,
                                               absl::Span<const PositionalSpec> positional,
                                               absl::Span<const OptionSpec> options) {
  const absl::string_view module = args.module;
  VtabOptions result;
  size_t next_positional = 0;
  bool seen_option = false;
  for (const std::string& argument : args.arguments) {
    size_t equals = argument.find('=');
    if (equals == std::string::npos) {
      if (seen_option) {
        return UserError(module, absl::StrCat("argument '", argument, "' is not key=value"),
                         "write positional arguments before the options");
      }
      if (next_positional >= positional.size()) {
        return UserError(
            module, absl::StrCat("unexpected argument '", argument, "'"),
            positional.empty() ? ExpectedNames(options) : "options are written key=value");
      }
      std::string value = Unquote(argument);
      if (value.empty()) {
        return UserError(
            module, absl::StrCat("argument '", positional[next_positional].name, "' is empty"));
      }
      result.values_[positional[next_positional].name] = std::move(value);
      ++next_positional;
      continue;
    }
    seen_option = true;
    std::string key(absl::StripAsciiWhitespace(absl::string_view(argument).substr(0, equals)));
    std::string raw =
        Unquote(absl::StripAsciiWhitespace(absl::string_view(argument).substr(equals + 1)));
    auto spec = std::find_if(options.begin(), options.end(),
                             [&](const OptionSpec& s) { return s.name == key; });
    if (spec == options.end()) {
      return UserError(module, absl::StrCat("unknown option '", key, "'"), ExpectedNames(options));
    }
    if (result.values_.contains(key)) {
      return UserError(module, absl::StrCat("option '", key, "' is given twice"));
    }
    CRAWLDB_ASSIGN_OR_RETURN(result.values_[key], ValidateValue(module, *spec, raw));
    result.given_.insert(std::string(key));
  }
  for (size_t i = next_positional; i < positional.size(); ++i) {
    if (positional[i].default_value.empty()) {
      return UserError(module, absl::StrCat("missing argument '", positional[i].name, "'"));
    }
    result.values_[positional[i].name] = std::string(positional[i].default_value);
  }
  for (const PositionalSpec& spec : positional) result.order_.emplace_back(spec.name);
  for (const OptionSpec& spec : options) {
    result.order_.emplace_back(spec.name);
    if (!result.values_.contains(spec.name)) {
      // Defaults are validated too, so a bad default in a spec shows up in the first test.
      CRAWLDB_ASSIGN_OR_RETURN(result.values_[spec.name],
                               ValidateValue(module, spec, spec.default_value));
    }
  }
  return result;
}

const std::string& VtabOptions::Text(absl::string_view name) const {
  static const std::string kAbsent;
  auto it = values_.find(name);
  assert(it != values_.end() && "option not in the spec");
  return it == values_.end() ? kAbsent : it->second;
}

int64_t VtabOptions::Integer(absl::string_view name) const {
  int64_t value = 0;
  bool ok = absl::SimpleAtoi(Text(name), &value);
  assert(ok && "option is not an integer");
  (void)ok;
  return value;
}

double VtabOptions::Real(absl::string_view name) const {
  double value = 0;
  bool ok = absl::SimpleAtod(Text(name), &value);
  assert(ok && "option is not a number");
  (void)ok;
  return value;
}

bool VtabOptions::Boolean(absl::string_view name) const { return Text(name) == "true"; }

std::vector<std::pair<std::string, std::string>> VtabOptions::Canonical() const {
  std::vector<std::pair<std::string, std::string>> out;
  for (const std::string& name : order_) out.emplace_back(name, values_.at(name));
  return out;
}

OptionSpec CacheMbOption() {
  return {.name = "cache_mb", .default_value = "256", .min = 0, .max = 1 << 20};
}

OptionSpec LogTailKbOption() {
  return {.name = "log_tail_kb", .default_value = "1024", .min = 0, .max = 1 << 20};
}

}  // namespace crawldb
