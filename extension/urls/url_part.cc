#include "extension/urls/url_part.h"

#include <xxhash.h>

#include <algorithm>
#include <bit>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "codecs/little_endian.h"
#include "codecs/varint.h"
#include "extension/containers/blocked_bloom.h"
#include "extension/identity/canonical_key.h"

namespace crawldb::urls {
namespace {

constexpr int kMaxIdBits = 40;

absl::Status Corrupt(const std::string& what) {
  return absl::DataLossError(absl::StrCat("url part: ", what));
}

size_t PackedBytes(size_t count, int bits) { return (count * static_cast<size_t>(bits) + 7) / 8; }

// Words of a part's filter: about 10 bits per key, at least one word.
size_t FilterWords(size_t count) { return (count * 10 + 63) / 64 + 1; }

// The stored row of a part (url_part.h) from its fields: `ids` packed, `key_parts` the
// keys' KeyParts.
std::vector<uint8_t> StoredRow(int64_t through_id, size_t count, int id_bits,
                               absl::Span<const uint8_t> ids, absl::Span<const uint64_t> filter,
                               const std::vector<std::vector<uint8_t>>& key_parts) {
  std::vector<uint8_t> data = {kPartFormatVersion};
  codecs::AppendVarint(static_cast<uint64_t>(through_id), &data);
  codecs::AppendVarint(count, &data);
  data.push_back(static_cast<uint8_t>(id_bits));
  data.insert(data.end(), ids.begin(), ids.end());
  for (uint64_t word : filter) codecs::AppendLittleEndian(word, &data);
  codecs::AppendVarint(key_parts.size(), &data);
  for (const std::vector<uint8_t>& part : key_parts) {
    codecs::AppendVarint(part.size(), &data);
    data.insert(data.end(), part.begin(), part.end());
  }
  data.shrink_to_fit();  // a part keeps its row
  return data;
}

}  // namespace

size_t UrlPartOf(absl::string_view key) {
  size_t host_end = 0;
  while (host_end < key.size() && key[host_end] >= identity::kHostKeySeparator) ++host_end;
  return static_cast<size_t>(XXH3_64bits(key.data(), host_end) >> (64 - kUrlPartBits));
}

bool UrlPart::MayHold(absl::string_view key) const {
  const size_t words = filter_.size() / 8;
  if (words == 0) return false;  // the empty part
  const uint64_t hash = XXH3_64bits(key.data(), key.size());
  const uint64_t bits = BloomBits(hash);
  const uint64_t word =
      codecs::LoadLittleEndian<uint64_t>(filter_.data() + 8 * BloomWord(hash, words));
  return (word & bits) == bits;
}

absl::StatusOr<UrlPart> UrlPart::Build(absl::Span<const absl::string_view> keys,
                                       absl::Span<const int64_t> ids, int64_t through_id,
                                       std::shared_ptr<const codecs::UrlBlockModel> model) {
  if (keys.size() != ids.size()) {
    return absl::InvalidArgumentError("url part: one id per key is needed");
  }
  UrlBaseBuilder builder(model);
  for (absl::string_view key : keys) {
    if (absl::Status status = builder.Add(key); !status.ok()) return status;
  }
  absl::StatusOr<UrlBase> base = builder.Finish();
  if (!base.ok()) return base.status();
  int64_t max_id = 1;
  for (int64_t id : ids) {
    if (id < 1 || id > through_id) {
      return absl::InvalidArgumentError(
          absl::StrCat("url part: id ", id, " is outside 1..", through_id));
    }
    max_id = std::max(max_id, id);
  }
  if (keys.empty()) {  // no row to read: Serialize writes the empty part's
    UrlPart part;
    part.through_id_ = through_id;
    return part;
  }
  // The stored row, which the part then reads as it reads one loaded.
  const int id_bits =
      std::max(1, static_cast<int>(std::bit_width(static_cast<uint64_t>(max_id - 1))));
  std::vector<uint8_t> packed(PackedBytes(ids.size(), id_bits), 0);
  for (size_t rank = 0; rank < ids.size(); ++rank) {
    const uint64_t value = static_cast<uint64_t>(ids[rank] - 1);
    const size_t bit = rank * static_cast<size_t>(id_bits);
    for (int b = 0; b < id_bits; ++b) {
      if ((value >> b) & 1) packed[(bit + b) / 8] |= static_cast<uint8_t>(1u << ((bit + b) % 8));
    }
  }
  std::vector<uint64_t> filter(FilterWords(keys.size()), 0);
  for (absl::string_view key : keys) {
    const uint64_t hash = XXH3_64bits(key.data(), key.size());
    filter[BloomWord(hash, filter.size())] |= BloomBits(hash);
  }
  absl::StatusOr<UrlPart> part =
      LoadStored(StoredRow(through_id, keys.size(), id_bits, packed, filter, base->KeyParts()),
                 std::move(model));
  if (!part.ok()) {
    return absl::InternalError(absl::StrCat("url part built: ", part.status().message()));
  }
  return part;
}

std::vector<uint8_t> UrlPart::Serialize() const {
  if (data_ != nullptr) return *data_;
  // The empty part's row: no keys, one filter word, the empty base's header.
  const uint64_t no_keys[1] = {0};
  return StoredRow(through_id_, 0, 1, {}, no_keys, keys_.KeyParts());
}

absl::StatusOr<UrlPart> UrlPart::Load(absl::Span<const uint8_t> data,
                                      std::shared_ptr<const codecs::UrlBlockModel> model,
                                      int64_t first_id, int64_t last_id) {
  return LoadStored(std::vector<uint8_t>(data.begin(), data.end()), std::move(model), first_id,
                    last_id);
}

absl::StatusOr<UrlPart> UrlPart::LoadStored(std::vector<uint8_t> data,
                                            std::shared_ptr<const codecs::UrlBlockModel> model,
                                            int64_t first_id, int64_t last_id) {
  auto row = std::make_shared<const std::vector<uint8_t>>(std::move(data));
  const uint8_t* p = row->data();
  const uint8_t* end = p + row->size();
  if (p == end) return Corrupt("empty");
  if (*p != kPartFormatVersion) {
    return Corrupt(absl::StrCat("format version ", *p, ", this build reads ", kPartFormatVersion));
  }
  uint64_t through_id = 0, count = 0;
  p = codecs::ReadVarint(p + 1, end, &through_id);
  if (p != nullptr) p = codecs::ReadVarint(p, end, &count);
  if (p == nullptr || p == end) return Corrupt("malformed header");
  const int id_bits = *p++;
  if (through_id == 0 || through_id > (uint64_t{1} << kMaxIdBits) || id_bits < 1 ||
      id_bits > kMaxIdBits || count > through_id) {
    return Corrupt(absl::StrCat("header out of range: through id ", through_id, ", ", count,
                                " keys, ", id_bits, "-bit ids"));
  }
  const size_t id_bytes = PackedBytes(count, id_bits);
  if (id_bytes > static_cast<size_t>(end - p)) return Corrupt("the ids run past the end");
  UrlPart part;
  part.through_id_ = static_cast<int64_t>(through_id);
  part.id_bits_ = id_bits;
  part.ids_ = p;
  p += id_bytes;
  const size_t filter_words = FilterWords(count);
  // At least one word: IdAt's reads past the last id stay in it.
  if (filter_words > static_cast<size_t>(end - p) / 8)
    return Corrupt("the filter runs past the end");
  part.filter_ = absl::MakeConstSpan(p, filter_words * 8);
  p += filter_words * 8;
  uint64_t part_count = 0;
  p = codecs::ReadVarint(p, end, &part_count);
  if (p == nullptr || part_count > static_cast<uint64_t>(end - p)) {
    return Corrupt("malformed key parts");
  }
  std::vector<absl::Span<const uint8_t>> parts;
  for (uint64_t i = 0; i < part_count; ++i) {
    uint64_t length = 0;
    p = codecs::ReadVarint(p, end, &length);
    if (p == nullptr || length > static_cast<uint64_t>(end - p)) {
      return Corrupt(absl::StrCat("key part ", i, " runs past the end"));
    }
    parts.emplace_back(p, length);
    p += length;
  }
  if (p != end) return Corrupt("bytes after the last key part");
  absl::StatusOr<UrlBase> keys = UrlBase::OpenKeys(parts, std::move(model), row);
  if (!keys.ok()) return Corrupt(std::string(keys.status().message()));
  if (keys->size() != count) {
    return Corrupt(
        absl::StrCat("the header says ", count, " keys, the blocks hold ", keys->size()));
  }
  part.keys_ = std::move(*keys);
  part.data_ = std::move(row);
  // Every id in range, without a branch per id (every part read for a look-up pays this). That
  // none repeats is checked by UrlStore's look-ups by id (url_part.h): sorting the ids here would
  // cost every part read, not only those read for look-ups by id.
  const int64_t high = std::min(last_id, part.through_id_);
  int64_t lowest = INT64_MAX, highest = 0;
  for (size_t rank = 0; rank < count; ++rank) {
    const int64_t id = part.IdAt(rank);
    lowest = std::min(lowest, id);
    highest = std::max(highest, id);
  }
  if (count > 0 && (lowest < first_id || highest > high)) {
    const int64_t id = lowest < first_id ? lowest : highest;
    return Corrupt(absl::StrCat("id ", id, " is outside ", first_id, "..", high,
                                " (the through id is ", through_id, ")"));
  }
  return part;
}

size_t UrlPart::MemoryBytes() const {
  return keys_.KeysMemoryBytes() + (data_ != nullptr ? data_->capacity() : 0);
}

size_t UrlPart::StoredBytes() const { return data_ != nullptr ? data_->size() : 0; }

}  // namespace crawldb::urls
