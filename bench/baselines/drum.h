// DRUM, the Disk Repository with Update Management of IRLbot (H.-T. Lee, D. Leonard, X. Wang and
// D. Loguinov, "IRLbot: Scaling to 6 Billion Pages and Beyond", 2008), as paper 003 describes it
// in §4 (../shared/seeds/003_c2ee6f4a4749ab60.txt) and measures VEUNIQ against: the baseline of
// bench/uniqueness.sh. SQLite-free; only the check+update operation, the one URL uniqueness needs.
//
// Algorithm. A key is a URL's 64-bit fingerprint (IRLbot's H = 8 bytes); the auxiliary of an item
// is the caller's 64-bit index for it (IRLbot's is the URL text), handed back when the item is
// found new. Keys have no value: the repository is a set.
//   1. CheckUpdate puts each item in one of k buckets by its key: bucket ⌊key · k / 2^64⌋, so
//      bucket i holds the i-th of k equal key ranges and the buckets in order cover the keys in
//      order. Each bucket has two RAM arrays of M bytes, one for keys and one for auxiliaries.
//   2. When a bucket's arrays are full, they are appended to its two disk files, the KV bucket and
//      the A bucket.
//   3. When a KV bucket reaches r bytes on disk, all k buckets are merged with the repository
//      (and Flush merges them whenever asked): for each bucket in order, its keys (the KV bucket,
//      then what its array holds) are loaded into the sort buffer with their arrival positions
//      (P = 4 bytes each), sorted by (key, position), and merged in one sequential pass with the
//      part of the sorted repository file that covers the bucket's key range. A key not in the
//      repository is new at its first arrival only (later arrivals in the merge are duplicates)
//      and is written into the new repository in key order; a key in it is a duplicate. The
//      bucket's items are then visited again in arrival order — the A bucket streamed, then the
//      aux array — and the auxiliary of every new item is appended to the caller's vector. (IRLbot
//      re-sorts the buffer to its arrival order for this; a bit per position, set by the merge,
//      gives the same order without the second sort.) The repository is read and rewritten once
//      per merge, as the paper's cost model counts it (2UH bytes per merge).
//
// Memory, for a RAM budget R and k buckets (the paper's Table 1 names):
//   M = R / (4k) bytes per array, rounded down to whole keys: 2k arrays hold R / 2;
//   r = R·H / (2(H + P)) = R / 3 bytes of keys per KV bucket, rounded down to whole arrays
//       (at least one): the sort buffer of r / H entries of H + P = 12 bytes holds R / 2;
//   plus r / H bits of new-item flags and three M-byte buffers that stream the repository in and
//   out and the A bucket in: R + R/(8·24) + 3M in all. Paper 003 takes k = R / (4M) with
//   M = 256,000 bytes: R = 64 MiB and k = 64 give M = 256 KiB, r = 21.25 MiB.
//
// Disk, under a fresh folder drum-XXXXXX that Open makes in `directory` and the destructor removes
// with everything in it (native byte order; nothing survives the object):
//   bucket-<i>.keys   KV bucket i: up to r bytes, uint64 keys in arrival order; preallocated to r
//                     bytes at Open (posix_fallocate), as the paper asks; what is valid is counted
//                     in memory, not in the file's length
//   bucket-<i>.aux    A bucket i: the same items' auxiliaries (uint64), same order, same rules
//   repository        the set: uint64 keys ascending, no duplicates, nothing else
//   repository.next   the set being written by a merge; renamed over `repository` at its end
// The buckets take 2kr ≈ 2kR/3 bytes of disk (paper 003's D), the repository 8 bytes per key.
//
// Results are asynchronous, as in IRLbot: an item is answered by the merge that takes its bucket,
// during a later CheckUpdate or at Flush. Call Flush to have every item passed so far answered
// (paper 003's crawl simulation does so once per crawl cycle). Every item is answered exactly
// once; exactly the first arrival of each key never seen before is reported new, whether its
// duplicates came in the same call, an earlier call or a later one merged together with it.
// Answers come in merge order: bucket by bucket, arrival order within a bucket — not call order.
//
// Errors: every I/O failure returns a status "drum: cannot <what> '<path>': <strerror>"; after one,
// the object answers every call with the same status and should be destroyed.
// Not thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace crawldb::bench {

