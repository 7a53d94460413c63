#include "codecs/list_starts.h"

#include <algorithm>
#include <string>

#include "absl/strings/str_cat.h"

namespace crawldb::codecs {
namespace {

absl::Status Corrupt(const std::string& what) {
  return absl::DataLossError(absl::StrCat("list_starts: ", what));
}

uint64_t RecordBytes(uint32_t width, uint32_t entries_per_record) {
  return 4 + uint64_t{entries_per_record} * width / 8;
}

uint64_t BodyBytes(uint32_t node_count, uint32_t width, uint32_t entries_per_record) {
  if (width == 32) return 4 * (uint64_t{node_count} + 1);
  const uint64_t records = (uint64_t{node_count} + entries_per_record - 1) / entries_per_record;
  return records * RecordBytes(width, entries_per_record);
}

uint64_t Escape(uint32_t width) { return (uint64_t{1} << width) - 1; }

}  // namespace

absl::StatusOr<ListStarts> ListStarts::Build(absl::Span<const uint32_t> lengths,
                                             absl::Span<const Partition> partitions) {
  if (partitions.empty() || partitions.size() > kMaxPartitions) {
    return absl::InvalidArgumentError(absl::StrCat(
        "list_starts: ", partitions.size(), " partitions; 1 to ", kMaxPartitions, " are possible"));
  }
  uint64_t nodes = 0;
  for (const Partition& partition : partitions) {
    if (partition.width != 8 && partition.width != 16 && partition.width != 32) {
      return absl::InvalidArgumentError(
          absl::StrCat("list_starts: width ", partition.width, "; use 8, 16 or 32"));
    }
    nodes += partition.node_count;
  }
  if (nodes != lengths.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("list_starts: the partitions hold ", nodes, " nodes, not ", lengths.size()));
  }
  uint64_t total = 0;
  for (uint32_t length : lengths) total += length;
  if (total > UINT32_MAX) {
    return absl::InvalidArgumentError(absl::StrCat("list_starts: a stream of ", total,
                                                   "; 32-bit starts address fewer than 2^32"));
  }

  const uint32_t p = kEntriesPerRecord;
  std::vector<uint8_t> bytes;
  bytes.push_back(static_cast<uint8_t>(p));
  std::vector<uint8_t> exceptions;
  uint32_t exception_count = 0;
  std::vector<uint8_t> body;
  uint32_t node = 0;
  uint32_t position = 0;  // Below 2^32 as checked.
  for (const Partition& partition : partitions) {
    AppendLittleEndian(partition.node_count, &body);
    body.push_back(static_cast<uint8_t>(partition.width));
    const uint32_t end_node = node + partition.node_count;
    if (partition.width == 32) {
      for (; node < end_node; ++node) {
        AppendLittleEndian(position, &body);
        position += lengths[node];
      }
      AppendLittleEndian(position, &body);
      continue;
    }
    const uint64_t escape = Escape(partition.width);
    for (uint32_t first = node; first < end_node; first += p) {
      AppendLittleEndian(position, &body);
      for (uint32_t i = 0; i < p; ++i) {
        uint64_t field = 0;
        if (first + i < end_node) {
          const uint32_t length = lengths[first + i];
          field = std::min<uint64_t>(length, escape);
          if (field == escape) {
            AppendLittleEndian(first + i, &exceptions);
            AppendLittleEndian(length, &exceptions);
            ++exception_count;
          }
          position += length;
        }
        if (partition.width == 8) {
          body.push_back(static_cast<uint8_t>(field));
        } else {
          AppendLittleEndian(static_cast<uint16_t>(field), &body);
        }
      }
    }
    node = end_node;
  }
  AppendLittleEndian(exception_count, &bytes);
  bytes.insert(bytes.end(), exceptions.begin(), exceptions.end());
  bytes.push_back(static_cast<uint8_t>(partitions.size()));
  bytes.insert(bytes.end(), body.begin(), body.end());

  // One reading of the bytes, the checking one, sets up every starts object.
  LittleEndianReader reader(bytes);
  absl::StatusOr<ListStarts> starts = Parse(&reader, static_cast<uint32_t>(lengths.size()), total);
  if (!starts.ok()) {
    return absl::InternalError(
        absl::StrCat("list_starts: built starts do not parse: ", starts.status().message()));
  }
  return starts;
}

