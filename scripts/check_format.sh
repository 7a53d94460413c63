#!/usr/bin/env bash
# Fails when a tracked C++ file differs from what clang-format makes of it (.clang-format at the
# root; Debian 12's clang-format 14, which scripts/install-deps.sh installs), or names
# std::string_view: the project has one string-view type, absl::string_view (Debian's Abseil
# has its own, not an alias of std's, and every Abseil function takes it). The `format` test.
# To fix: clang-format -i FILE… (or every file: clang-format -i $(git ls-files '*.cc' '*.h')).
set -euo pipefail
cd "$(dirname "$0")/.."
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files '*.cc' '*.h')
else  # a source tree without git (an unpacked archive)
  mapfile -t files < <(find codecs extension tests bench \( -name '*.cc' -o -name '*.h' \) | sort)
fi
if ! clang-format --dry-run --Werror "${files[@]}"; then
  echo "format: the files above differ from .clang-format; run clang-format -i on them" >&2
  exit 1
fi
if grep -n 'std::string_view\|<string_view>' "${files[@]}"; then
  echo "format: the lines above name std::string_view; use absl::string_view" >&2
  exit 1
fi
echo "format: ${#files[@]} files match .clang-format and use one string-view type"
