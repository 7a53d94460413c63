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

}  // namespace
}  // namespace crawldb::codecs
