// SPDX-License-Identifier: LGPL-2.1-or-later
// Queue-Boost.  The loop thread marks each iteration in prepare and check
// handles (libuv's loop state is only safe to read there) and publishes
// through atomics; a monitor thread, woken by what can raise a signal,
// holds a queue vote while one of three signals is up:
//   - queue length: events ready on the loop's epoll set, counted when the
//     loop's poll returns and while the callbacks run (the backlog);
//   - head-of-line time: the loop thread's own CPU time since it last
//     reached its queue (prepare): preemption does not count; with
//     headOfLine 'waiting', only once work waits on the loop's epoll set;
//   - overload: the loop's CPU time since it last caught up with its
//     queue (its polls blocked a tenth of that time, whatever each wait's
//     length) against an absolute bound (maxDelayMs), whatever the
//     averages say.
// Length and head-of-line thresholds are baselines (count-weighted means
// over the last ~30 s of iterations) scaled by the queue factor.  The loop
// thread itself ends the boost before it waits again, but for the short
// waits of a loop the overload bound holds saturated.  Unless it holds a
// boost the monitor sleeps until work arrives for the loop (the loop's
// epoll set, watched edge-triggered; not with bursts 'threshold'), until
// an iteration has used the head-of-line threshold of the loop thread's
// CPU time (a timer on that clock), or, for the baselines, until an
// iteration begins a second after its last look: an idle service, or a
// busy loop whose iterations stay below the thresholds while nothing
// arrives, wakes it at most once a second.  With headOfLine
// 'waiting', an iteration past the head-of-line threshold is watched for
// the first arrival behind it (or the overload bound) before it boosts.
#ifndef EVENTBOOST_QUEUE_MONITOR_H
#define EVENTBOOST_QUEUE_MONITOR_H

#include <stdint.h>
#include <uv.h>

struct eb_client;

namespace eventboost {

class QueueMonitor {
 public:
  struct Counters {
    uint64_t boosts, boosted_ns, by_length, by_head_of_line, by_overload;
    uint64_t refused, errors, samples, wakeups, arrivals, iterations, renewed;
    uint64_t waits, kept, ended_asleep;
    bool boosted_now;
    double avg_length, avg_busy_us;
    int last_error;
  };

  // 0 or a negative errno.  Must be called on @loop's thread.
  // @hol_waiting: a head-of-line boost only once work waits behind the
  // loop (start()'s headOfLine 'waiting').  @bursts_at_threshold: work
  // arriving at a waiting loop does not wake the monitor (start()'s bursts
  // 'threshold'); it looks once the iteration has used the head-of-line
  // threshold of CPU time.  @test_vote_delay_us, @test_sleep_delay_us,
  // @test_wake_delay_us: 0, or for the test suite a delay between the
  // monitor's decision to boost and its vote, between a look and the sleep
  // after it, and between a sleep's end and the look after it.
  int Start(uv_loop_t* loop, eb_client* client, double factor,
            unsigned sample_us, unsigned max_delay_ms, bool hol_waiting,
            bool bursts_at_threshold, unsigned test_vote_delay_us = 0,
            unsigned test_sleep_delay_us = 0,
            unsigned test_wake_delay_us = 0);
  // Join the monitor, end a held vote, close the handles.  Loop thread.
  // @closed(@arg) runs once the handles have closed (at once when nothing
  // was running): a Worker's environment must not go before that.
  void Stop(void (*closed)(void*) = nullptr, void* arg = nullptr);
  bool running() const { return shared_ != nullptr; }
  Counters counters() const;

  // Internal: the state the loop thread and the monitor share, and the
  // monitor's body.
  struct Shared;
  static void Monitor(Shared* s);

 private:
  static void OnPrepare(uv_prepare_t* handle);
  static void OnCheck(uv_check_t* handle);

  Shared* shared_ = nullptr;  // freed when all its handles have closed
  Counters last_ = {};        // what the last run did, after Stop()
};

}  // namespace eventboost

#endif