absl::StatusOr<ListStarts> ListStarts::BuildOnePartition(absl::Span<const uint32_t> lengths) {
  const uint64_t n = lengths.size();
  const uint64_t records = (n + kEntriesPerRecord - 1) / kEntriesPerRecord;
  uint32_t best_width = 32;
  uint64_t best_bits = 32 * (n + 1);
  for (uint32_t width : {8u, 16u}) {
    uint64_t exceptions = 0;
    for (uint32_t length : lengths) exceptions += length >= Escape(width) ? 1 : 0;
    const uint64_t bits = records * 8 * RecordBytes(width, kEntriesPerRecord) + 64 * exceptions;
    if (bits < best_bits) {
      best_bits = bits;
      best_width = width;
    }
  }
  const Partition partition = {static_cast<uint32_t>(n), best_width};
  return Build(lengths, absl::MakeConstSpan(&partition, 1));
}

absl::Status ListStarts::ParseLayout(absl::Span<const uint8_t> bytes, uint32_t node_count,
                                     uint64_t* size) {
  // Each read: make the bytes readable, then check they are there.
  uint64_t at = 0;
  bool fetch_failed = false;
  const auto take = [&](uint64_t count) {
    if (bytes.size() - at < count) return false;
    if (pages_ != nullptr && !pages_->Ensure(offset_ + at, offset_ + at + count)) {
      fetch_failed = true;
      return false;
    }
    return true;
  };
  const auto failed = [&](const std::string& what) {
    return fetch_failed ? pages_->failure() : Corrupt(what);
  };
  if (!take(5)) return failed("truncated header");
  const uint8_t p = bytes[0];
  const uint32_t exception_count = LoadLittleEndian<uint32_t>(bytes.data() + 1);
  at = 5;
  if (p < 1 || p > 64) return Corrupt(absl::StrCat("P = ", int{p}, "; expected 1 to 64"));
  entries_per_record_ = p;
  if (exception_count > node_count || (bytes.size() - at) / 8 < exception_count) {
    return Corrupt(absl::StrCat(exception_count, " exceptions do not fit"));
  }
  if (!take(uint64_t{8} * exception_count)) return failed("truncated exceptions");
  exception_count_ = exception_count;
  exceptions_.assign(bytes.data() + at, bytes.data() + at + uint64_t{8} * exception_count);
  at += uint64_t{8} * exception_count;
  // Deferred starts check them with the rest (CheckBodies matches them, in order, to the
  // escaped lengths), not here: on cnr-2000 this loop was half of a paged graph's load.
  for (uint32_t i = 0; checked_ && i < exception_count; ++i) {
    const uint32_t node = ExceptionNode(i);
    if (node >= node_count || (i > 0 && node <= ExceptionNode(i - 1))) {
      return Corrupt(
          absl::StrCat("exception ", i, " names node ", node, ", out of order or range"));
    }
  }
  if (!take(1)) return failed("truncated partition count");
  const uint8_t partition_count = bytes[at++];
  if (partition_count < 1 || partition_count > kMaxPartitions) {
    return Corrupt(
        absl::StrCat(int{partition_count}, " partitions; expected 1 to ", kMaxPartitions));
  }
  uint64_t first_node = 0;
  for (uint8_t i = 0; i < partition_count; ++i) {
    if (!take(5)) return failed("truncated partition header");
    const uint32_t count = LoadLittleEndian<uint32_t>(bytes.data() + at);
    const uint8_t width = bytes[at + 4];
    at += 5;
    if (width != 8 && width != 16 && width != 32) {
      return Corrupt(absl::StrCat("partition ", int{i}, " has width ", int{width}));
    }
    if (count > node_count - first_node) {
      return Corrupt(absl::StrCat("partitions hold more than ", node_count, " nodes"));
    }
    const uint64_t body = BodyBytes(count, width, p);
    if (bytes.size() - at < body) return Corrupt(absl::StrCat("truncated partition ", int{i}));
    partitions_.push_back({count, width});
    layouts_.push_back({static_cast<uint32_t>(first_node), count, width, at});
    at += body;
    first_node += count;
  }
  if (first_node != node_count) {
    return Corrupt(absl::StrCat("partitions hold ", first_node, " nodes, not ", node_count));
  }
  *size = at;
  return absl::OkStatus();
}

