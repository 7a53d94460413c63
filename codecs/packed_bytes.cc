#include "codecs/packed_bytes.h"

#include <memory>

#include <zstd.h>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "codecs/varint.h"

namespace crawldb::codecs {
namespace {

enum Packing : uint8_t { kPlain = 0, kZstd = 1 };

struct CCtxFree {
  void operator()(ZSTD_CCtx* context) const { ZSTD_freeCCtx(context); }
};
struct DCtxFree {
  void operator()(ZSTD_DCtx* context) const { ZSTD_freeDCtx(context); }
};
using CCtx = std::unique_ptr<ZSTD_CCtx, CCtxFree>;
using DCtx = std::unique_ptr<ZSTD_DCtx, DCtxFree>;

}  // namespace

struct ZstdContexts::Contexts {
  CCtx compress;    // made by the first AppendPackedBytes that compresses
  DCtx decompress;  // made by the first ReadPackedBytes that decompresses
};

ZstdContexts::ZstdContexts() : contexts_(std::make_unique<Contexts>()) {}
ZstdContexts::~ZstdContexts() = default;

void AppendPackedBytes(absl::string_view bytes, int level, std::string* out,
                       ZstdContexts* contexts) {
  AppendVarint(bytes.size(), out);
  if (bytes.size() < kMinZstdBytes) {
    out->push_back(static_cast<char>(kPlain));
    out->append(bytes.data(), bytes.size());
    return;
  }
  out->push_back(static_cast<char>(kZstd));
  CCtx own;
  CCtx& context = contexts != nullptr ? contexts->contexts_->compress : own;
  if (context == nullptr) context.reset(ZSTD_createCCtx());
  ZSTD_CCtx_setParameter(context.get(), ZSTD_c_compressionLevel, level);
  ZSTD_CCtx_setParameter(context.get(), ZSTD_c_checksumFlag, 1);
  const size_t start = out->size();
  out->resize(start + ZSTD_compressBound(bytes.size()));
  const size_t written = ZSTD_compress2(context.get(), out->data() + start, out->size() - start,
                                        bytes.data(), bytes.size());
  // With a buffer of ZSTD_compressBound bytes, compression cannot fail.
  out->resize(start + (ZSTD_isError(written) ? 0 : written));
}

absl::Status ReadPackedBytes(absl::Span<const uint8_t> packed, size_t max_size,
                             absl::string_view what, std::string* out, ZstdContexts* contexts) {
  auto damaged = [&](absl::string_view why) {
    return absl::DataLossError(absl::StrCat(absl::string_view(what.data(), what.size()), ": ",
                                            absl::string_view(why.data(), why.size())));
  };
  const uint8_t* end = packed.data() + packed.size();
  uint64_t size = 0;
  const uint8_t* p = ReadVarint(packed.data(), end, &size);
  if (p == nullptr || p == end) return damaged("packed bytes are cut short");
  if (size > max_size) return damaged(absl::StrCat("packed bytes hold ", size, " bytes"));
  const uint8_t packing = *p++;
  const size_t left = static_cast<size_t>(end - p);
  if (packing == kPlain) {
    if (left != size) return damaged("plain bytes of another size");
    out->assign(reinterpret_cast<const char*>(p), left);
    return absl::OkStatus();
  }
  if (packing != kZstd) return damaged(absl::StrCat("unknown packing ", packing));
  // Before allocating: a damaged size must not cost memory. The densest zstd block, an RLE
  // block, takes 4 bytes (3 of header) for at most 128 KiB, and the frame's header says how
  // many bytes it holds (AppendPackedBytes' frames all do).
  constexpr uint64_t kMostBytesPerFrameByte = (uint64_t{128} << 10) / 4;
  if (size / kMostBytesPerFrameByte > left) {
    return damaged(absl::StrCat("a frame of ", left, " bytes cannot hold ", size));
  }
  if (ZSTD_getFrameContentSize(p, left) != size) return damaged("the frame holds another size");
  out->resize(size);
  DCtx own;
  DCtx& context = contexts != nullptr ? contexts->contexts_->decompress : own;
  if (context == nullptr) context.reset(ZSTD_createDCtx());
  const size_t read = ZSTD_decompressDCtx(context.get(), out->data(), size, p, left);
  if (ZSTD_isError(read)) return damaged(ZSTD_getErrorName(read));
  if (read != size) return damaged("the frame holds another size");
  return absl::OkStatus();
}

}  // namespace crawldb::codecs
