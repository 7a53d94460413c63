#include "codecs/nybble.h"

#include <algorithm>
#include <utility>

namespace crawldb::codecs {

void NybbleWriter::Grow() { bytes_.resize(std::max<size_t>(64, bytes_.size() * 2)); }

std::vector<uint8_t> NybbleWriter::Finish() {
  bytes_.resize((nybble_length_ + 1) / 2);
  std::vector<uint8_t> out = std::move(bytes_);
  bytes_.clear();  // A moved-from vector is valid but unspecified; make it empty.
  nybble_length_ = 0;
  return out;
}

void NybbleWriter::WriteLong(uint64_t value, int length) {
  AppendNybbles(internal::SpreadNybbleData(value), 16);
  const int rest = length - 16;
  AppendNybbles(internal::SpreadNybbleData(value >> 48) | (uint64_t{1} << (4 * rest - 4)), rest);
}

void NybbleWriter::WriteInt64Min() {
  // N = 2^64 + 1: sign bit 0 set, then zeros up to bit 64, which is data bit 1 of nybble 21.
  AppendNybbles(internal::SpreadNybbleData(1), 16);
  AppendNybbles(internal::SpreadNybbleData(uint64_t{1} << 16) | (uint64_t{1} << 20), 6);
}

bool NybbleReader::ReadGroups(uint64_t* low, uint64_t* top) {
  uint64_t value = 0;
  *top = 0;
  for (int i = 0; i < kMaxNybbleLength; ++i) {
    if (position_ == end_) {
      Fail();
      return false;
    }
    const uint8_t byte = data_[position_ >> 1];
    const uint64_t nybble = (position_ & 1) ? byte >> 4 : byte & 0xF;
    ++position_;
    if (i < kMaxNybbleLength - 1) {
      value |= (nybble >> 1) << (3 * i);
    } else {
      *top = nybble >> 1;
    }
    if (nybble & 1) {
      *low = value;
      return true;
    }
  }
  Fail();  // No stop bit within kMaxNybbleLength nybbles.
  return false;
}

uint64_t NybbleReader::ReadLongUnsigned() {
  uint64_t low;
  uint64_t top;
  if (!ReadGroups(&low, &top)) return 0;
  // The 22nd group holds bits 63 to 65; only bit 63 fits.
  if (top > 1) {
    Fail();
    return 0;
  }
  return low | (top << 63);
}

int64_t NybbleReader::ReadLongSigned() {
  uint64_t low;
  uint64_t top;
  if (!ReadGroups(&low, &top)) return 0;
  if (top <= 1) return internal::FromSignMagnitude(low | (top << 63));
  // N ≥ 2^64 fits only as INT64_MIN: N = 2^64 + 1.
  if (top == 2 && low == 1) return INT64_MIN;
  Fail();
  return 0;
}

}  // namespace crawldb::codecs