absl::Status ListStarts::CheckBodies() const {
  const uint8_t* bytes = data();
  const uint32_t p = entries_per_record_;
  // Paged starts whose parts may be dropped: each record's bytes made present as it is read.
  const bool paged = pages_ != nullptr && pages_->bounded();
  const auto readable = [&](const uint8_t* at, uint64_t count) {
    if (!paged) return true;
    pages_->BeginUse();
    return EnsureBytes(at, count);
  };
  uint64_t position = 0;  // Where the next partition starts.
  uint32_t next_exception = 0;
  for (const Layout& layout : layouts_) {
    const uint8_t* body = bytes + layout.offset;
    const uint64_t first_node = layout.first_node;
    const uint32_t count = layout.node_count;
    if (layout.width == 32) {
      uint64_t previous = position;
      for (uint64_t k = 0; k <= count; ++k) {
        if (!readable(body + 4 * k, 4)) return pages_->failure();
        const uint64_t begin = LoadLittleEndian<uint32_t>(body + 4 * k);
        if (k == 0 ? begin != position : begin < previous) {
          return Corrupt(
              absl::StrCat("begin ", begin, " of node ", first_node + k,
                           k == 0 ? " is not where the partition starts" : " decreases"));
        }
        previous = begin;
      }
      position = previous;
    } else {
      const uint64_t escape = Escape(layout.width);
      const uint64_t record_bytes = RecordBytes(layout.width, p);
      for (uint64_t r = 0; r * p < count; ++r) {
        const uint8_t* record = body + r * record_bytes;
        if (!readable(record, record_bytes)) return pages_->failure();
        const uint64_t base = LoadLittleEndian<uint32_t>(record);
        if (base != position) {
          return Corrupt(absl::StrCat("record base ", base, " of node ", first_node + r * p,
                                      "; its lists begin at ", position));
        }
        for (uint64_t k = 0; k < p; ++k) {
          const uint64_t field =
              layout.width == 8 ? record[4 + k] : LoadLittleEndian<uint16_t>(record + 4 + 2 * k);
          const uint64_t node = first_node + r * p + k;
          if (r * p + k >= count) {
            if (field != 0) return Corrupt("nonzero length past a partition's end");
          } else if (field != escape) {
            position += field;
          } else {
            if (next_exception == exception_count_ || ExceptionNode(next_exception) != node ||
                ExceptionLength(next_exception) < escape) {
              return Corrupt(absl::StrCat("escaped length of node ", node, " has no exception"));
            }
            position += ExceptionLength(next_exception++);
          }
        }
      }
    }
    if (position > total_) {
      return Corrupt(absl::StrCat("lists end at ", position, ", past the stream's ", total_));
    }
  }
  if (next_exception != exception_count_) {
    return Corrupt(absl::StrCat("exception for node ", ExceptionNode(next_exception),
                                " matches no escaped length"));
  }
  if (position != total_) {
    return Corrupt(absl::StrCat("lists end at ", position, ", not at the stream's end ", total_));
  }
  return absl::OkStatus();
}

absl::StatusOr<ListStarts> ListStarts::Parse(LittleEndianReader* in, uint32_t node_count,
                                             uint64_t total) {
  ListStarts starts;
  starts.total_ = total;
  if (absl::Status layout = starts.ParseLayout(in->Rest(), node_count, &starts.size_);
      !layout.ok()) {
    return layout;
  }
  absl::Span<const uint8_t> bytes;
  in->ReadBytes(starts.size_, &bytes);
  starts.bytes_.assign(bytes.begin(), bytes.end());
  if (absl::Status bodies = starts.CheckBodies(); !bodies.ok()) return bodies;
  return starts;
}

absl::StatusOr<ListStarts> ListStarts::ParseDeferred(const PagedBytes& pages, uint64_t offset,
                                                     uint32_t node_count, uint64_t total,
                                                     uint64_t* end) {
  ListStarts starts;
  starts.total_ = total;
  starts.pages_ = &pages;
  starts.offset_ = offset;
  starts.checked_ = false;
  if (absl::Status layout =
          starts.ParseLayout(pages.bytes().subspan(offset), node_count, &starts.size_);
      !layout.ok()) {
    return layout;
  }
  *end = offset + starts.size_;
  return starts;
}

absl::Status ListStarts::CheckRecords() const {
  if (checked_) return absl::OkStatus();
  if (!pages_->bounded() && !pages_->Ensure(offset_, offset_ + size_)) return pages_->failure();
  return CheckBodies();
}

