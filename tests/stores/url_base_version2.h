// The version 2 form (url_base.h) of a base stored as version 3: every block's head in part 2,
// none in the groups. Made from this build's parts, for the tests that check version 2 is still
// read.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/types/span.h"
#include "codecs/url_block_index.h"
#include "codecs/varint.h"
#include "extension/urls/url_base.h"
#include "gtest/gtest.h"

namespace crawldb::urls {

inline std::vector<std::vector<uint8_t>> Version2Parts(std::vector<std::vector<uint8_t>> parts) {
  const std::vector<absl::Span<const uint8_t>> spans(parts.begin(), parts.end());
  absl::StatusOr<UrlBase> base = UrlBase::Load(spans);
  EXPECT_TRUE(base.ok()) << base.status();
  parts[0][0] = 2;
  if (!base.ok() || base->size() == 0) return parts;
  codecs::UrlBlockIndex heads(*base->model());
  std::string head;
  for (size_t block = 0; block < base->block_count(); ++block) {
    EXPECT_TRUE(base->Get(block * kKeysPerBlock, &head).ok());
    EXPECT_TRUE(heads.Append(head).ok());
  }
  parts[2] = heads.Serialize();
  for (size_t part = kFirstGroupPart; part < parts.size(); ++part) {
    std::vector<uint8_t>& group = parts[part];
    const uint8_t* const end = group.data() + group.size();
    uint64_t blocks = 0, heads_bytes = 0;
    const uint8_t* const after_count = codecs::ReadVarint(group.data(), end, &blocks);
    const uint8_t* const after_size = codecs::ReadVarint(after_count, end, &heads_bytes);
    const ptrdiff_t from = after_count - group.data();
    const ptrdiff_t to = after_size - group.data() + static_cast<ptrdiff_t>(heads_bytes);
    group.erase(group.begin() + from, group.begin() + to);
  }
  return parts;
}

}  // namespace crawldb::urls
