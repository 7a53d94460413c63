#include "extension/urls/url_id_parts.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "codecs/packed_bytes.h"
#include "codecs/varint.h"
#include "extension/urls/url_part.h"

namespace crawldb::urls {
namespace {

absl::Status Corrupt(const std::string& what) {
  return absl::DataLossError(absl::StrCat("url ids: ", what));
}

}  // namespace

std::vector<uint8_t> EncodeIdChunk(absl::Span<const uint16_t> parts, codecs::ZstdContexts* zstd) {
  std::string body(parts.size() * 2, '\0');
  for (size_t i = 0; i < parts.size(); ++i) {
    body[2 * i] = static_cast<char>(parts[i] & 0xFF);
    body[2 * i + 1] = static_cast<char>(parts[i] >> 8);
  }
  std::string blob(1, static_cast<char>(kIdPartsFormatVersion));
  codecs::AppendVarint(parts.size(), &blob);
  codecs::AppendPackedBytes(body, codecs::kFastZstdLevel, &blob, zstd);
  return {blob.begin(), blob.end()};
}

absl::StatusOr<std::vector<uint16_t>> DecodeIdChunk(absl::Span<const uint8_t> blob,
                                                    codecs::ZstdContexts* zstd) {
  if (blob.empty() || blob[0] != kIdPartsFormatVersion) {
    return Corrupt(blob.empty() ? "empty chunk" : absl::StrCat("unknown version ", blob[0]));
  }
  const uint8_t* end = blob.data() + blob.size();
  uint64_t count = 0;
  const uint8_t* p = codecs::ReadVarint(blob.data() + 1, end, &count);
  if (p == nullptr || count > kIdsPerChunk) return Corrupt("bad count");
  std::string body;
  absl::Status unpacked = codecs::ReadPackedBytes(absl::MakeConstSpan(p, end), 2 * kIdsPerChunk,
                                                  "url ids", &body, zstd);
  if (!unpacked.ok()) return unpacked;
  if (body.size() != 2 * count) return Corrupt("the parts do not match the count");
  std::vector<uint16_t> parts(count);
  for (size_t i = 0; i < count; ++i) {
    parts[i] = static_cast<uint16_t>(static_cast<uint8_t>(body[2 * i]) |
                                     static_cast<uint8_t>(body[2 * i + 1]) << 8);
    if (parts[i] >= kUrlParts) return Corrupt(absl::StrCat("part ", parts[i], " out of range"));
  }
  return parts;
}

void IdPartMap::Reset(int64_t first_id, Loader loader) {
  first_id_ = first_id;
  loader_ = std::move(loader);
  chunks_.clear();
}

absl::StatusOr<IdPartMap::Chunk*> IdPartMap::Get(int64_t chunk) {
  auto it = chunks_.find(chunk);
  if (it == chunks_.end()) {
    if (loader_ == nullptr) return nullptr;
    absl::StatusOr<std::optional<std::vector<uint16_t>>> stored = loader_(chunk);
    if (!stored.ok()) return stored.status();
    if (!stored->has_value()) return nullptr;
    Evict();
    it = chunks_.emplace(chunk, Chunk{std::move(**stored)}).first;
  }
  it->second.used = ++tick_;
  return &it->second;
}

absl::StatusOr<size_t> IdPartMap::PartOf(int64_t id) {
  const int64_t chunk = ChunkOf(id);
  absl::StatusOr<Chunk*> found = Get(chunk);
  if (!found.ok()) return found.status();
  const size_t offset = static_cast<size_t>(id - first_id_) % kIdsPerChunk;
  if (*found == nullptr || offset >= (*found)->parts.size()) {
    return Corrupt(absl::StrCat("no part stored for id ", id));
  }
  return (*found)->parts[offset];
}

absl::Status IdPartMap::Append(int64_t id, size_t part) {
  const int64_t chunk = ChunkOf(id);
  const size_t offset = static_cast<size_t>(id - first_id_) % kIdsPerChunk;
  Chunk* target = nullptr;
  if (offset != 0) {
    absl::StatusOr<Chunk*> found = Get(chunk);
    if (!found.ok()) return found.status();
    target = *found;
  }
  if (target == nullptr) {
    if (offset != 0) return Corrupt(absl::StrCat("no chunk holds the ids before id ", id));
    Evict();
    target = &chunks_[chunk];
    target->used = ++tick_;
  }
  if (target->parts.size() != offset) {
    return Corrupt(absl::StrCat("id ", id, " does not follow the last id mapped"));
  }
  target->parts.push_back(static_cast<uint16_t>(part));
  target->dirty = true;
  return absl::OkStatus();
}

void IdPartMap::Truncate(int64_t last_id) {
  // The chunks holding ids above last_id follow each other from the one holding last_id + 1.
  const int64_t keep = std::max<int64_t>(last_id - first_id_ + 1, 0);
  for (int64_t chunk = keep / static_cast<int64_t>(kIdsPerChunk);; ++chunk) {
    auto it = chunks_.find(chunk);
    if (it == chunks_.end()) break;
    const int64_t begin = chunk * static_cast<int64_t>(kIdsPerChunk);
    std::vector<uint16_t>& parts = it->second.parts;
    parts.resize(static_cast<size_t>(
        std::clamp<int64_t>(keep - begin, 0, static_cast<int64_t>(parts.size()))));
    if (parts.empty()) chunks_.erase(it);
  }
}

void IdPartMap::Forget(int64_t id) {
  if (loader_ == nullptr) return;
  const int64_t from = id < first_id_ ? 0 : ChunkOf(id);
  absl::erase_if(chunks_,
                 [&](const auto& entry) { return entry.first >= from && !entry.second.dirty; });
}

std::vector<std::pair<int64_t, absl::Span<const uint16_t>>> IdPartMap::Dirty() const {
  std::vector<std::pair<int64_t, absl::Span<const uint16_t>>> dirty;
  for (const auto& [chunk, entry] : chunks_) {
    if (entry.dirty) dirty.emplace_back(chunk, entry.parts);
  }
  std::sort(dirty.begin(), dirty.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  return dirty;
}

void IdPartMap::Written() {
  for (auto& [chunk, entry] : chunks_) entry.dirty = false;
  Evict();
}

void IdPartMap::Evict() {
  if (loader_ == nullptr) return;
  while (chunks_.size() >= max_chunks_) {
    auto oldest = chunks_.end();
    for (auto it = chunks_.begin(); it != chunks_.end(); ++it) {
      if (!it->second.dirty && (oldest == chunks_.end() || it->second.used < oldest->second.used)) {
        oldest = it;
      }
    }
    if (oldest == chunks_.end()) return;  // every chunk is dirty
    chunks_.erase(oldest);
  }
}

size_t IdPartMap::MemoryBytes() const {
  size_t bytes = chunks_.capacity() * (sizeof(int64_t) + sizeof(Chunk) + 1);
  for (const auto& [chunk, entry] : chunks_) bytes += entry.parts.capacity() * sizeof(uint16_t);
  return bytes;
}

}  // namespace crawldb::urls
