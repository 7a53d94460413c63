// The main of a fuzz target outside libFuzzer (tests/fuzz/fuzz_target.h): replays inputs once.
//   <target>_fuzz PATH…            runs the target's seeds, then every file given or found
//                                  (recursively) in a folder given; fails when no file is found,
//                                  so a missing corpus is a failure, not a pass
//   <target>_fuzz --write-seeds DIR   writes the seeds into DIR, one file each
// A property that fails aborts with the file's name printed before.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "tests/fuzz/fuzz_target.h"

namespace {

namespace fs = std::filesystem;

void Run(const std::vector<uint8_t>& bytes) { LLVMFuzzerTestOneInput(bytes.data(), bytes.size()); }

int WriteSeeds(const fs::path& dir) {
  fs::create_directories(dir);
  for (const crawldb::fuzz::Seed& seed : crawldb::fuzz::FuzzSeeds()) {
    std::ofstream file(dir / seed.name, std::ios::binary);
    file.write(reinterpret_cast<const char*>(seed.bytes.data()),
               static_cast<std::streamsize>(seed.bytes.size()));
    if (!file) {
      std::fprintf(stderr, "cannot write %s\n", (dir / seed.name).c_str());
      return 1;
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 3 && std::string(argv[1]) == "--write-seeds") return WriteSeeds(argv[2]);
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s PATH… | --write-seeds DIR\n", argv[0]);
    return 2;
  }
  const std::vector<crawldb::fuzz::Seed> seeds = crawldb::fuzz::FuzzSeeds();
  for (const crawldb::fuzz::Seed& seed : seeds) {
    std::fprintf(stderr, "seed %s\n", seed.name.c_str());
    Run(seed.bytes);
  }
  std::vector<fs::path> files;
  for (int i = 1; i < argc; ++i) {
    if (fs::is_directory(argv[i])) {
      for (const auto& entry : fs::recursive_directory_iterator(argv[i])) {
        if (entry.is_regular_file()) files.push_back(entry.path());
      }
    } else if (fs::is_regular_file(argv[i])) {
      files.emplace_back(argv[i]);
    } else {
      std::fprintf(stderr, "no such file or folder: %s\n", argv[i]);
      return 1;
    }
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& path : files) {
    std::fprintf(stderr, "file %s\n", path.c_str());
    std::ifstream file(path, std::ios::binary);
    Run(std::vector<uint8_t>(std::istreambuf_iterator<char>(file), {}));
  }
  std::printf("replayed %zu seeds and %zu files\n", seeds.size(), files.size());
  return files.empty() ? 1 : 0;
}
