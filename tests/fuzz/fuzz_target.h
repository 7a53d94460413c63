// What every fuzz target of tests/fuzz/ defines, and the helpers they share.
//
// A target is one file <name>_fuzz.cc defining, in namespace crawldb::fuzz,
//   TestOneInput  decodes one input and checks the target's properties with FUZZ_CHECK
//   FuzzSeeds     the seed inputs, made by the project's own encoders
// fuzz_entry.cc holds libFuzzer's entry point, which calls TestOneInput. A target is built two
// ways (tests/fuzz/CMakeLists.txt): with clang's libFuzzer by scripts/fuzz.sh, and, in every
// other build, with replay_main.cc, which runs the seeds and the files of
// tests/fuzz/corpus/<name>/ once (the ctest test fuzz_<name>) or writes the seeds there.
//
// Inputs holding several byte strings frame them as pieces (FuzzInput), so that the fuzzer can
// grow or cut one without shifting the others.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "codecs/varint.h"

// A property that must hold for every input: prints what failed and aborts (in every build type;
// assert() is compiled out of release builds), which libFuzzer and ctest report as a failure.
#define FUZZ_CHECK(condition)                                                                 \
  do {                                                                                        \
    if (!(condition)) {                                                                       \
      std::fprintf(stderr, "%s:%d: FUZZ_CHECK failed: %s\n", __FILE__, __LINE__, #condition); \
      std::abort();                                                                           \
    }                                                                                         \
  } while (false)

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace crawldb::fuzz {

// A seed input: the name of its file in the corpus folder, and its bytes.
struct Seed {
  std::string name;
  std::vector<uint8_t> bytes;
};

// The target's seeds (defined by each target).
std::vector<Seed> FuzzSeeds();

// Reads an input as fields: bytes, and pieces := length:varint bytes[length]. Reads past the end
// give 0 and empty pieces; a piece longer than the rest is cut to the rest.
class FuzzInput {
 public:
  FuzzInput(const uint8_t* data, size_t size) : p_(data), end_(data + size) {}

  bool empty() const { return p_ == end_; }
  uint8_t Byte() { return p_ == end_ ? 0 : *p_++; }
  // Four bytes, least significant first.
  uint32_t U32() {
    uint32_t value = 0;
    for (int shift = 0; shift < 32; shift += 8) value |= uint32_t{Byte()} << shift;
    return value;
  }
  absl::Span<const uint8_t> Piece() {
    uint64_t length = 0;
    const uint8_t* after = codecs::ReadVarint(p_, end_, &length);
    if (after == nullptr) after = end_;
    const size_t size = std::min<uint64_t>(length, static_cast<size_t>(end_ - after));
    p_ = after + size;
    return absl::MakeConstSpan(after, size);
  }
  // Every piece left.
  std::vector<absl::Span<const uint8_t>> Pieces() {
    std::vector<absl::Span<const uint8_t>> pieces;
    while (!empty()) pieces.push_back(Piece());
    return pieces;
  }
  absl::Span<const uint8_t> Rest() {
    absl::Span<const uint8_t> rest(p_, static_cast<size_t>(end_ - p_));
    p_ = end_;
    return rest;
  }

 private:
  const uint8_t* p_;
  const uint8_t* end_;
};

// Checks one input (defined by each target).
void TestOneInput(FuzzInput input);

// The writer of FuzzInput's pieces, for seeds.
inline void AppendPiece(absl::Span<const uint8_t> piece, std::vector<uint8_t>* out) {
  codecs::AppendVarint(piece.size(), out);
  out->insert(out->end(), piece.begin(), piece.end());
}
inline void AppendPiece(absl::string_view piece, std::vector<uint8_t>* out) {
  AppendPiece(absl::MakeConstSpan(reinterpret_cast<const uint8_t*>(piece.data()), piece.size()),
              out);
}

inline absl::Span<const uint8_t> BytesOf(absl::string_view text) {
  return absl::MakeConstSpan(reinterpret_cast<const uint8_t*>(text.data()), text.size());
}
inline absl::string_view TextOf(absl::Span<const uint8_t> bytes) {
  return absl::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

}  // namespace crawldb::fuzz
