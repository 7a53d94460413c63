#include "extension/links/delta_runs.h"

#include <utility>

#include "extension/containers/blocked_bloom.h"

namespace crawldb::links {
namespace {

codecs::ArcRun MergeRuns(const codecs::ArcRun& a, const codecs::ArcRun& b) {
  codecs::ArcRun::Builder merged;
  codecs::ArcRun::Reader read_a(a), read_b(b);
  uint64_t key_a = 0, key_b = 0;
  bool more_a = read_a.Next(&key_a), more_b = read_b.Next(&key_b);
  while (more_a && more_b) {
    if (key_a < key_b) {
      merged.Append(key_a);
      more_a = read_a.Next(&key_a);
    } else {
      merged.Append(key_b);
      more_b = read_b.Next(&key_b);
    }
  }
  for (; more_a; more_a = read_a.Next(&key_a)) merged.Append(key_a);
  for (; more_b; more_b = read_b.Next(&key_b)) merged.Append(key_b);
  return std::move(merged).Finish();
}

}  // namespace

uint64_t MixArcKey(uint64_t key) {
  key = (key ^ (key >> 30)) * 0xbf58476d1ce4e5b9u;
  key = (key ^ (key >> 27)) * 0x94d049bb133111ebu;
  return key ^ (key >> 31);
}

void DeltaRuns::Add(codecs::ArcRun run) {
  if (run.size() == 0) return;
  size_ += run.size();
  if (filtered_) {
    if (size_ > filter_.size() * 8) {
      runs_.push_back(std::move(run));
      RebuildFilter();
    } else {
      codecs::ArcRun::Reader read(run);
      for (uint64_t key = 0; read.Next(&key);) FilterInsert(key);
      runs_.push_back(std::move(run));
    }
  } else {
    runs_.push_back(std::move(run));
  }
  MergeTail();
}

void DeltaRuns::MergeTail() {
  while (runs_.size() >= 2 && runs_[runs_.size() - 2].size() <= 2 * runs_.back().size()) {
    codecs::ArcRun merged = MergeRuns(runs_[runs_.size() - 2], runs_.back());
    runs_.pop_back();
    runs_.back() = std::move(merged);
  }
}

void DeltaRuns::Remove(absl::FunctionRef<bool(uint64_t)> removed) {
  std::vector<codecs::ArcRun> kept;
  for (const codecs::ArcRun& run : runs_) {
    codecs::ArcRun::Builder builder;
    codecs::ArcRun::Reader read(run);
    for (uint64_t key = 0; read.Next(&key);) {
      if (!removed(key)) builder.Append(key);
    }
    codecs::ArcRun rewritten = std::move(builder).Finish();
    if (rewritten.size() > 0) kept.push_back(std::move(rewritten));
  }
  runs_.clear();
  size_ = 0;
  for (codecs::ArcRun& run : kept) {
    size_ += run.size();
    runs_.push_back(std::move(run));
    MergeTail();
  }
  if (filtered_) RebuildFilter();
}

bool DeltaRuns::Contains(uint64_t key) const {
  if (size_ == 0 || (filtered_ && !FilterMayContain(key))) return false;
  for (const codecs::ArcRun& run : runs_) {
    if (run.Contains(key)) return true;
  }
  return false;
}

void DeltaRuns::AppendMinors(uint32_t major, std::vector<uint32_t>* minors) const {
  for (const codecs::ArcRun& run : runs_) run.AppendMinors(major, minors);
}

size_t DeltaRuns::CountMinors(uint32_t major) const {
  size_t count = 0;
  for (const codecs::ArcRun& run : runs_) count += run.CountMinors(major);
  return count;
}

void DeltaRuns::ForEachKey(absl::FunctionRef<void(uint64_t)> visit) const {
  for (const codecs::ArcRun& run : runs_) {
    codecs::ArcRun::Reader read(run);
    for (uint64_t key = 0; read.Next(&key);) visit(key);
  }
}

void DeltaRuns::Clear() {
  runs_.clear();
  size_ = 0;
  filter_.clear();
  filter_.shrink_to_fit();
}

size_t DeltaRuns::MemoryBytes() const {
  size_t bytes = runs_.capacity() * sizeof(codecs::ArcRun) + filter_.capacity() * sizeof(uint64_t);
  for (const codecs::ArcRun& run : runs_) bytes += run.MemoryBytes();
  return bytes;
}

void DeltaRuns::FilterInsert(uint64_t key) {
  const uint64_t hash = MixArcKey(key);
  filter_[BloomWord(hash, filter_.size())] |= BloomBits(hash);
}

bool DeltaRuns::FilterMayContain(uint64_t key) const {
  const uint64_t hash = MixArcKey(key);
  const uint64_t bits = BloomBits(hash);
  return (filter_[BloomWord(hash, filter_.size())] & bits) == bits;
}

void DeltaRuns::RebuildFilter() {
  filter_.assign((2 * size_ + 7) / 8, 0);
  ForEachKey([&](uint64_t key) { FilterInsert(key); });
}

}  // namespace crawldb::links
