// Encode and decode speed, and size, of the integer codes in codecs/ over two synthetic value
// distributions. bench/codecs.sh runs it and prints the table; bench/README.md explains it.
//
// Benchmarks are named "<encode|decode>/<code>/<distribution>", where a code queried in several
// ways names the query after a colon in its decode benchmarks ("decode/elias_fano:get/zipf").
// One iteration encodes, or decodes, all kValueCount values; the counters are "values" (per
// iteration) and "bits_per_value" (the encoded size), so ns/value = cpu_time / values.
//
// Distributions, drawn once from std::mt19937_64 seeded with kSeed (the transforms to doubles
// are written out here, so every standard library draws the same values):
//   geometric  P(x) = p (1 − p)^x for x ≥ 0, p = 0.05 (mean 19)
//   zipf       P(x) ∝ x^−1.1 for x in [1, 2^20]
// Signed codes (zigzag_varint, signed_nybble) get the same magnitudes, each with a random sign.
// Elias–Fano codes the running sums of the values (a monotone sequence whose gaps are the
// values, universe = the total). Its encode is EliasFano::Build, select samples included; its
// decodes are ":get", Get(i) at random indices, ":successor", LowerBound(x) at random points of
// the universe, and ":iterate", the whole sequence in order. Its bits_per_value is the encoding
// (SizeInBits); "index_bits_per_value" is the in-memory select samples on top.
//
// Every encode starts from an empty output and lets it grow, as a writer does in use. Before any
// timing, every code's output is decoded and compared with its input, so a broken code stops the
// program instead of printing a fast time; decoded values are written to memory that the
// benchmark then declares observed (DoNotOptimize + ClobberMemory).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "absl/types/span.h"
#include "benchmark/benchmark.h"
#include "codecs/bit_reader.h"
#include "codecs/bit_writer.h"
#include "codecs/elias_delta.h"
#include "codecs/elias_fano.h"
#include "codecs/elias_gamma.h"
#include "codecs/nybble.h"
#include "codecs/varint.h"
#include "codecs/zeta.h"

