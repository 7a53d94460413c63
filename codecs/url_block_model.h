// UrlBlockModel: the shared model of the URL block codec (url_block_codec.h), trained once per
// store from its sorted keys: a symbol table (symbol_table.h), a map from the byte before a
// token to a context cluster, one canonical Huffman code (huffman.h) over tokens per cluster,
// and one code over shared-prefix lengths.
//
// Tokens. The codec writes the part of a key after its shared prefix as tokens, then an
// end-of-key token:
//   0..255       the literal byte
//   256          end of key
//   257 + i      symbol i of the symbol table (2 to 16 bytes)
// The code a token is written with depends on the byte before it in the key (the last byte of
// the shared prefix or of the previous token): context c is that byte, or 256 at the start of
// the key. context_cluster[c] names the cluster whose code applies. The previous byte carries
// much of a URL's structure (after '/' a word or a number, after a digit a digit, after ".htm"
// an 'l'); on the reddit keys 16 clusters take 2.1 bytes per key off a single code (17.2 →
// 15.1 all-in). Encoding parses each suffix optimally (fewest bits) into symbols and literals
// with these codes.
//
// Training (Train): take the suffixes the blocks will code (a sample of them on large inputs),
// learn the symbols (SymbolTable::Learn), cut the suffixes greedily into tokens and count them
// per context, group the 257 contexts into clusters by k-means (a context's distance to a
// cluster: the bits its tokens would take under the cluster's distribution), and build one
// length-limited Huffman code per cluster; then twice: parse optimally under those codes,
// recount, regroup, rebuild. Symbols no cluster gives a codeword are dropped.
//
// Byte format, version 1 (integers are varints, codecs/varint.h):
//   model           := version:u8 = 1
//                      symbol_count                      ≤ kMaxSymbols
//                      symbol{symbol_count}              symbol := length:u8 bytes[length],
//                                                        length in [2, 16], symbols distinct
//                                                        (the writer's rule; Load does not
//                                                        check it: a repeat decodes like its
//                                                        twin and the encoder uses the last)
//                      cluster_count:u8                  in [1, kMaxClusters]
//                      context_cluster:u8[257]           each < cluster_count
//                      token_lengths{cluster_count}      (257 + symbol_count) code lengths
//                      shared_lengths                    256 code lengths
//   code lengths    := two per byte, the first in the high nibble, each in [0, 12] (0: no
//                      codeword); an odd count ends with a zero low nibble
// Every token_lengths is a complete prefix code in which all literals and end-of-key have a
// codeword (so any key can be coded under any context); shared_lengths is a complete code
// giving all 256 values a codeword. Nothing follows the model. Load() checks all of it but the
// distinct symbols.
//
// Size: about 1 + Σ(1 + symbol length) + 258 + cluster_count × (257 + symbol_count) / 2 + 128
// bytes; with the defaults on 200,000 URLs about 60 KB, 0.3 bytes per URL.
// Memory once loaded: per cluster a 16 KiB decoding table and a byte per token (its code
// lengths), and per token 20 bytes plus its symbol's text: about 520 KB with the defaults. The
// decoding tables are built when the model is made (a first look-up on cnr-2000's met all 15
// of its clusters when they were built on demand). The encoder (Encoder: codewords, 4 bytes per
// token and cluster, and a symbol table with its trie: about 470 KB more with the defaults) is
// built at the first encode, under std::call_once: a connection that only looks up never
// builds it (crawldb_stats() does, to count the heads it codes again). A model never changes
// otherwise, so several connections (threads) may share one (extension/urls/shared_url_models.h).
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "codecs/symbol_table.h"
#include "codecs/zeroed_array.h"

namespace crawldb::codecs {

struct UrlBlockModelOptions {
  // Keys per block the store cuts its keys into; training sees the suffixes the blocks will
  // hold (a block's first key whole, the others after their shared prefix).
  size_t block_keys = 32;
  // Most symbols (the learner keeps fewer on a small sample: symbols used fewer than twice get
  // no codeword and are dropped), at most kMaxSymbols.
  size_t max_symbols = 4096;
  // Context clusters, in [1, kMaxClusters].
  int clusters = 16;
  // Key bytes the training looks at; above it, every n-th key is taken. Bounds training time
  // (about 0.4 s per MiB; a larger sample does not compress the reddit keys better).
  size_t max_sample_bytes = size_t{6} << 20;
};

class UrlBlockModel {
 public:
  static constexpr int kVersion = 1;
  static constexpr int kMaxClusters = 32;  // Cluster numbers fit the 5 bits of a table entry.
  // Longest codeword, in bits; decoding tables have 2^kCodeBits entries.
  static constexpr int kCodeBits = 12;
  static constexpr uint32_t kEndOfKey = 256;
  static constexpr uint32_t kFirstSymbolToken = 257;
  // Contexts: the previous byte 0..255, or kStartContext before a key's first byte.
  static constexpr int kStartContext = 256;
  static constexpr int kContexts = 257;

  // The untrained model: no symbols, one cluster, codes that favour printable ASCII. Codes any
  // key; compresses about as well as 7-bit text.
  UrlBlockModel();

