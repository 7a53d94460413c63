// The clock the frontier reads when a statement gives no `now`: unix seconds.
#pragma once

#include <chrono>

namespace crawldb::frontier {

inline double ClockNow() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

}  // namespace crawldb::frontier
