#include "codecs/bit_writer.h"

#include <algorithm>
#include <utility>

namespace crawldb::codecs {

void BitWriter::Grow() { bytes_.resize(std::max<size_t>(64, bytes_.size() * 2)); }

void BitWriter::FlushWholeBytes() {
  const int whole = (64 - free_bits_) / 8;
  if (whole == 0) return;
  // AppendWord stores all 8 bytes of the aligned buffer; only `whole` of them count, the rest
  // are overwritten by later stores.
  AppendWord(buffer_ << (free_bits_ - 1) << 1);
  size_ -= 8 - whole;
  free_bits_ += 8 * whole;
}

absl::Span<const uint8_t> BitWriter::bytes() {
  FlushWholeBytes();
  return absl::MakeConstSpan(bytes_.data(), size_);
}

std::vector<uint8_t> BitWriter::Finish() {
  FlushWholeBytes();
  if (free_bits_ < 64) {
    // Fewer than 8 bits left: their byte, padded with zeros.
    AppendWord(buffer_ << (free_bits_ - 1) << 1);
    size_ -= 7;
  }
  bytes_.resize(size_);
  std::vector<uint8_t> out = std::move(bytes_);
  bytes_.clear();  // A moved-from vector is valid but unspecified; make it empty.
  buffer_ = 0;
  free_bits_ = 64;
  size_ = 0;
  return out;
}

}  // namespace crawldb::codecs
