
#include "absl/strings/string_view.h"
// The registrable domain of a host ("eTLD+1"): the public suffix plus one label, by the Public
// Suffix List (https://publicsuffix.org), through libpsl.
//
//   "www.example.co.uk" -> "example.co.uk"      "foo.blogspot.com" -> "foo.blogspot.com"
//   "co.uk" -> "co.uk"                           "localhost" -> "localhost"
//   "192.0.2.1" -> "192.0.2.1"                   "[::1]" -> "[::1]"
//
// Rules: an IP literal, a host whose last label is all digits (no TLD is), and a host that is
// itself a public suffix (libpsl finds no registrable domain) are their own registrable domain.
// Hosts not under a listed suffix follow the PSL's implicit "*" rule ("a.b.internal" ->
// "b.internal").
//
// Which list: the one compiled into libpsl (psl_builtin(); Debian 12's libpsl 0.21.2 carries the
// list of its build, 9,498 rules, taken from the `publicsuffix` package at build time), so the
// answer does not depend on a file at run time. Only when libpsl was built without one, the
// newest of the system's files (psl_latest(), /usr/share/publicsuffix from the `publicsuffix`
// package) is loaded, once. Without either, every host is its own registrable domain.
//
// The answer is NOT part of any stored identity (fingerprint and canonical key do not use it),
// so a newer list changes only what url_domain() reports. Thread-safe.
#pragma once

namespace crawldb::identity {

// The registrable domain of `host`, a normalised host (NormalizedUrl::host() or UrlHost():
// lower-case ASCII, punycode for IDN). The result is a suffix of `host` (a view into it).
absl::string_view RegistrableDomain(absl::string_view host);

}  // namespace crawldb::identity
