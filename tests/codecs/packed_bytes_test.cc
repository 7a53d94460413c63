// Packed bytes: round trips at every packing, small runs stay plain, large ones shrink, and
// damage or a size over the bound is DataLoss.
#include "codecs/packed_bytes.h"

#include <string>

#include <gtest/gtest.h>

#include "absl/strings/str_cat.h"

namespace crawldb::codecs {
namespace {

std::string Text(size_t size) {
  std::string text;
  for (size_t i = 0; text.size() < size; ++i) absl::StrAppend(&text, "host", i % 13, "/p", i, ";");
  return text.substr(0, size);
}

absl::Span<const uint8_t> Bytes(const std::string& s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

TEST(PackedBytes, RoundTripsPlainBelowTheThresholdAndCompressedAbove) {
  for (size_t size : {size_t{0}, size_t{1}, kMinZstdBytes - 1, kMinZstdBytes, size_t{100000}}) {
    std::string text = Text(size);
    std::string packed = "prefix";
    AppendPackedBytes(text, kFastZstdLevel, &packed);
    std::string out;
    ASSERT_TRUE(ReadPackedBytes(Bytes(packed).subspan(6), size, "test", &out).ok()) << size;
    EXPECT_EQ(out, text) << size;
    if (size < kMinZstdBytes) {
      EXPECT_EQ(packed.size(), 6 + 1 + 1 + size) << "plain";
    }
  }
  std::string packed;
  AppendPackedBytes(Text(100000), kFastZstdLevel, &packed);
  EXPECT_LT(packed.size(), 100000u / 4);
}

TEST(PackedBytes, DamageAndOversizeAreDataLoss) {
  std::string packed;
  AppendPackedBytes(Text(5000), kFastZstdLevel, &packed);
  std::string out;
  absl::Status too_large = ReadPackedBytes(Bytes(packed), 4999, "test", &out);
  EXPECT_EQ(too_large.code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ(too_large.message(), "test: packed bytes hold 5000 bytes");
  for (size_t size = 0; size < packed.size(); ++size) {
    EXPECT_EQ(ReadPackedBytes(Bytes(packed).subspan(0, size), 5000, "test", &out).code(),
              absl::StatusCode::kDataLoss)
        << size;
  }
  std::string plain;
  AppendPackedBytes("short", kFastZstdLevel, &plain);
  plain.push_back('x');  // a byte more than the size says
  EXPECT_EQ(ReadPackedBytes(Bytes(plain), 100, "test", &out).message(),
            "test: plain bytes of another size");
  plain[1] = 7;  // an unknown packing
  EXPECT_EQ(ReadPackedBytes(Bytes(plain), 100, "test", &out).message(), "test: unknown packing 7");
}

// A damaged size is refused before anything is allocated for it (found by the link_log fuzz
// target: 14 bytes made a log row's reader allocate 512 MiB).
TEST(PackedBytes, ASizeTheFrameCannotHoldIsRefusedBeforeAllocating) {
  // Size 2^29, zstd, a frame header saying 2^29 bytes (single segment, 4-byte content size)
  // and one empty raw block.
  const std::string huge("\x80\x80\x80\x80\x02\x01\x28\xb5\x2f\xfd\xa0\x00\x00\x00\x20\x01\x00\x00",
                         18);
  std::string out;
  absl::Status status = ReadPackedBytes(Bytes(huge), size_t{1} << 30, "test", &out);
  EXPECT_EQ(status.message(), "test: a frame of 12 bytes cannot hold 536870912");
  EXPECT_EQ(out.capacity(), std::string().capacity());
  // A size the frame could hold but does not say: refused before allocating too.
  std::string packed;
  AppendPackedBytes(Text(5000), kFastZstdLevel, &packed);
  packed[0] = static_cast<char>(packed[0] + 1);  // 5001 (the size's varint ends in 2 bytes)
  EXPECT_EQ(ReadPackedBytes(Bytes(packed), 6000, "test", &out).message(),
            "test: the frame holds another size");
  EXPECT_EQ(out.capacity(), std::string().capacity());
}

}  // namespace
}  // namespace crawldb::codecs
