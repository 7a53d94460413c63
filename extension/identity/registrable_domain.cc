#include "extension/identity/registrable_domain.h"

#include <libpsl.h>

#include <cstring>
#include <string>

#include "absl/strings/string_view.h"

namespace crawldb::identity {
namespace {

// Created once (a function-local static is initialised thread-safely) and never freed: the
// builtin context is static data; a loaded one lives as long as the process.
const psl_ctx_t* PslContext() {
  static const psl_ctx_t* const context = [] {
    const psl_ctx_t* builtin = psl_builtin();
    return builtin != nullptr ? builtin : static_cast<const psl_ctx_t*>(psl_latest(nullptr));
  }();
  return context;
}

bool LastLabelIsNumeric(absl::string_view host) {
  const size_t dot = host.rfind('.');
  const absl::string_view label = dot == absl::string_view::npos ? host : host.substr(dot + 1);
  if (label.empty()) return false;
  for (char c : label) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

}  // namespace

absl::string_view RegistrableDomain(absl::string_view host) {
  if (host.empty() || host.front() == '[' || LastLabelIsNumeric(host)) return host;
  const psl_ctx_t* context = PslContext();
  if (context == nullptr) return host;
  // libpsl wants a NUL-terminated string; hosts are short, so this is a stack copy.
  char stack_copy[256];
  std::string heap_copy;
  const char* name;
  if (host.size() < sizeof(stack_copy)) {
    std::memcpy(stack_copy, host.data(), host.size());
    stack_copy[host.size()] = '\0';
    name = stack_copy;
  } else {
    heap_copy.assign(host.data(), host.size());
    name = heap_copy.c_str();
  }
  const char* domain = psl_registrable_domain(context, name);
  if (domain == nullptr) return host;
  return host.substr(static_cast<size_t>(domain - name));
}

}  // namespace crawldb::identity
