#include "codecs/bv_lists.h"

namespace crawldb::codecs {

void SplitBvList(absl::Span<const uint32_t> reference, absl::Span<const uint32_t> list,
                 uint32_t min_interval_length, BvParts* parts) {
  parts->reference_size = static_cast<uint32_t>(reference.size());
  parts->blocks.clear();
  parts->interval_lefts.clear();
  parts->interval_lengths.clear();
  parts->residuals.clear();
  // Runs of the reference, alternately copied (in the list) and skipped, the first copied; the
  // ids of the list not in the reference are the extras, kept in `residuals` for now.
  std::vector<uint32_t>& extras = parts->residuals;
  size_t i = 0;  // Into list.
  bool copying = true;
  uint32_t run = 0;
  for (uint32_t id : reference) {
    while (i < list.size() && list[i] < id) extras.push_back(list[i++]);
    const bool in_list = i < list.size() && list[i] == id;
    if (in_list) ++i;
    if (in_list != copying) {
      parts->blocks.push_back(parts->blocks.empty() ? run : run - 1);
      copying = in_list;
      run = 0;
    }
    ++run;
  }
  // The last run is implied by the parity of the block count.
  while (i < list.size()) extras.push_back(list[i++]);
  if (min_interval_length == 0) return;
  // Runs of consecutive extras long enough become intervals; the rest stay residuals.
  size_t kept = 0;
  for (size_t begin = 0; begin < extras.size();) {
    size_t end = begin + 1;
    while (end < extras.size() && extras[end] == extras[end - 1] + 1) ++end;
    if (end - begin >= min_interval_length) {
      parts->interval_lefts.push_back(extras[begin]);
      parts->interval_lengths.push_back(static_cast<uint32_t>(end - begin));
    } else {
      for (size_t k = begin; k < end; ++k) extras[kept++] = extras[k];
    }
    begin = end;
  }
  extras.resize(kept);
}

}  // namespace crawldb::codecs
