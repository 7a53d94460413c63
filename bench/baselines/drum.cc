#include "bench/baselines/drum.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <utility>

#include "absl/strings/str_cat.h"
#include "extension/common/status.h"

namespace crawldb::bench {
namespace {

absl::Status IoError(const char* what, const std::string& path, int error) {
  return absl::InternalError(
      absl::StrCat("drum: cannot ", what, " '", path,
                   "': ", error == 0 ? "unexpected end of file" : std::strerror(error)));
}

absl::Status WriteAt(int fd, const void* data, size_t bytes, uint64_t offset,
                     const std::string& path) {
  const char* from = static_cast<const char*>(data);
  while (bytes > 0) {
    ssize_t done = pwrite(fd, from, bytes, static_cast<off_t>(offset));
    if (done < 0 && errno == EINTR) continue;
    if (done <= 0) return IoError("write", path, done < 0 ? errno : ENOSPC);
    from += done;
    bytes -= static_cast<size_t>(done);
    offset += static_cast<uint64_t>(done);
  }
  return absl::OkStatus();
}

absl::Status ReadAt(int fd, void* data, size_t bytes, uint64_t offset, const std::string& path) {
  char* to = static_cast<char*>(data);
  while (bytes > 0) {
    ssize_t done = pread(fd, to, bytes, static_cast<off_t>(offset));
    if (done < 0 && errno == EINTR) continue;
    if (done <= 0) return IoError("read", path, done < 0 ? errno : 0);
    to += done;
    bytes -= static_cast<size_t>(done);
    offset += static_cast<uint64_t>(done);
  }
  return absl::OkStatus();
}

absl::StatusOr<int> OpenFile(const std::string& path, int flags) {
  int fd = open(path.c_str(), flags | O_CLOEXEC, 0600);
  if (fd < 0) return IoError("open", path, errno);
  return fd;
}

// The repository read in order through a buffer; the first error stops it and is kept.
class KeyReader {
 public:
  KeyReader(int fd, std::string path, uint64_t keys, absl::Span<uint64_t> buffer)
      : fd_(fd), path_(std::move(path)), left_(keys), buffer_(buffer) {}

  // The next key, not consumed; false at the end or after an error.
  bool Peek(uint64_t* key) {
    if (next_ == end_ && !Refill()) return false;
    *key = buffer_[next_];
    return true;
  }
  void Skip() { ++next_; }
  uint64_t bytes_read() const { return bytes_read_; }
  const absl::Status& status() const { return status_; }

 private:
  bool Refill() {
    if (left_ == 0 || !status_.ok()) return false;
    const size_t count = static_cast<size_t>(std::min<uint64_t>(left_, buffer_.size()));
    status_ = ReadAt(fd_, buffer_.data(), count * Drum::kKeyBytes, bytes_read_, path_);
    if (!status_.ok()) return false;
    bytes_read_ += count * Drum::kKeyBytes;
    left_ -= count;
    next_ = 0;
    end_ = count;
    return true;
  }

  int fd_;
  std::string path_;
  uint64_t left_;  // keys not yet in the buffer
  absl::Span<uint64_t> buffer_;
  size_t next_ = 0, end_ = 0;
  uint64_t bytes_read_ = 0;
  absl::Status status_;
};

// The new repository written in order through a buffer; the first error is kept.
class KeyWriter {
 public:
  KeyWriter(int fd, std::string path, absl::Span<uint64_t> buffer)
      : fd_(fd), path_(std::move(path)), buffer_(buffer) {}

  void Put(uint64_t key) {
    buffer_[used_++] = key;
    if (used_ == buffer_.size()) Drain();
  }
  absl::Status Finish() {
    Drain();
    return status_;
  }
  uint64_t keys() const { return keys_; }
  uint64_t bytes_written() const { return keys_ * Drum::kKeyBytes; }

 private:
  void Drain() {
    if (status_.ok() && used_ > 0) {
      status_ =
          WriteAt(fd_, buffer_.data(), used_ * Drum::kKeyBytes, keys_ * Drum::kKeyBytes, path_);
      keys_ += used_;
    }
    used_ = 0;
  }