void ListStarts::AppendTo(std::vector<uint8_t>* out) const {
  out->insert(out->end(), data(), data() + size_);
}

uint64_t ListStarts::Field(const uint8_t* record, uint32_t width, uint32_t index,
                           uint32_t node) const {
  const uint64_t field =
      width == 8 ? record[4 + index] : LoadLittleEndian<uint16_t>(record + 4 + 2 * index);
  if (field != Escape(width)) [[likely]] {
    return field;
  }
  // The first exception whose node is not below `node` (a binary search; unchecked exceptions
  // may be out of order, which finds none or another node's).
  uint32_t low = 0, high = exception_count_;
  while (low < high) {
    const uint32_t middle = low + (high - low) / 2;
    if (ExceptionNode(middle) < node) {
      low = middle + 1;
    } else {
      high = middle;
    }
  }
  // Checked starts matched every escape with its exception.
  if (!checked_ && (low == exception_count_ || ExceptionNode(low) != node)) return UINT64_MAX;
  return ExceptionLength(low);
}

ListStarts::Range ListStarts::Get(uint32_t node) const {
  const Layout& layout = Find(node);
  const uint32_t i = node - layout.first_node;
  const uint8_t* body = data() + layout.offset;
  if (layout.width == 32) {
    return {LoadLittleEndian<uint32_t>(body + 4 * uint64_t{i}),
            LoadLittleEndian<uint32_t>(body + 4 * (uint64_t{i} + 1))};
  }
  const uint32_t p = entries_per_record_;
  const uint8_t* record = body + (i / p) * RecordBytes(layout.width, p);
  Range range;
  RecordRange<false>(record, layout.width, i % p, node - i % p, &range);
  return range;
}

template <bool kChecked>
bool ListStarts::RecordRange(const uint8_t* record, uint32_t width, uint32_t j, uint32_t first,
                             Range* range) const {
  uint64_t begin = LoadLittleEndian<uint32_t>(record);
  for (uint32_t k = 0; k <= j; ++k) {
    const uint64_t field = Field(record, width, k, first + k);
    if constexpr (kChecked) {
      if (field == UINT64_MAX) return false;
    }
    if (k == j) {
      *range = {begin, begin + field};
      break;
    }
    begin += field;
  }
  return true;
}

bool ListStarts::GetChecked(uint32_t node, Range* range) const {
  if (checked_) {
    *range = Get(node);
    return true;
  }
  const Layout& layout = Find(node);
  const uint32_t i = node - layout.first_node;
  const uint64_t at = layout.width == 32
                          ? layout.offset + 4 * uint64_t{i}
                          : layout.offset + (i / entries_per_record_) *
                                                RecordBytes(layout.width, entries_per_record_);
  const uint64_t length = layout.width == 32 ? 8 : RecordBytes(layout.width, entries_per_record_);
  if (!pages_->Ensure(offset_ + at, offset_ + at + length)) return false;
  if (layout.width == 32) {
    *range = Get(node);
  } else if (const uint32_t j = i % entries_per_record_;
             !RecordRange<true>(data() + at, layout.width, j, node - j, range)) {
    return false;  // an escape without its exception
  }
  return range->begin <= range->end && range->end <= total_;
}

void ListStarts::LengthReader::EnterPartition() {
  const Layout& layout = starts_->layouts_[partition_++];
  left_in_partition_ = layout.node_count;
  left_in_record_ = 0;
  width_ = layout.width;
  escape_ = width_ == 32 ? 0 : Escape(width_);
  at_ = starts_->data() + layout.offset;
}

absl::StatusOr<ListStarts> BuildLinkStarts(absl::Span<const uint32_t> lengths,
                                           const std::optional<DegreePartitions>& partitions) {
  if (!partitions.has_value()) return ListStarts::BuildOnePartition(lengths);
  const uint64_t high_and_medium = uint64_t{partitions->high} + partitions->medium;
  if (high_and_medium > lengths.size()) {
    return absl::InvalidArgumentError(absl::StrCat("list_starts: degree partitions of ",
                                                   partitions->high, " and ", partitions->medium,
                                                   " nodes for a graph of ", lengths.size()));
  }
  const ListStarts::Partition three[] = {
      {partitions->high, 32},
      {partitions->medium, 16},
      {static_cast<uint32_t>(lengths.size() - high_and_medium), 8}};
  return ListStarts::Build(lengths, three);
}

}  // namespace crawldb::codecs
