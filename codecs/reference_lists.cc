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