  int fd_;
  std::string path_;
  absl::Span<uint64_t> buffer_;
  size_t used_ = 0;
  uint64_t keys_ = 0;  // keys written to the file
  absl::Status status_;
};

// A file descriptor closed when it goes out of scope.
class ScopedFd {
 public:
  explicit ScopedFd(int fd) : fd_(fd) {}
  ~ScopedFd() { close(fd_); }
  ScopedFd(const ScopedFd&) = delete;
  ScopedFd& operator=(const ScopedFd&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<Drum>> Drum::Open(const std::string& directory, size_t ram_bytes,
                                                 size_t buckets) {
  if (buckets == 0 || ram_bytes / buckets < 4 * kKeyBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("drum: ", ram_bytes, " bytes of RAM cannot hold ", buckets,
                     " buckets; give at least 32 bytes per bucket and one bucket"));
  }
  const size_t array_keys = ram_bytes / (4 * buckets) / kKeyBytes;
  const size_t sort_keys = ram_bytes / (2 * (kKeyBytes + kPositionBytes));
  const size_t bucket_keys = std::max<size_t>(1, sort_keys / array_keys) * array_keys;
  if (bucket_keys > UINT32_MAX) {
    return absl::InvalidArgumentError(
        absl::StrCat("drum: ", ram_bytes, " bytes of RAM make buckets of more than 2^32 keys"));
  }
  const std::string pattern = (std::filesystem::path(directory) / "drum-XXXXXX").string();
  std::string folder = pattern;
  if (mkdtemp(folder.data()) == nullptr) return IoError("make the folder", pattern, errno);
  std::unique_ptr<Drum> drum(new Drum(std::move(folder), buckets, array_keys, bucket_keys));
  CRAWLDB_RETURN_IF_ERROR(drum->MakeFiles());
  return drum;
}

Drum::Drum(std::string folder, size_t buckets, size_t array_keys, size_t bucket_keys)
    : folder_(std::move(folder)),
      array_keys_(array_keys),
      bucket_keys_(bucket_keys),
      buckets_(buckets),
      key_arrays_(buckets * array_keys),
      aux_arrays_(buckets * array_keys),
      sort_buffer_(bucket_keys),
      new_flags_((bucket_keys + 63) / 64),
      stream_buffers_(3 * array_keys) {}

Drum::~Drum() {
  for (Bucket& bucket : buckets_) {
    if (bucket.keys_fd >= 0) close(bucket.keys_fd);
    if (bucket.aux_fd >= 0) close(bucket.aux_fd);
  }
  std::error_code ignored;
  std::filesystem::remove_all(folder_, ignored);
}

std::string Drum::BucketPath(size_t bucket, const char* suffix) const {
  return absl::StrCat(folder_, "/bucket-", bucket, suffix);
}

std::string Drum::RepositoryPath() const { return absl::StrCat(folder_, "/repository"); }

absl::Status Drum::MakeFiles() {
  const off_t length = static_cast<off_t>(bucket_keys_ * kKeyBytes);
  for (size_t i = 0; i < buckets_.size(); ++i) {
    for (auto [fd, suffix] :
         {std::pair{&buckets_[i].keys_fd, ".keys"}, std::pair{&buckets_[i].aux_fd, ".aux"}}) {
      const std::string path = BucketPath(i, suffix);
      CRAWLDB_ASSIGN_OR_RETURN(*fd, OpenFile(path, O_RDWR | O_CREAT | O_EXCL));
      if (int error = posix_fallocate(*fd, 0, length); error != 0) {
        return IoError("preallocate", path, error);
      }
    }
  }
  CRAWLDB_ASSIGN_OR_RETURN(int repository, OpenFile(RepositoryPath(), O_WRONLY | O_CREAT));
  close(repository);
  return absl::OkStatus();
}

absl::Status Drum::CheckUpdate(absl::Span<const DrumItem> items, std::vector<uint64_t>* unique) {
  if (!failed_.ok()) return failed_;
  const size_t k = buckets_.size();
  for (const DrumItem& item : items) {
    const size_t b = static_cast<size_t>((static_cast<unsigned __int128>(item.key) * k) >> 64);
    Bucket& bucket = buckets_[b];
    const size_t slot = b * array_keys_ + bucket.in_memory++;
    key_arrays_[slot] = item.key;
    aux_arrays_[slot] = item.aux;
    if (bucket.in_memory == array_keys_) {
      failed_ = Spill(b);
      if (failed_.ok() && bucket.on_disk == bucket_keys_) failed_ = MergeAll(unique);
      if (!failed_.ok()) return failed_;
    }
  }
  return absl::OkStatus();
}

absl::Status Drum::Flush(std::vector<uint64_t>* unique) {
  if (!failed_.ok()) return failed_;
  if (std::any_of(buckets_.begin(), buckets_.end(),
                  [](const Bucket& b) { return b.on_disk + b.in_memory > 0; })) {
    failed_ = MergeAll(unique);
  }
  return failed_;
}

absl::Status Drum::Spill(size_t b) {
  Bucket& bucket = buckets_[b];
  const size_t bytes = bucket.in_memory * kKeyBytes;
  const uint64_t offset = bucket.on_disk * kKeyBytes;
  const size_t first = b * array_keys_;
  CRAWLDB_RETURN_IF_ERROR(
      WriteAt(bucket.keys_fd, &key_arrays_[first], bytes, offset, BucketPath(b, ".keys")));
  CRAWLDB_RETURN_IF_ERROR(
      WriteAt(bucket.aux_fd, &aux_arrays_[first], bytes, offset, BucketPath(b, ".aux")));
  stats_.bytes_written += 2 * bytes;
  bucket.on_disk += bucket.in_memory;
  bucket.in_memory = 0;
  return absl::OkStatus();
}

absl::Status Drum::LoadBucket(size_t b, size_t* count) {
  const Bucket& bucket = buckets_[b];
  const absl::Span<uint64_t> chunk(&stream_buffers_[2 * array_keys_], array_keys_);
  const std::string path = BucketPath(b, ".keys");
  size_t n = 0;
  while (n < bucket.on_disk) {
    const size_t take = std::min(chunk.size(), bucket.on_disk - n);
    CRAWLDB_RETURN_IF_ERROR(
        ReadAt(bucket.keys_fd, chunk.data(), take * kKeyBytes, n * kKeyBytes, path));
    for (size_t i = 0; i < take; ++i, ++n) sort_buffer_[n] = {chunk[i], static_cast<uint32_t>(n)};
  }
  stats_.bytes_read += bucket.on_disk * kKeyBytes;
  const uint64_t* array = &key_arrays_[b * array_keys_];
  for (size_t i = 0; i < bucket.in_memory; ++i, ++n) {
    sort_buffer_[n] = {array[i], static_cast<uint32_t>(n)};
  }
  *count = n;
  return absl::OkStatus();
}

absl::Status Drum::Dispatch(size_t b, size_t count, std::vector<uint64_t>* unique) {
  Bucket& bucket = buckets_[b];
  const absl::Span<uint64_t> chunk(&stream_buffers_[2 * array_keys_], array_keys_);
  const std::string path = BucketPath(b, ".aux");
  auto is_new = [this](size_t position) {
    return (new_flags_[position / 64] >> position % 64) & 1;
  };
  size_t n = 0;
  while (n < bucket.on_disk) {
    const size_t take = std::min(chunk.size(), bucket.on_disk - n);
    CRAWLDB_RETURN_IF_ERROR(
        ReadAt(bucket.aux_fd, chunk.data(), take * kKeyBytes, n * kKeyBytes, path));
    for (size_t i = 0; i < take; ++i, ++n) {
      if (is_new(n)) unique->push_back(chunk[i]);
    }
  }
  stats_.bytes_read += bucket.on_disk * kKeyBytes;
  const uint64_t* array = &aux_arrays_[b * array_keys_];
  for (; n < count; ++n) {
    if (is_new(n)) unique->push_back(array[n - bucket.on_disk]);
  }
  bucket.on_disk = 0;
  bucket.in_memory = 0;
  return absl::OkStatus();
}

absl::Status Drum::MergeAll(std::vector<uint64_t>* unique) {
  const std::string old_path = RepositoryPath();
  const std::string new_path = absl::StrCat(old_path, ".next");
  CRAWLDB_ASSIGN_OR_RETURN(int old_fd, OpenFile(old_path, O_RDONLY));
  ScopedFd old_file(old_fd);
  CRAWLDB_ASSIGN_OR_RETURN(int new_fd, OpenFile(new_path, O_WRONLY | O_CREAT | O_TRUNC));
  ScopedFd new_file(new_fd);
  KeyReader repository(old_fd, old_path, repository_keys_,
                       absl::Span<uint64_t>(&stream_buffers_[0], array_keys_));
  KeyWriter next(new_fd, new_path,
                 absl::Span<uint64_t>(&stream_buffers_[array_keys_], array_keys_));

  for (size_t b = 0; b < buckets_.size(); ++b) {
    size_t count = 0;
    CRAWLDB_RETURN_IF_ERROR(LoadBucket(b, &count));
    SortEntry* entries = sort_buffer_.data();
    std::sort(entries, entries + count, [](const SortEntry& x, const SortEntry& y) {
      return x.key < y.key || (x.key == y.key && x.position < y.position);
    });
    std::fill(new_flags_.begin(), new_flags_.begin() + (count + 63) / 64, 0);
    uint64_t stored = 0;
    for (size_t i = 0; i < count; ++i) {
      const uint64_t key = entries[i].key;
      if (i > 0 && entries[i - 1].key == key) continue;  // a later arrival of the same key
      while (repository.Peek(&stored) && stored < key) {
        next.Put(stored);
        repository.Skip();
      }
      if (repository.Peek(&stored) && stored == key) continue;  // in the repository
      next.Put(key);
      const uint32_t position = entries[i].position;
      new_flags_[position / 64] |= uint64_t{1} << (position % 64);
    }
    CRAWLDB_RETURN_IF_ERROR(repository.status());
    CRAWLDB_RETURN_IF_ERROR(Dispatch(b, count, unique));
  }
  for (uint64_t stored = 0; repository.Peek(&stored); repository.Skip()) next.Put(stored);
  CRAWLDB_RETURN_IF_ERROR(repository.status());
  CRAWLDB_RETURN_IF_ERROR(next.Finish());
  if (std::rename(new_path.c_str(), old_path.c_str()) != 0) {
    return IoError("rename to", old_path, errno);
  }
  repository_keys_ = next.keys();
  stats_.bytes_read += repository.bytes_read();
  stats_.bytes_written += next.bytes_written();
  ++stats_.merges;
  return absl::OkStatus();
}

}  // namespace crawldb::bench