namespace crawldb::codecs {
namespace {

constexpr size_t kValueCount = size_t{1} << 20;
constexpr uint64_t kSeed = 20240601;
constexpr double kGeometricP = 0.05;
constexpr double kZipfExponent = 1.1;
constexpr uint64_t kZipfMax = uint64_t{1} << 20;

// Uniform in (0, 1]: 53 random bits.
double UniformOpenClosed(std::mt19937_64& rng) {
  return static_cast<double>((rng() >> 11) + 1) * 0x1.0p-53;
}

std::vector<uint64_t> Geometric(std::mt19937_64& rng) {
  std::vector<uint64_t> values(kValueCount);
  const double log_q = std::log1p(-kGeometricP);
  for (uint64_t& v : values) v = static_cast<uint64_t>(std::log(UniformOpenClosed(rng)) / log_q);
  return values;
}

// Inverse transform over the cumulative distribution.
std::vector<uint64_t> Zipf(std::mt19937_64& rng) {
  std::vector<double> cumulative(kZipfMax);
  double total = 0;
  for (uint64_t x = 1; x <= kZipfMax; ++x) {
    total += std::pow(static_cast<double>(x), -kZipfExponent);
    cumulative[x - 1] = total;
  }
  std::vector<uint64_t> values(kValueCount);
  for (uint64_t& v : values) {
    const double u = UniformOpenClosed(rng) * total;
    const auto it = std::lower_bound(cumulative.begin(), cumulative.end(), u);
    v = std::min<uint64_t>(it - cumulative.begin(), kZipfMax - 1) + 1;
  }
  return values;
}

std::vector<int64_t> WithRandomSigns(const std::vector<uint64_t>& magnitudes,
                                     std::mt19937_64& rng) {
  std::vector<int64_t> values;
  values.reserve(magnitudes.size());
  for (uint64_t m : magnitudes) {
    const int64_t v = static_cast<int64_t>(m);
    values.push_back((rng() & 1) ? -v : v);
  }
  return values;
}

// The codes. Each has Value, Encode (values → bytes, from an empty output) and Decode (bytes →
// exactly out.size() values; false on a decoding error).

struct Varint {
  using Value = uint64_t;
  static std::vector<uint8_t> Encode(absl::Span<const uint64_t> values) {
    std::vector<uint8_t> out;
    for (uint64_t v : values) AppendVarint(v, &out);
    return out;
  }
  static bool Decode(absl::Span<const uint8_t> bytes, absl::Span<uint64_t> out) {
    const uint8_t* p = bytes.data();
    const uint8_t* end = p + bytes.size();
    for (uint64_t& v : out) {
      p = ReadVarint(p, end, &v);
      if (p == nullptr) return false;
    }
    return true;
  }
};

struct ZigZagVarint {
  using Value = int64_t;
  static std::vector<uint8_t> Encode(absl::Span<const int64_t> values) {
    std::vector<uint8_t> out;
    for (int64_t v : values) AppendSignedVarint(v, &out);
    return out;
  }
  static bool Decode(absl::Span<const uint8_t> bytes, absl::Span<int64_t> out) {
    const uint8_t* p = bytes.data();
    const uint8_t* end = p + bytes.size();
    for (int64_t& v : out) {
      p = ReadSignedVarint(p, end, &v);
      if (p == nullptr) return false;
    }
    return true;
  }
};

struct Nybble {
  using Value = uint64_t;
  static std::vector<uint8_t> Encode(absl::Span<const uint64_t> values) {
    NybbleWriter writer;
    for (uint64_t v : values) writer.WriteNybble(v);
    return writer.Finish();
  }
  static bool Decode(absl::Span<const uint8_t> bytes, absl::Span<uint64_t> out) {
    NybbleReader reader(bytes);
    for (uint64_t& v : out) v = reader.ReadNybble();
    return reader.ok();
  }
};

struct SignedNybble {
  using Value = int64_t;
  static std::vector<uint8_t> Encode(absl::Span<const int64_t> values) {
    NybbleWriter writer;
    for (int64_t v : values) writer.WriteSignedNybble(v);
    return writer.Finish();
  }
  static bool Decode(absl::Span<const uint8_t> bytes, absl::Span<int64_t> out) {
    NybbleReader reader(bytes);
    for (int64_t& v : out) v = reader.ReadSignedNybble();
    return reader.ok();
  }
};

struct Gamma {
  using Value = uint64_t;
  static std::vector<uint8_t> Encode(absl::Span<const uint64_t> values) {
    BitWriter writer;
    for (uint64_t v : values) WriteGamma(writer, v);
    return writer.Finish();
  }
  static bool Decode(absl::Span<const uint8_t> bytes, absl::Span<uint64_t> out) {
    BitReader reader(bytes);
    for (uint64_t& v : out) v = ReadGamma(reader);
    return reader.ok();
  }
};

struct Delta {
  using Value = uint64_t;
  static std::vector<uint8_t> Encode(absl::Span<const uint64_t> values) {
    BitWriter writer;
    for (uint64_t v : values) WriteDelta(writer, v);
    return writer.Finish();
  }
  static bool Decode(absl::Span<const uint8_t> bytes, absl::Span<uint64_t> out) {
    BitReader reader(bytes);
    for (uint64_t& v : out) v = ReadDelta(reader);
    return reader.ok();
  }
};

template <int k>
struct Zeta {
  using Value = uint64_t;
  static std::vector<uint8_t> Encode(absl::Span<const uint64_t> values) {
    BitWriter writer;
    for (uint64_t v : values) WriteZeta(writer, v, k);
    return writer.Finish();
  }
  static bool Decode(absl::Span<const uint8_t> bytes, absl::Span<uint64_t> out) {
    BitReader reader(bytes);
    for (uint64_t& v : out) v = ReadZeta(reader, k);
    return reader.ok();
  }
};

[[noreturn]] void Die(const std::string& message) {
  std::fprintf(stderr, "codecs_benchmark: %s\n", message.c_str());
  std::exit(1);
}

void SetCounters(benchmark::State& state, double bits_per_value) {
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kValueCount));
  state.counters["values"] = static_cast<double>(kValueCount);
  state.counters["bits_per_value"] = bits_per_value;
}

template <typename Code>
void RegisterCode(const std::string& code, const std::string& distribution,
                  std::vector<typename Code::Value> values) {
  using Value = typename Code::Value;
  auto input = std::make_shared<const std::vector<Value>>(std::move(values));
  auto encoded = std::make_shared<const std::vector<uint8_t>>(Code::Encode(*input));
  std::vector<Value> check(input->size());
  if (!Code::Decode(*encoded, absl::MakeSpan(check)) || check != *input) {
    Die(code + " does not decode what it encoded on " + distribution);
  }
  const double bits = 8.0 * static_cast<double>(encoded->size()) / input->size();

  benchmark::RegisterBenchmark(("encode/" + code + "/" + distribution).c_str(),
                               [input, bits](benchmark::State& state) {
                                 for (auto _ : state) {
                                   std::vector<uint8_t> bytes = Code::Encode(*input);
                                   benchmark::DoNotOptimize(bytes.data());
                                   benchmark::ClobberMemory();
                                 }
                                 SetCounters(state, bits);
                               });
  benchmark::RegisterBenchmark(("decode/" + code + "/" + distribution).c_str(),
                               [encoded, bits](benchmark::State& state) {
                                 std::vector<Value> out(kValueCount);
                                 for (auto _ : state) {
                                   if (!Code::Decode(*encoded, absl::MakeSpan(out))) {
                                     state.SkipWithError("decoding failed");
                                     break;
                                   }
                                   benchmark::DoNotOptimize(out.data());
                                   benchmark::ClobberMemory();
                                 }
                                 SetCounters(state, bits);
                               });
}

