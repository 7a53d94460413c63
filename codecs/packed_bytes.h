// Packed bytes: a run of bytes with no structure of its own left to code (a `urls` log row's
// keys, a frontier change set's body), stored compressed with zstd when that pays.
//
//   packed := size:varint ( 0:u8 bytes[size]          stored as they are: size < kMinZstdBytes
//                         | 1:u8 zstd-frame )          a zstd frame (RFC 8878) of the size bytes,
//                                                      with its content checksum
// A packed run fills the span it is read from. Small runs stay plain: a zstd frame costs about
// 17 bytes of header and checksum, more than it saves below kMinZstdBytes.
//
// ReadPackedBytes is bounded: before allocating it refuses a size above `max_size`, above what
// the frame's bytes could hold, or other than the frame's header says; then a frame that is
// damaged (zstd checks the frame's checksum) or holds another number of bytes, so that damage is
// a DataLossError, never a read past the span, other bytes, or memory for a size made up.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace crawldb::codecs {

inline constexpr size_t kMinZstdBytes = 64;
// zstd's level 1: hundreds of MB/s on URL keys.
inline constexpr int kFastZstdLevel = 1;

// zstd contexts kept for the next call: making one costs about 25 µs, three times what packing
// or unpacking a run of a few hundred bytes costs with one made already. Owned by the caller (a
// table), so that the codec keeps no per-thread state; not thread-safe.
class ZstdContexts {
 public:
  ZstdContexts();
  ~ZstdContexts();
  ZstdContexts(const ZstdContexts&) = delete;
  ZstdContexts& operator=(const ZstdContexts&) = delete;

 private:
  friend void AppendPackedBytes(absl::string_view, int, std::string*, ZstdContexts*);
  friend absl::Status ReadPackedBytes(absl::Span<const uint8_t>, size_t, absl::string_view,
                                      std::string*, ZstdContexts*);
  struct Contexts;
  std::unique_ptr<Contexts> contexts_;
};

// Appends `bytes`, packed (compressed at `level` when at least kMinZstdBytes long), to *out.
// Without `contexts`, a zstd context is made for the call.
void AppendPackedBytes(absl::string_view bytes, int level, std::string* out,
                       ZstdContexts* contexts = nullptr);

// Replaces *out with the bytes `packed` holds; DataLossError, its message starting with `what`,
// when it is damaged or holds more than max_size bytes.
absl::Status ReadPackedBytes(absl::Span<const uint8_t> packed, size_t max_size,
                             absl::string_view what, std::string* out,
                             ZstdContexts* contexts = nullptr);

}  // namespace crawldb::codecs