struct DrumItem {
  uint64_t key;  // the URL's 64-bit fingerprint
  uint64_t aux;  // the caller's index of the item, appended to `unique` if the item is new
};

// Disk traffic and merges since Open.
struct DrumStats {
  uint64_t merges = 0;         // repository passes (count)
  uint64_t bytes_read = 0;     // buckets and repository read back (bytes)
  uint64_t bytes_written = 0;  // buckets and repository written (bytes)
};

class Drum {
 public:
  static constexpr size_t kKeyBytes = 8;       // H: one key
  static constexpr size_t kPositionBytes = 4;  // P: one arrival position in the sort buffer

  // A DRUM with a RAM budget of `ram_bytes` (R) split into `buckets` (k) buckets, its files in a
  // new folder under `directory` (which must exist). InvalidArgument unless k ≥ 1 and R ≥ 32k
  // (one key per array); the I/O error if the folder or the files cannot be made.
  static absl::StatusOr<std::unique_ptr<Drum>> Open(const std::string& directory, size_t ram_bytes,
                                                    size_t buckets);
  ~Drum();
  Drum(const Drum&) = delete;
  Drum& operator=(const Drum&) = delete;

  // Check+update: takes `items` (any number, including none), merging every bucket into the
  // repository each time a KV bucket fills; appends to *unique the aux of every item those merges
  // find new (items of this call and of earlier ones).
  absl::Status CheckUpdate(absl::Span<const DrumItem> items, std::vector<uint64_t>* unique);

  // Merges every bucket that holds an item, if any does, appending the new items' aux to *unique:
  // on return every item passed so far has been answered.
  absl::Status Flush(std::vector<uint64_t>* unique);

  uint64_t size() const { return repository_keys_; }  // keys in the repository (count)
  const DrumStats& stats() const { return stats_; }
  size_t array_bytes() const { return array_keys_ * kKeyBytes; }    // M
  size_t bucket_bytes() const { return bucket_keys_ * kKeyBytes; }  // r
  const std::string& folder() const { return folder_; }

 private:
  struct Bucket {
    int keys_fd = -1;      // bucket-<i>.keys
    int aux_fd = -1;       // bucket-<i>.aux
    size_t on_disk = 0;    // items in the two files (count)
    size_t in_memory = 0;  // items in the two arrays (count)
  };
#pragma pack(push, 1)
  struct SortEntry {  // one key of the bucket being merged: H + P = 12 bytes
    uint64_t key;
    uint32_t position;  // arrival order in the bucket (0-based)
  };
#pragma pack(pop)
  static_assert(sizeof(SortEntry) == kKeyBytes + kPositionBytes);

  Drum(std::string folder, size_t buckets, size_t array_keys, size_t bucket_keys);
  absl::Status MakeFiles();
  absl::Status Spill(size_t bucket);
  absl::Status MergeAll(std::vector<uint64_t>* unique);
  absl::Status LoadBucket(size_t bucket, size_t* count);
  absl::Status Dispatch(size_t bucket, size_t count, std::vector<uint64_t>* unique);
  std::string BucketPath(size_t bucket, const char* suffix) const;
  std::string RepositoryPath() const;

  const std::string folder_;
  const size_t array_keys_;   // M / H
  const size_t bucket_keys_;  // r / H
  std::vector<Bucket> buckets_;
  std::vector<uint64_t> key_arrays_;    // k arrays of array_keys_ keys, bucket i at i·array_keys_
  std::vector<uint64_t> aux_arrays_;    // the same for auxiliaries
  std::vector<SortEntry> sort_buffer_;  // bucket_keys_ entries
  std::vector<uint64_t> new_flags_;     // a bit per sort-buffer position
  std::vector<uint64_t> stream_buffers_;  // three M-byte buffers: repository in, out, A bucket
  uint64_t repository_keys_ = 0;
  DrumStats stats_;
  absl::Status failed_;  // the first I/O error; every later call returns it
};

}  // namespace crawldb::bench