  // Trains a model on `keys`, sorted in strictly increasing byte order as the store will hold
  // them (unsorted input is accepted, but trains for suffixes it will not see).
  // InvalidArgumentError on options out of range.
  static absl::StatusOr<UrlBlockModel> Train(absl::Span<const absl::string_view> keys,
                                             const UrlBlockModelOptions& options = {});

  // Parses and checks a serialized model; DataLossError "url_block_model: <what>" if it does
  // not follow the format above.
  static absl::StatusOr<UrlBlockModel> Load(absl::Span<const uint8_t> bytes);

  // The byte format above.
  std::vector<uint8_t> Serialize() const;

  // Symbol i is token kFirstSymbolToken + i.
  const std::vector<std::string>& symbols() const { return symbols_; }
  int cluster_count() const { return cluster_count_; }

  // Bytes of memory held: the tables exactly, the encoder's symbol trie estimated (about 24
  // bytes per symbol) once it is built.
  size_t MemoryBytes() const;

  // --- For url_block_codec.cc -----------------------------------------------------------------

  // The cluster whose code applies after byte `context` (or at kStartContext).
  int Cluster(int context) const { return context_cluster_[context]; }

  // Length (bits) of the codeword of `token` in `cluster`; 0: the token has no codeword there
  // (only symbols can lack one).
  int TokenLength(int cluster, uint32_t token) const {
    return token_lengths_[cluster * token_count_ + token];
  }
  int SharedLength(uint32_t value) const { return shared_lengths_[value]; }

  // What encoding needs beyond the lengths: the codewords and the symbols' trie.
  class Encoder {
   public:
    // Codeword of `token` in `cluster` (its length: TokenLength), of a shared-prefix length.
    uint32_t TokenCode(int cluster, uint32_t token) const {
      return token_codes_[cluster * token_count_ + token];
    }
    uint32_t SharedCode(uint32_t value) const { return shared_codes_[value]; }

   private:
    friend class UrlBlockModel;
    size_t token_count_ = 0;
    SymbolTable symbols_;                // with the trie that finds the symbols in a key
    std::vector<uint32_t> token_codes_;  // [cluster × token_count_ + token]
    std::vector<uint32_t> shared_codes_;
  };
  // The encoder, built at the first call (thread-safe); valid as long as the model. Not on a
  // moved-from model, which may only be destroyed or assigned.
  const Encoder& encoder() const;

  // Appends the tokens of key[from, end) to *tokens, end-of-key excluded: the parse with the
  // fewest bits under this model's codes (the context of key[from] is key[from − 1], or start;
  // of repeated symbols only the last is tried).
  void Tokenize(absl::string_view key, size_t from, std::vector<uint32_t>* tokens) const;

  // The decoding tables of all clusters, one after the other: the entry for the next
  // kCodeBits bits of input `peek` in cluster k is TokenTables()[k << kCodeBits | peek].
  // Entry layout, chosen so that a decoder's dependency chain per token is short:
  //   bits 0..5    codeword length, in [1, kCodeBits] (a shift count as is)
  //   bits 6..10   bytes the token stands for: 0 end-of-key, 1 a literal, 2..16 a symbol
  //   bits 12..16  the cluster that applies after the token (that of its last byte), so that
  //                entry & kNextTableMask is the offset of the next token's table
  //   bits 17..31  the token
  // Every entry is set: the codes are complete.
  static constexpr uint32_t kNextTableMask = 0x1F000;
  const uint32_t* TokenTables() const { return token_tables_.data(); }
  // Decoding table of shared-prefix lengths: bits 0..3 codeword length, bits 4..11 the value.
  const uint16_t* SharedTable() const { return shared_table_.data(); }
  // The bytes of `token`, zero-padded to 16 (a literal's byte, nothing for end-of-key), so a
  // decoder can copy 16 bytes and advance by the token's length.
  const char* TokenBytes(uint32_t token) const { return token_bytes_.data() + 16 * size_t{token}; }

 private:
  UrlBlockModel(std::vector<std::string> symbols, int cluster_count,
                std::array<uint8_t, kContexts> clusters, std::vector<uint8_t> token_lengths,
                std::vector<uint8_t> shared_lengths);
  // Fills cluster `cluster`'s decoding table (TokenTables) from its code lengths.
  void BuildTokenTable(int cluster);

  // The encoder, once built; held through a pointer so that the model stays movable.
  struct LazyEncoder {
    std::once_flag once;
    std::atomic<bool> built{false};
    Encoder encoder;
  };

  std::vector<std::string> symbols_;
  int cluster_count_ = 1;
  size_t token_count_ = 0;                            // 257 + symbols_.size().
  std::array<uint8_t, kContexts> context_cluster_{};  // Context → cluster.
  std::vector<uint8_t> token_lengths_;                // [cluster × token_count_ + token], bits.
  std::vector<uint8_t> shared_lengths_;               // [0, 256), bits.
  std::unique_ptr<LazyEncoder> lazy_encoder_ = std::make_unique<LazyEncoder>();
  std::vector<uint32_t> token_info_;    // Per token, its entry's bits 6..31 (TokenTables).
  ZeroedArray<uint32_t> token_tables_;  // cluster_count_ × 2^kCodeBits entries.
  std::vector<uint16_t> shared_table_;  // 2^kCodeBits entries.
  std::vector<char> token_bytes_;       // 16 bytes per token.
};

}  // namespace crawldb::codecs
