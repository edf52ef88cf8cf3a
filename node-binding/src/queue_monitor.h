// SPDX-License-Identifier: LGPL-2.1-or-later
// Queue-Boost.  The loop thread measures each loop iteration in prepare and
// check handles (libuv's loop state is only safe to read there) and
// publishes it through atomics; a monitor thread samples what is published
// every sample period while the loop is busy, compares two signals against
// dynamic thresholds and holds a queue vote while either is above:
//   - queue length: events the loop's poll returned in this iteration;
//   - head-of-line time: how long the loop has been busy in this iteration
//     (the callback at the head holds up everything behind it).
// Each threshold is a running average scaled by the queue factor; the boost
// ends (hysteresis) when both signals are back at their averages, or at
// once when the loop waits again.  While the loop waits the monitor sleeps
// in poll() on the loop's backend fd, so an idle service costs nothing.
#ifndef EVENTBOOST_QUEUE_MONITOR_H
#define EVENTBOOST_QUEUE_MONITOR_H

#include <stdint.h>
#include <uv.h>


struct eb_client;

namespace eventboost {

class QueueMonitor {
 public:
  struct Counters {
    uint64_t boosts, boosted_ns, by_length, by_head_of_line;
    uint64_t refused, errors, samples, wakeups, iterations;
    bool boosted_now;
    double avg_length, avg_busy_us;
    int last_error;
  };

  // 0 or a negative errno.  Must be called on @loop's thread.
  int Start(uv_loop_t* loop, eb_client* client, double factor,
            unsigned sample_us);
  // Join the monitor, end a held vote, close the handles.  Loop thread.
  void Stop();
  bool running() const { return shared_ != nullptr; }
  Counters counters() const;

  // Internal: the state the loop thread and the monitor share, and the
  // monitor's body.
  struct Shared;
  static void Monitor(Shared* s);

 private:
  static void OnPrepare(uv_prepare_t* handle);
  static void OnCheck(uv_check_t* handle);

  Shared* shared_ = nullptr;  // freed when both handles have closed
  Counters last_ = {};        // what the last run did, after Stop()
};

}  // namespace eventboost

#endif
