// SPDX-License-Identifier: LGPL-2.1-or-later
#ifndef EVENTBOOST_MONO_CLOCK_H
#define EVENTBOOST_MONO_CLOCK_H

#include <stdint.h>
#include <time.h>

namespace eventboost {

// CLOCK_MONOTONIC in ns: the clock uv_hrtime() reads, from any thread.
inline uint64_t MonoNs() {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000u + ts.tv_nsec;
}

}  // namespace eventboost

#endif
