#include "codecs/reference_lists.h"

#include <algorithm>

namespace crawldb::codecs {

void Diff(absl::Span<const uint32_t> from, absl::Span<const uint32_t> to,
          std::vector<uint32_t>* deletes, std::vector<uint32_t>* adds) {
  deletes->clear();
  adds->clear();
  size_t i = 0;
  size_t k = 0;
  while (i < from.size() && k < to.size()) {
    if (from[i] < to[k]) {
      deletes->push_back(static_cast<uint32_t>(i++));
    } else if (to[k] < from[i]) {
      adds->push_back(to[k++]);
    } else {
      ++i;
      ++k;
    }
  }
  for (; i < from.size(); ++i) deletes->push_back(static_cast<uint32_t>(i));
  for (; k < to.size(); ++k) adds->push_back(to[k]);
}

bool RebuildList(absl::Span<const uint32_t> representative, absl::Span<const uint32_t> deletes,
                 absl::Span<const uint32_t> adds, uint32_t* out) {
  const uint32_t* kept = representative.data();
  const uint32_t* add = adds.data();
  const uint32_t* const adds_end = add + adds.size();
  // Moves the kept elements up to `stop` to out, each add below one of them before it.
  const auto keep_until = [&](const uint32_t* stop) {
    while (kept < stop) {
      if (add == adds_end) {
        out = std::copy(kept, stop, out);
        kept = stop;
        return true;
      }
      const uint32_t next_add = *add;
      while (kept < stop && *kept < next_add) *out++ = *kept++;
      if (kept == stop) return true;
      if (*kept == next_add) return false;
      *out++ = next_add;
      ++add;
    }
    return true;
  };
  for (uint32_t index : deletes) {
    if (!keep_until(representative.data() + index)) return false;
    ++kept;
  }
  if (!keep_until(representative.data() + representative.size())) return false;
  std::copy(add, adds_end, out);
  return true;
}

bool MergeAdds(size_t kept, std::vector<uint32_t>* list) {
  std::vector<uint32_t>& ids = *list;
  const size_t added = ids.size() - kept;
  if (kept == 0 || added == 0) return true;
  ids.resize(kept + 2 * added);
  uint32_t* const a = ids.data();
  std::copy_backward(a + kept, a + kept + added, a + kept + 2 * added);
  // Kept elements still to place are a[0, i), adds a[kept + added, j); the output fills
  // a[0, kept + added) from the back. w ≥ i, and w < kept + added ≤ every unplaced add.
  size_t i = kept;
  size_t j = kept + 2 * added;
  size_t w = kept + added;
  while (j > kept + added) {
    const uint32_t add = a[j - 1];
    if (i > 0 && a[i - 1] >= add) {
      if (a[i - 1] == add) return false;
      a[--w] = a[--i];
    } else {
      a[--w] = add;
      --j;
    }
  }
  ids.resize(kept + added);
  return true;
}

}  // namespace crawldb::codecs