void RegisterEliasFano(const std::string& distribution, const std::vector<uint64_t>& gaps,
                       std::mt19937_64& rng) {
  auto sums = std::make_shared<std::vector<uint64_t>>(gaps.size());
  uint64_t total = 0;
  for (size_t i = 0; i < gaps.size(); ++i) (*sums)[i] = total += gaps[i];
  absl::StatusOr<EliasFano> built = EliasFano::Build(*sums, total);
  if (!built.ok()) Die("EliasFano::Build failed: " + built.status().ToString());
  auto ef = std::make_shared<const EliasFano>(*std::move(built));
  const double bits = static_cast<double>(ef->SizeInBits()) / kValueCount;
  const double index_bits = static_cast<double>(ef->IndexSizeInBits()) / kValueCount;

  auto indexes = std::make_shared<std::vector<uint64_t>>(kValueCount);
  auto points = std::make_shared<std::vector<uint64_t>>(kValueCount);
  for (uint64_t& i : *indexes) i = rng() % kValueCount;
  for (uint64_t& x : *points) x = rng() % (total + 1);
  for (size_t j = 0; j < kValueCount; ++j) {
    const uint64_t expected_index =
        std::lower_bound(sums->begin(), sums->end(), (*points)[j]) - sums->begin();
    if (ef->Get((*indexes)[j]) != (*sums)[(*indexes)[j]] ||
        ef->LowerBound((*points)[j]).index != expected_index) {
      Die("elias_fano disagrees with its input on " + distribution);
    }
  }
  if (!std::equal(ef->begin(), ef->end(), sums->begin(), sums->end())) {
    Die("elias_fano iteration disagrees with its input on " + distribution);
  }

  const auto set_counters = [bits, index_bits](benchmark::State& state) {
    SetCounters(state, bits);
    state.counters["index_bits_per_value"] = index_bits;
  };
  benchmark::RegisterBenchmark(("encode/elias_fano/" + distribution).c_str(),
                               [sums, total, set_counters](benchmark::State& state) {
                                 for (auto _ : state) {
                                   absl::StatusOr<EliasFano> result =
                                       EliasFano::Build(*sums, total);
                                   benchmark::DoNotOptimize(result);
                                   benchmark::ClobberMemory();
                                 }
                                 set_counters(state);
                               });
  benchmark::RegisterBenchmark(("decode/elias_fano:get/" + distribution).c_str(),
                               [ef, indexes, set_counters](benchmark::State& state) {
                                 std::vector<uint64_t> out(kValueCount);
                                 for (auto _ : state) {
                                   for (size_t j = 0; j < kValueCount; ++j) {
                                     out[j] = ef->Get((*indexes)[j]);
                                   }
                                   benchmark::DoNotOptimize(out.data());
                                   benchmark::ClobberMemory();
                                 }
                                 set_counters(state);
                               });
  benchmark::RegisterBenchmark(("decode/elias_fano:successor/" + distribution).c_str(),
                               [ef, points, set_counters](benchmark::State& state) {
                                 std::vector<uint64_t> out(kValueCount);
                                 for (auto _ : state) {
                                   for (size_t j = 0; j < kValueCount; ++j) {
                                     out[j] = ef->LowerBound((*points)[j]).index;
                                   }
                                   benchmark::DoNotOptimize(out.data());
                                   benchmark::ClobberMemory();
                                 }
                                 set_counters(state);
                               });
  benchmark::RegisterBenchmark(("decode/elias_fano:iterate/" + distribution).c_str(),
                               [ef, set_counters](benchmark::State& state) {
                                 std::vector<uint64_t> out(kValueCount);
                                 for (auto _ : state) {
                                   std::copy(ef->begin(), ef->end(), out.begin());
                                   benchmark::DoNotOptimize(out.data());
                                   benchmark::ClobberMemory();
                                 }
                                 set_counters(state);
                               });
}

void RegisterAll() {
  std::mt19937_64 rng(kSeed);
  std::vector<std::pair<std::string, std::vector<uint64_t>>> distributions;
  distributions.emplace_back("geometric", Geometric(rng));
  distributions.emplace_back("zipf", Zipf(rng));
  for (const auto& [name, values] : distributions) {
    const std::vector<int64_t> signed_values = WithRandomSigns(values, rng);
    RegisterCode<Varint>("varint", name, values);
    RegisterCode<ZigZagVarint>("zigzag_varint", name, signed_values);
    RegisterCode<Nybble>("nybble", name, values);
    RegisterCode<SignedNybble>("signed_nybble", name, signed_values);
    RegisterCode<Gamma>("gamma", name, values);
    RegisterCode<Delta>("delta", name, values);
    RegisterCode<Zeta<2>>("zeta_2", name, values);
    RegisterCode<Zeta<3>>("zeta_3", name, values);
    RegisterCode<Zeta<5>>("zeta_5", name, values);
    RegisterEliasFano(name, values, rng);
  }
}

}  // namespace
}  // namespace crawldb::codecs

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  crawldb::codecs::RegisterAll();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
