// libFuzzer's entry point for every target (fuzz_target.h): the input, to the target's
// TestOneInput.
#include "tests/fuzz/fuzz_target.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  crawldb::fuzz::TestOneInput(crawldb::fuzz::FuzzInput(data, size));
  return 0;
}
