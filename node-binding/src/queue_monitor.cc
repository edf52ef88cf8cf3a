// SPDX-License-Identifier: LGPL-2.1-or-later
#include "queue_monitor.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <sys/epoll.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <string.h>

#include <algorithm>
#include <atomic>
#include <mutex>

#include "eventboost.h"
#include "mono_clock.h"

namespace eventboost {

// The baselines remember about this long (wall-clock time, whatever the
// number of iterations in it): a step in the work a service does stays
// above its threshold for seconds, not for a few dozen iterations.
static constexpr double kBaselineNs = 30e9;
// No length or head-of-line decision before the baselines have seen this
// many iterations (the overload bound needs no baseline).
static constexpr uint64_t kWarmupIterations = 32;
// A monitor without a boost looks at least this often while the loop works,
// so that the baselines follow the work down as well as up.
static constexpr uint64_t kRefreshNs = 1000000000;
// The signal of the monitor's CPU-time timer: directed at the monitor
// thread, which blocks it and reads it from a signalfd, so no handler of
// the application ever sees it.
static int HolSignal() { return SIGRTMIN + 7; }
// Events counted per sample at most: far above any threshold that matters.
static constexpr int kMaxCount = 64;
// Marks a prepare_cpu_seq published at a check, not at a prepare.
static constexpr uint64_t kAtCheck = 1ull << 63;
// Marks the epoll data of the watch of the loop's set: its arm's generation
// in the other bits (signal_fd and wake_fd carry their fd).
static constexpr uint64_t kWatchTag = 1ull << 63;

// A count-weighted mean over the last kBaselineNs: each iteration counts
// once, and what it added fades with time, not with later iterations.
struct Baseline {
  double sum = 0, n = 0;
  uint64_t at = 0;
  // @count iterations that together came to @x.
  void Add(double x, uint64_t now, double count = 1) {
    if (at && now > at) {
      double keep = exp(-double(now - at) / kBaselineNs);
      sum *= keep;
      n *= keep;
    }
    at = now;
    sum += x;
    n += count;
  }
  double Mean() const { return n > 0 ? sum / n : 0; }
};

struct QueueMonitor::Shared {
  uv_prepare_t prepare;
  uv_check_t check;
  int open_handles = 0;
  void (*closed)(void*) = nullptr;
  void* closed_arg = nullptr;
  uv_loop_t* loop = nullptr;
  eb_client* client = nullptr;
  double factor = 5;  // Start() sets every option (defaults: lib/options.js)
  uint64_t sample_ns = 1000000;
  uint64_t max_delay_ns = 100000000;
  // headOfLine 'waiting': the head-of-line threshold boosts only once work
  // waits on the loop's epoll set (WorkWaits()).
  bool hol_waiting = false;
  // bursts 'threshold': no watch for work arriving at a waiting loop
  // (WatchesBursts()).
  bool bursts_at_threshold = false;
  int wake_fd = -1;     // eventfd: stop() wakes the monitor
  // A timer on the loop thread's CPU clock, armed while the monitor
  // sleeps (by the monitor, and by the loop at its slow prepares and those
  // after a wait, until the overload bound is crossed): it fires (a signal
  // to the monitor's signal_fd) when an iteration has used the nearer
  // head-of-line bound of CPU time.
  timer_t hol_timer;
  std::atomic<bool> timer_ready{false};
  int signal_fd = -1;
  int backend_fd = -1;  // the loop's epoll fd: readable when events wait
  // The monitor's own epoll set, where it sleeps: the loop's epoll fd
  // edge-triggered and one-shot (WatchArrivals()), signal_fd and wake_fd.
  int watch_fd = -1;
  // The generation of the armed watch (WatchArrivals()), 0 once its
  // arrival was delivered to the monitor or it was disarmed: the loop
  // disarms it at the check after its wait (UnwatchAfterWait()), unless the
  // monitor awaits an arrival (awaiting).  A delivery clears only its own
  // arm's generation, so an arrival of an older arm, taken late, does not
  // hide a newer arm from the check.  Sequentially consistent, as in_poll:
  // the monitor stores one and loads the other, the loop the reverse
  // (WatchWaitingLoop()).
  std::atomic<uint64_t> watch_armed{0};
  std::atomic<uint64_t> watch_generation{0};
  // headOfLine 'waiting': the monitor, past the head-of-line threshold with
  // nothing waiting, watches the working loop for the first arrival
  // (AwaitArrival()).  The iteration's work goes on past its check
  // (immediates, closes, timers): the check leaves the watch armed, and the
  // next prepare ends the wait and wakes the monitor.
  std::atomic<bool> awaiting{false};
  int stat_fd = -1;     // /proc/self/task/<loop thread>/stat
  clockid_t loop_clock;  // the loop thread's CPU-time clock
  pthread_t thread;

  // Published by the loop thread.
  std::atomic<uint64_t> seq{0};          // bumped at each prepare
  // Bumped at each prepare too, except after an iteration that only took a
  // monitor vote's wake-up (vote_fd): the iterations the head-of-line
  // baseline counts.  A wake-up is no work of the service's; counted, one
  // per vote, it would lower the thresholds after every vote.
  std::atomic<uint64_t> counted_seq{0};
  std::atomic<bool> in_poll{false};      // from prepare to check
  std::atomic<bool> asleep{false};       // the monitor sleeps
  // When the monitor last looked (MonoNs()), or a prepare last woke it to
  // look (OnPrepare()).
  std::atomic<uint64_t> looked_ns{0};
  std::atomic<uint64_t> last_busy_ns{0};  // the last iteration's work
  std::atomic<uint64_t> avg_events_x256{0};
  std::atomic<uint64_t> avg_busy_ns{0};  // CPU time per iteration
  std::atomic<uint64_t> iterations{0};
  // The loop thread's CPU time at a prepare, and that prepare's seq:
  // published for slow iterations, after every wait, and before most
  // polls that may block (OnPrepare), so that it knows
  // exactly where an iteration began however long ago it last looked.  Or
  // at the check after a wait that such a prepare left unpublished
  // (OnCheck), the seq then marked kAtCheck: later than the iteration's
  // start by its poll phase's callbacks, before the timers and immediates
  // that follow.
  std::atomic<uint64_t> prepare_cpu{0};
  std::atomic<uint64_t> prepare_cpu_seq{0};
  // The loop thread's CPU time where the overload count began (published
  // at the check after a wait; at the first prepare before any wait): the
  // overload bound counts the CPU time used since, whether in one long
  // callback or in iterations that each found work ready and never waited
  // (a saturated loop), so that a saturated service is not left at its
  // base clock.  A wait within the idle time the count allows does not
  // restart it (CountWait()): this is where the last wait was while the
  // count has stood through one such wait alone (a long callback and then
  // a client's FIN, say), and the count's start from the second on.  Node
  // enables the idle-time metric this rests on (UV_METRICS_IDLE_TIME) on
  // every loop it runs.
  std::atomic<uint64_t> wait_cpu{0};
  // The seq of an iteration whose prepare ended a boost because its poll
  // was about to block: until its check wait_cpu is the run's old start,
  // and the saturation it shows is over.  A prediction the check finds
  // wrong (work came first: the poll returned at once) wakes the monitor.
  std::atomic<uint64_t> wait_expected{0};

  // Loop thread only.
  uint64_t prepare_ns = 0, idle_at_prepare = 0, events_at_prepare = 0;
  uint64_t work_began = 0;
  bool vote_woke = false;       // vote_fd was ready in this iteration's poll
  bool only_vote_woke = false;  // and was its one event (OnCheck)
  bool waited = false;          // this iteration's poll blocked (OnCheck)
  bool timed_poll = false;      // uv_backend_timeout() was not 0 (OnPrepare)
  bool returned_at_once = false;  // and it did not block (OnCheck)
  // The overload count (CountWait()): the loop's CPU time where it began,
  // the idle time of the waits it stood through, and how many (more
  // than 2 count as 2); and the last wait of the service's, how long it was
  // and the loop's CPU time there.
  uint64_t count_from = 0, count_idle_ns = 0;
  unsigned count_short_waits = 0;
  uint64_t last_wait_ns = 0, last_wait_cpu = 0;
  // The wait_cpu whose overload bound, found crossed, woke the monitor.
  uint64_t saturation_woken = 0;
  // The boost this iteration's prepare kept through its poll (its
  // boosted_since; 0: none), and the timer that ends a kept wait that
  // turns out long (KeepThroughWait()).
  uint64_t kept_since = 0;
  uv_timer_t kept_timer;

  // Monitor thread only: a boost was held since the last unboosted sleep.
  bool after_boost = false;
  // Loop thread only (OnCheck): events per iteration; the monitor reads
  // its mean through avg_events_x256.
  Baseline events;

  std::atomic<bool> stop{false};

  // The vote: begun by the monitor, ended by either thread.
  std::mutex vote;
  std::atomic<uint64_t> boosted_since{0};  // 0: not boosted
  std::atomic<uint64_t> boost_seq{0};      // the iteration it began in
  std::atomic<uint64_t> refused_until{0};  // the budget refused: not before
  // The boosted_since of a boost the kernel holds no vote for even just
  // after a hint (the loop's CPU is not governed): not renewed.  Under vote.
  uint64_t unheld_since = 0;

  // Counters, read by counters().
  std::atomic<uint64_t> boosts{0}, boosted_ns{0}, by_length{0}, by_hol{0};
  std::atomic<uint64_t> by_overload{0}, refused{0}, errors{0}, samples{0};
  std::atomic<uint64_t> wakeups{0}, renewed{0};
  std::atomic<uint64_t> arrivals{0};  // wake-ups for work arriving (watch)
  std::atomic<uint64_t> waits{0};     // iterations whose poll blocked
  std::atomic<uint64_t> kept{0};      // polls a boost was kept through
  std::atomic<uint64_t> ended_asleep{0};  // boosts ended: the loop slept

  // The monitor wakes the loop after each vote it casts (BeginBoost()):
  // an eventfd of its own, not a uv_async_t, whose eventfd libuv shares
  // with every async handle of the loop (Node's platform tasks, the
  // threadpool's completions), so that the loop can tell an iteration that
  // only took the wake-up from one that also did the service's work.
  uv_poll_t vote_cast;
  int vote_fd = -1;
  // For the test suite only (EVENTBOOST_TEST_VOTE_DELAY_US, index.js): the
  // monitor waits this long between deciding to boost and voting, so that
  // the loop's wait overtakes the vote every time, not once in thousands.
  uint64_t test_vote_delay_ns = 0;
  // And (EVENTBOOST_TEST_SLEEP_DELAY_US) between a look and the sleep
  // after it, so that the loop's next prepare comes in between every time.
  uint64_t test_sleep_delay_ns = 0;
  // And (EVENTBOOST_TEST_WAKE_DELAY_US) between a sleep's end and the look
  // after it, asleep still set: a wake-up late as on a loaded machine.
  uint64_t test_wake_delay_ns = 0;
  std::atomic<int> last_error{0};
};

namespace {

enum class Why { kLength, kHeadOfLine, kOverload };

// wake_fd: a write before the monitor sleeps leaves it readable, so no
// wake-up is lost.
void WakeMonitor(const QueueMonitor::Shared* s) {
  uint64_t one = 1;
  ssize_t r = write(s->wake_fd, &one, sizeof(one));
  (void)r;  // EAGAIN: a wake-up is pending already
}

void Drain(int fd) {
  uint64_t v;
  ssize_t r = read(fd, &v, sizeof(v));
  (void)r;  // EAGAIN: nothing pending
}

bool Readable(int fd) {
  struct pollfd p = {fd, POLLIN, 0};
  return poll(&p, 1, 0) > 0 && (p.revents & POLLIN);
}

// Events ready on the loop's epoll set now.  Its items are level-triggered
// (libuv registers none edge-triggered or one-shot), so looking takes
// nothing from the loop: they stay ready until their callbacks read them.
int CountReady(int epfd) {
  struct epoll_event ev[kMaxCount];
  int n = epoll_wait(epfd, ev, kMaxCount, 0);
  return n > 0 ? n : 0;
}

// @generation: the arm's (0 for a disarm), given back with its arrival.
void SetWatch(const QueueMonitor::Shared* s, uint32_t events,
              uint64_t generation) {
  struct epoll_event ev = {};
  ev.events = events;
  ev.data.u64 = kWatchTag | generation;
  epoll_ctl(s->watch_fd, EPOLL_CTL_MOD, s->backend_fd, &ev);
}

// Arms the monitor's watch of the loop's epoll set for one arrival of work
// (EPOLLONESHOT: the arrival delivered to the monitor disarms it; the loop
// disarms it at its check if none was, UnwatchAfterWait(), or at its next
// prepare while the monitor awaits one, AwaitArrival()).  Called
// when the loop is about to wait with nothing ready (by the loop at its
// prepare, by the monitor when it finds the loop waiting): work that comes
// to a waiting loop may be a burst, which the loop's own count (at its
// prepare, before the poll) cannot see.  Work that comes while the loop
// works waits for its next poll, where the loop counts it itself
// (OnPrepare) or a head-of-line look does: woken for it, the monitor would
// find nothing new, and a wake-up costs the loop's core a context switch --
// but for headOfLine 'waiting' past the threshold (AwaitArrival()).
// Arming an fd that is ready already wakes the monitor at once.  Not with
// bursts 'threshold' (WatchesBursts()), but for AwaitArrival().
void WatchArrivals(QueueMonitor::Shared* s) {
  // Armed, then flagged: a disarm (UnwatchAfterWait()) flags off, then
  // disarms, so a flag set finds its arm made, and a disarm that saw no
  // flag comes before an arm that will be seen.
  uint64_t generation = s->watch_generation.fetch_add(1) + 1;
  SetWatch(s, EPOLLIN | EPOLLET | EPOLLONESHOT, generation);
  s->watch_armed.store(generation);
}

// The loop's poll phase is over (its check) and the watch is still armed:
// its poll ended on its timeout, or on an arrival the loop read before the
// monitor's epoll_wait delivered it (epoll then delivers nothing, and the
// watch stayed armed through the phase's I/O callbacks: libuv has no hook
// between the poll's return and its first callback).  The loop works on
// from here (immediates, closes, timers); what arrives now waits for its
// next poll.  An edge queued but not yet collected by the monitor is
// dropped with the mask (epoll asks the watched fd again, with the new
// events, before it delivers anything; a monitor it woke already sleeps on).
void UnwatchAfterWait(QueueMonitor::Shared* s) {
  if (s->watch_armed.load() && s->watch_armed.exchange(0))
    SetWatch(s, EPOLLET | EPOLLONESHOT, 0);
}

// Whether work arriving at a waiting loop is watched for (WatchArrivals()):
// a burst is then seen as it comes.  With bursts 'threshold' it is seen
// once its iteration has used the head-of-line threshold of the loop's CPU
// time (the CPU-time timer); without that timer (timer_create() failed)
// nothing else would wake a monitor that found the loop waiting.
bool WatchesBursts(const QueueMonitor::Shared* s) {
  return !s->bursts_at_threshold ||
         !s->timer_ready.load(std::memory_order_acquire);
}

// headOfLine 'waiting': the loop, in iteration @seq, is past the
// head-of-line threshold and nothing waits behind it.  The first arrival
// is what boosts: watch the working loop for it, through the rest of the
// iteration (awaiting keeps the check from disarming the watch; the next
// prepare ends it).  Not if that prepare has come already (a watch armed
// now would outlive the work it was for): the look that follows sees the
// new iteration.
bool AwaitArrival(QueueMonitor::Shared* s, uint64_t seq) {
  if (s->seq.load() != seq) return false;
  s->awaiting.store(true);
  // The prepare bumps seq, then takes the flag: one that came between the
  // test and the flag may not have seen it, so take it back (if it did, it
  // also woke the monitor: a wake-up to spare).
  if (s->seq.load() != seq) {
    s->awaiting.store(false);
    return false;
  }
  WatchArrivals(s);
  return true;
}

// CPU time the loop thread has used: it grows only while the loop runs.
uint64_t LoopCpuNs(const QueueMonitor::Shared* s) {
  struct timespec ts;
  if (clock_gettime(s->loop_clock, &ts)) return 0;
  return uint64_t(ts.tv_sec) * 1000000000u + ts.tv_nsec;
}

// Whether the loop thread is running or runnable (not asleep): read at a
// look whose CPU clock says the loop may have stopped, so a preempted loop
// is not taken for a waiting one.
bool LoopRunnable(const QueueMonitor::Shared* s) {
  char buf[256];
  ssize_t n = pread(s->stat_fd, buf, sizeof(buf) - 1, 0);
  if (n <= 0) return false;
  buf[n] = 0;
  const char* p = strrchr(buf, ')');
  return p && p[1] == ' ' && p[2] == 'R';
}

// The head-of-line threshold: the typical iteration times the factor, and
// never below one sample period.
uint64_t HolThreshold(const QueueMonitor::Shared* s) {
  double t = s->factor * double(s->avg_busy_ns.load(std::memory_order_relaxed));
  return t > double(s->sample_ns) ? uint64_t(t) : s->sample_ns;
}

// The boost begun at @since is over at @now (under s->vote).
void CloseBoost(QueueMonitor::Shared* s, uint64_t now, uint64_t since) {
  s->boosted_ns.fetch_add(now > since ? now - since : 0,
                          std::memory_order_relaxed);
  s->boosted_since.store(0, std::memory_order_relaxed);
}

// The kernel refused a queue hint (-EBUSY: budget spent): neither thread
// asks again for 16 samples.
void NoteRefusal(QueueMonitor::Shared* s, int err, uint64_t now) {
  (err == -EBUSY ? s->refused : s->errors).fetch_add(1,
                                                     std::memory_order_relaxed);
  s->last_error.store(err, std::memory_order_relaxed);
  s->refused_until.store(now + 16 * s->sample_ns, std::memory_order_relaxed);
}

// Whether there was a boost to end.  @only: end the boost begun then, not
// one begun after it (the monitor may have ended that one and begun
// another meanwhile); 0: whichever is held.
bool EndBoost(QueueMonitor::Shared* s, uint64_t now, uint64_t only = 0) {
  std::lock_guard<std::mutex> lock(s->vote);
  uint64_t since = s->boosted_since.load(std::memory_order_relaxed);
  if (!since || (only && since != only)) return false;
  // Ending a vote fails only where voting did (a device that refuses the
  // client); count it so that stats() shows it.
  int err = eb_queue_idle(s->client);
  if (err) {
    s->errors.fetch_add(1, std::memory_order_relaxed);
    s->last_error.store(err, std::memory_order_relaxed);
  }
  CloseBoost(s, now, since);
  return true;
}

// 0, or the kernel's refusal (NoteRefusal).  @seq: the iteration the boost
// is held through.
//
// The monitor decides on what it saw of the loop a moment ago: by the time
// it votes, that iteration may be over and the loop, its prepare having
// found no vote to end, waiting.  So a vote the monitor casts wakes the
// loop: a prepare that runs after the vote then judges it (PollMayBlock()),
// and ends it at once if the loop is about to wait.  A vote cast in time
// costs one short extra iteration.  The loop's own votes (OnPrepare) need
// no wake-up of the loop; they wake the monitor, to follow them.
int BeginBoost(QueueMonitor::Shared* s, uint64_t now, Why why, uint64_t seq,
               bool from_monitor = true) {
  std::lock_guard<std::mutex> lock(s->vote);
  if (s->boosted_since.load(std::memory_order_relaxed)) return 0;
  int err = eb_queue_busy(s->client);
  if (err) {
    NoteRefusal(s, err, now);
    return err;
  }
  s->boost_seq.store(seq, std::memory_order_relaxed);
  // Release: the loop's prepare reads it without the lock (acquire), and a
  // wake-up that coalesces with an earlier one orders nothing itself.
  s->boosted_since.store(now, std::memory_order_release);
  if (from_monitor) {
    uint64_t one = 1;
    ssize_t r = write(s->vote_fd, &one, sizeof(one));
    (void)r;  // EAGAIN: a wake-up is pending already
  }
  s->boosts.fetch_add(1, std::memory_order_relaxed);
  auto& by = why == Why::kLength      ? s->by_length
             : why == Why::kOverload ? s->by_overload
                                      : s->by_hol;
  by.fetch_add(1, std::memory_order_relaxed);
  return 0;
}

// The boost is still wanted: if the kernel ended the vote (the watchdog
// after max_boost_us, a budget at its share), vote again.  Refused (the
// budget is spent for its window), the boost ends here as any refused one;
// the monitor asks again after refused_until if the backlog lasts.
void RenewBoost(QueueMonitor::Shared* s, uint64_t now) {
  std::lock_guard<std::mutex> lock(s->vote);
  uint64_t since = s->boosted_since.load(std::memory_order_relaxed);
  if (!since || since == s->unheld_since) return;
  int held = eb_votes(s->client);
  if (held < 0) {
    s->errors.fetch_add(1, std::memory_order_relaxed);
    s->last_error.store(held, std::memory_order_relaxed);
    return;
  }
  if (held & EB_HOLDS_QUEUE) return;
  int err = eb_queue_busy(s->client);
  if (!err) {
    // Where eventboost does not govern the CPU a hint holds nothing.
    held = eb_votes(s->client);
    if (held >= 0 && (held & EB_HOLDS_QUEUE))
      s->renewed.fetch_add(1, std::memory_order_relaxed);
    else
      s->unheld_since = since;
    return;
  }
  NoteRefusal(s, err, now);
  CloseBoost(s, now, since);
}

void DrainSignal(int fd) {
  struct signalfd_siginfo si;
  while (read(fd, &si, sizeof(si)) == ssize_t(sizeof(si))) {
  }
}

struct timespec Timespec(uint64_t ns) {
  return {time_t(ns / 1000000000u), long(ns % 1000000000u)};
}

// The nearer head-of-line bound: the threshold once the baselines are
// warm, and the overload bound.
uint64_t HolDue(const QueueMonitor::Shared* s) {
  uint64_t t = s->max_delay_ns;
  if (s->iterations.load(std::memory_order_relaxed) >= kWarmupIterations) {
    uint64_t h = HolThreshold(s);
    if (h < t) t = h;
  }
  return t;
}

// The nearer of @at (0: none) and the overload bound across iterations:
// max_delay_ns of the loop's CPU time after its poll last blocked
// (wait_cpu), where that is still ahead of @cpu.
uint64_t NearerSaturation(const QueueMonitor::Shared* s, uint64_t cpu,
                          uint64_t at) {
  uint64_t w = s->wait_cpu.load(std::memory_order_acquire);
  if (!w) return at;
  uint64_t bound = w + s->max_delay_ns;
  if (bound <= cpu) return at;
  return !at || bound < at ? bound : at;
}

// Arms the CPU-time timer to fire when the loop thread's CPU clock reads
// @at.  Absolute: an arm either thread computed a moment before it was
// made (preempted in between on the shared core) fires early, never late.
// The kernel checks CPU-time timers at the scheduler tick of the CPU the
// loop runs on: a fire comes up to one tick (1-4 ms) after @at.  Where the
// loop does not publish an iteration's start (after a poll that had a
// timeout and returned at once, OnPrepare(), unless a wait followed it,
// OnCheck()), the look an early fire brings counts that iteration from the
// look: a bound crossed just after it is seen up to one bound late.
void ArmHolTimerAt(QueueMonitor::Shared* s, uint64_t at) {
  if (!s->timer_ready.load(std::memory_order_acquire) || !at) return;
  struct itimerspec its = {};
  its.it_value = Timespec(at);
  timer_settime(s->hol_timer, TIMER_ABSTIME, &its, nullptr);
}

// Takes the events of the monitor's set (an arrival needs nothing taken:
// its one-shot watch is disarmed by its delivery).  @woke: they woke the
// monitor (an arrival among them is counted), not edges dropped unslept.
void TakeEvents(QueueMonitor::Shared* s, const struct epoll_event* ev, int n,
                bool woke) {
  for (int i = 0; i < n; i++) {
    uint64_t data = ev[i].data.u64;
    if (data & kWatchTag) {
      // A newer arm made since this one was delivered stays flagged.
      uint64_t generation = data & ~kWatchTag;
      s->watch_armed.compare_exchange_strong(generation, 0);
      if (woke) s->arrivals.fetch_add(1, std::memory_order_relaxed);
    } else if (data == uint64_t(s->signal_fd)) {
      DrainSignal(s->signal_fd);
    } else if (data == uint64_t(s->wake_fd)) {
      Drain(s->wake_fd);
    }
  }
}

// Edges queued while the monitor held a boost (its own vote's wake-up of
// the loop among them) came before the look that follows it: not arrivals.
void DropEdgesAfterBoost(QueueMonitor::Shared* s) {
  if (!s->after_boost) return;
  struct epoll_event ev[3];
  TakeEvents(s, ev, epoll_wait(s->watch_fd, ev, 3, 0), false);
  s->after_boost = false;
}

// Nothing to watch for now: sleep until work arrives at the waiting loop
// (an fd of its epoll set turns ready, or gets more, while the watch is
// armed: WatchArrivals(); never with bursts 'threshold' but for
// AwaitArrival()), a prepare wakes it (WakeMonitor()), the loop thread's
// CPU clock reaches @arm_at (the CPU-time timer; 0: not armed here; the
// loop re-arms it at some prepares while the monitor sleeps), @timeout_ns
// passes (0: none), or stop().  Every look is a context switch on the loop's core, which a
// pinned loop pays for in its own time: between arrivals and crossed
// bounds there is nothing a look could find.
void SleepWatching(QueueMonitor::Shared* s, uint64_t arm_at,
                   uint64_t timeout_ns) {
  if (s->test_sleep_delay_ns) {
    struct timespec d = Timespec(s->test_sleep_delay_ns);
    nanosleep(&d, nullptr);
  }
  s->asleep.store(true);
  // A fire left from before is not drained here (a read that finds
  // nothing, at nearly every sleep): one that came while a boost was held
  // was taken with the edges after it (DropEdgesAfterBoost()), and one that
  // came while awake otherwise -- a bound crossed, or a timer armed from an
  // earlier start -- is worth the look it brings at once.
  ArmHolTimerAt(s, arm_at);
  int ms = timeout_ns ? int((timeout_ns + 999999) / 1000000) : -1;
  struct epoll_event ev[3];
  // stop() sets stop before it writes wake_fd: a write that an edge
  // dropped after a boost took (DropEdgesAfterBoost()) is seen here.
  if (!s->stop.load())
    TakeEvents(s, ev, epoll_wait(s->watch_fd, ev, 3, ms), true);
  if (s->test_wake_delay_ns) {
    struct timespec d = Timespec(s->test_wake_delay_ns);
    nanosleep(&d, nullptr);
  }
  s->asleep.store(false);
  s->wakeups.fetch_add(1, std::memory_order_relaxed);
}

// Until the first prepare or stop() writes wake_fd (a write before the
// sleep leaves it readable: no wake-up is lost).
void SleepUntilWoken(QueueMonitor::Shared* s) {
  struct pollfd p = {s->wake_fd, POLLIN, 0};
  if (ppoll(&p, 1, nullptr, nullptr) > 0) Drain(s->wake_fd);
  s->wakeups.fetch_add(1, std::memory_order_relaxed);
}

void SleepNs(QueueMonitor::Shared* s, uint64_t ns) {
  struct pollfd p = {s->wake_fd, POLLIN, 0};
  struct timespec ts = Timespec(ns);
  if (ppoll(&p, 1, &ts, nullptr) > 0) Drain(s->wake_fd);
  s->wakeups.fetch_add(1, std::memory_order_relaxed);
}

// libuv's loop fields read below (uv/unix.h) have this shape from 1.45;
// every Node the package supports (package.json engines) has 1.46 or later.
static_assert(UV_VERSION_HEX >= 0x012d00, "struct uv__queue: libuv >= 1.45");

bool QueueEmpty(const struct uv__queue* q) { return q->next == q; }

// Whether an fd waiting to be (re)registered with epoll already has what its
// watcher asks for: the poll would return it at once (a connection accepted
// with its request already in, a write waiting for POLLOUT).  Every one is
// asked, 64 to a poll(): a burst of accepted connections is the common case
// of many, and the answer also decides whether the monitor watches the
// wait that follows (WatchArrivals()).
bool QueuedWatcherReady(const uv_loop_t* loop) {
  struct pollfd p[64];
  nfds_t n = 0;
  const struct uv__queue* head = &loop->watcher_queue;
  for (const struct uv__queue* q = head->next; q != head; q = q->next) {
    const auto* w = reinterpret_cast<const uv__io_t*>(
        reinterpret_cast<const char*>(q) - offsetof(uv__io_t, watcher_queue));
    p[n].fd = w->fd;
    p[n].events = short(w->pevents & (POLLIN | POLLPRI | POLLOUT));
    p[n].revents = 0;
    if (++n == sizeof(p) / sizeof(p[0]) || q->next == head) {
      if (poll(p, n, 0) > 0) return true;
      n = 0;
    }
  }
  return false;
}

// PollMayBlock() without asking the queued fds: no system call.
bool PollHasLeaveToBlock(const uv_loop_t* loop, int timeout) {
  if (timeout != 0) return true;
  if (QueueEmpty(&loop->watcher_queue)) return false;  // libuv's own answer
  return !loop->stop_flag && QueueEmpty(&loop->pending_queue) &&
         QueueEmpty(&loop->idle_handles) && !loop->closing_handles &&
         uv_loop_alive(loop);
}

// Whether the poll after this prepare may block (the loop is about to wait
// if nothing is ready for it either: the caller asks).  uv_run() asks
// libuv's internal uv__backend_timeout(); the public uv_backend_timeout()
// also answers 0 whenever fds wait to be (re)registered with epoll -- a
// connection accepted, a read started or stopped, a write that must wait:
// most of a server's long iterations -- and the poll then blocks all the
// same (libuv src/unix/core.c).  There the rest of the internal test is
// made on the loop's fields: callbacks pending, idle handles (Node's
// setImmediate), handles closing, uv_stop(); and those fds, not yet in the
// epoll set, are asked themselves.  A timer already due, a child to reap,
// and work that a later prepare callback queues are not looked at (more of
// libuv's internals for little): the boost then ends one iteration early,
// and such a callback, if long, is head-of-line time that boosts again.
// @leave: PollHasLeaveToBlock(), which the prepare has asked already.
bool PollMayBlock(const QueueMonitor::Shared* s, int timeout, bool leave) {
  return leave && (timeout != 0 || !QueuedWatcherReady(s->loop));
}

// Whether work waits behind the loop: an fd of its epoll set is ready
// (@length of them), not counting the monitor's own wake-up of the loop
// after a vote (vote_fd), which may still be unread after the vote ended.
// Node's own tasks posted to the loop (a V8 helper's result) are work
// waiting too; a JS timer come due is not seen (Node keeps one libuv timer
// for all of them, and libuv runs due timers only after its poll).
bool WorkWaits(const QueueMonitor::Shared* s, int length) {
  return length > 1 || (length == 1 && !Readable(s->vote_fd));
}

// Whether the loop is blocked in its poll: in its poll phase (in_poll alone
// also holds through the phase's callbacks), not running, and nothing ready
// for it.
bool LoopWaits(const QueueMonitor::Shared* s) {
  return s->in_poll.load() && !Readable(s->backend_fd) && !LoopRunnable(s);
}

// Whether the loop thread sleeps in a callback: its state is not runnable,
// and it is outside its poll phase, or in it (an I/O callback) while the
// loop's epoll set has @ready events -- requests queued behind the
// callback, or the monitor's own wake-up after a vote cast in it, which
// the loop reads only at its next poll.  A loop blocked in its poll with
// nothing ready waits instead (LoopWaits()).  The state is read after the
// ready scan: the scan takes the epoll set's lock, which an arrival's
// wake-up of a loop blocked in that poll holds until the loop is woken,
// so a loop being woken shows as runnable.  (One woken that has run and
// blocked again since is taken for asleep: its boost ends, as its prepare
// would end it.)  The stat is open while the monitor runs (Start() fails
// without it).
bool LoopSleepsInCallback(const QueueMonitor::Shared* s, int ready) {
  return (!s->in_poll.load() || ready > 0) && !LoopRunnable(s);
}

// A boosted loop found asleep (LoopSleepsInCallback()) at one look may only
// be waiting a moment on another thread of its process: V8's GC helpers,
// which share its core where the process is pinned to one (make demo, a
// cluster worker per core); a lock.  That thread's work is the loop's, and
// ending the boost at each such wait cost two ioctls and a look each, and
// left the rest at the base clock (a guest test: 56-69 of 70-80 short waits
// on a Worker ended one, 2026-12-03).  So the boost ends only once the loop
// has slept 32 samples (at most the overload bound) in one sleep: found
// asleep at a look, and at every look after it in the same iteration until
// one that long after (the monitor looks then), its CPU clock still where
// it was at the first.  Under TCG such waits last 9-30 ms, some more.  (A
// first version also held it while the process's other threads worked: on
// a 7.2 guest with Node 26 that held a 2 s sleep boosted up to 1.2 s, V8
// compiling in the background on the other core.  The next took looks that
// saw the clock move less than an eighth of the time between them for one
// sleep: a loop working little between many short waits could pass for one
// asleep.)
class SleepConfirm {
 public:
  // @s's options are set before its monitor starts.
  explicit SleepConfirm(const QueueMonitor::Shared* s)
      : span_(std::min(32 * s->sample_ns, s->max_delay_ns)) {}
  void Clear() { since_ = 0; }
  // At a look at @now that found the loop asleep in iteration @seq, its CPU
  // clock at @cpu (read after its state), the boost begun at @boost held:
  // whether it has slept since an earlier look long enough to end that
  // boost.  A clock that failed (0) or went back starts anew.
  bool Sleeps(uint64_t now, uint64_t cpu, uint64_t seq, uint64_t boost) {
    if (!since_ || seq != seq_ || boost != boost_ || cpu < cpu_ ||
        cpu - cpu_ > kSlackNs) {
      since_ = now;
      cpu_ = cpu;
      seq_ = seq;
      boost_ = boost;
      return false;
    }
    return now - since_ >= span_;
  }
  // After a Sleeps() at @now that did not end the boost: the time left
  // until the look that may.
  uint64_t Left(uint64_t now) const {
    return since_ && now - since_ < span_ ? span_ - (now - since_) : 0;
  }

 private:
  // What a spurious wake-up and a wait again cost the loop in CPU time,
  // whatever sampleUs: more is work done between two waits.
  static constexpr uint64_t kSlackNs = 100000;
  const uint64_t span_;
  uint64_t since_ = 0, cpu_ = 0, seq_ = 0, boost_ = 0;
};

// The monitor found the loop waiting, and the arrival that woke it (or an
// edge it dropped) disarmed the watch: the loop's prepare, already past,
// will not arm it again.  A wait that ended meanwhile may have had its
// check before this arm: disarmed here then, as the loop would have -- and
// armed again if the loop has since reached its next prepare, whose own arm
// the disarm may have undone (that prepare stores in_poll before it arms).
// Each arm is followed by the same test: one made after a check it did
// not see would stay armed through the loop's work.
void WatchWaitingLoop(QueueMonitor::Shared* s) {
  for (;;) {
    WatchArrivals(s);
    if (s->in_poll.load()) return;
    UnwatchAfterWait(s);
    if (!s->in_poll.load() || Readable(s->backend_fd)) return;
  }
}

// Iterations long next to a sample: the loop thread publishes where each
// begins and counts the backlog before it (OnPrepare).
bool SlowIterations(const QueueMonitor::Shared* s) {
  return s->avg_busy_ns.load(std::memory_order_relaxed) > s->sample_ns;
}

// How long a monitor holding a boost sleeps between looks: only the end is
// left to see, and the loop sees most ends itself (OnPrepare).  A look
// every 4 samples, or every typical iteration, whichever is longer, up to
// the nearer head-of-line bound.
uint64_t BoostedLook(const QueueMonitor::Shared* s) {
  uint64_t sample = s->sample_ns;
  uint64_t due = HolDue(s);
  uint64_t typical = s->avg_busy_ns.load(std::memory_order_relaxed);
  uint64_t cap = typical > sample ? (typical < due ? typical : due) : sample;
  return cap > 4 * sample ? cap : 4 * sample;
}

// Not boosted, after a look at @now that saw the loop's CPU clock at @cpu,
// @hol of it in the current iteration: sleep until work arrives at the
// waiting loop (WatchArrivals()) or the nearer head-of-line bound, counted
// from the iteration's own start (absolute on the loop's CPU clock).  A
// refused boost cannot be asked again before refused_until; a bound
// already crossed unboosted (refused) is looked at again then, or a sample
// later.  While the loop works (@progressed), a look at least every
// kRefreshNs keeps the baselines learning.
void SleepUntilDue(QueueMonitor::Shared* s, uint64_t cpu, uint64_t hol,
                   uint64_t now, bool progressed, uint64_t seq) {
  uint64_t due = HolDue(s);
  uint64_t refused = s->refused_until.load(std::memory_order_relaxed);
  // headOfLine 'waiting', past the threshold with nothing waiting: the next
  // arrival at the working loop is what boosts, or the overload bound.
  bool past_hol = s->hol_waiting && hol >= due && hol < s->max_delay_ns;
  if (past_hol) due = s->max_delay_ns;
  uint64_t at = NearerSaturation(s, cpu, due > hol ? cpu + (due - hol) : 0);
  DropEdgesAfterBoost(s);
  // Not while the loop's set is ready (an arm would fire at once, and
  // again at each look): refused, the boost is asked again at
  // refused_until; an arrival since the look boosts at the next look; the
  // monitor's own vote wake-up, unread, is no work: looks as far apart as
  // a boosted monitor's.
  int ready = past_hol && refused <= now ? CountReady(s->backend_fd) : -1;
  bool awaiting = ready == 0 && AwaitArrival(s, seq);
  // The loop reached its queue since the look: look again at once (the
  // bound and the timer above are the last iteration's).
  if (ready == 0 && !awaiting) return;
  if (!awaiting && WatchesBursts(s) && LoopWaits(s)) WatchWaitingLoop(s);
  uint64_t timeout = refused > now   ? refused - now
                     : at           ? 0
                     : s->sample_ns;
  if (ready > 0) timeout = WorkWaits(s, ready) ? s->sample_ns : BoostedLook(s);
  if (progressed && (!timeout || timeout > kRefreshNs)) timeout = kRefreshNs;
  // Without the CPU-time timer (timer_create failed) the bound is looked
  // at after as much wall-clock time, which CPU time never outruns.
  if (at && !s->timer_ready.load(std::memory_order_relaxed)) {
    uint64_t left = at - cpu > s->sample_ns ? at - cpu : s->sample_ns;
    if (!timeout || timeout > left) timeout = left;
  }
  SleepWatching(s, at, timeout);
  // Woken (an arrival, the overload bound, a look): the monitor decides
  // anew; the loop's check may disarm from here.  A prepare that took the
  // flag meanwhile also wrote wake_fd: a look follows anyway, so that
  // wake-up is dropped, not slept on.
  if (awaiting && !s->awaiting.exchange(false)) Drain(s->wake_fd);
}

// The loop thread sleeps in a callback: nothing to look at until it runs
// again.  The CPU-time timer wakes the monitor once it has run a
// sample's CPU time past @cpu (without that timer, a look as far apart as
// a boosted monitor's).
void SleepWhileLoopSleeps(QueueMonitor::Shared* s, uint64_t cpu) {
  DropEdgesAfterBoost(s);
  bool timed = s->timer_ready.load(std::memory_order_relaxed);
  SleepWatching(s, cpu + s->sample_ns, timed ? 0 : BoostedLook(s));
}

// Whether the overload count, at the loop's CPU time @cpu, is past its
// bound and has stood through the short waits of a loop whose work keeps
// ending in them (CountWait()).
bool CountSaturated(const QueueMonitor::Shared* s, uint64_t cpu) {
  return s->count_short_waits >= 2 && s->count_from &&
         cpu >= s->count_from + s->max_delay_ns;
}

// The overload count at the loop's CPU time @cpu taken over its last one
// to two bounds of CPU time: where it begins and the idle time in it (the
// count's own idle time scaled down to the bound, past two bounds).  The
// idle-share rule judges a wait on this (IdleLeft()), and the count kept
// through the wait is this (CountWait()): one reckoning for both.  Only
// for a count that began at or before @cpu (count_from set, not after it).
struct CountWindow {
  uint64_t from, idle_ns;
};

CountWindow WindowedCount(const QueueMonitor::Shared* s, uint64_t cpu) {
  uint64_t span = cpu - s->count_from;
  if (span <= 2 * s->max_delay_ns)
    return {s->count_from, s->count_idle_ns};
  return {cpu - s->max_delay_ns,
          uint64_t(double(s->count_idle_ns) * double(s->max_delay_ns) /
                   double(span))};
}

// How long a wait that begins at the loop's CPU time @cpu may last before
// it restarts the overload count (CountWait()): until the loop has been idle
// a tenth of the CPU time the count holds, taken over the last one to two
// bounds of it.  0: the next wait restarts it, however short.
uint64_t IdleLeft(const QueueMonitor::Shared* s, uint64_t cpu) {
  if (!s->count_from || cpu < s->count_from) return 0;
  CountWindow w = WindowedCount(s, cpu);
  uint64_t allowed = (cpu - w.from) / 10;
  return w.idle_ns < allowed ? allowed - w.idle_ns : 0;
}

// At a prepare whose poll may block, with a boost held: whether it stays
// on through the wait.  It does while the overload count says the loop is
// saturated and the loop has worked ten times its last wait since that
// wait: the wait is likely one of its short ones (a client's next request,
// the threadpool's answer, a timer), and ending the boost before each and
// voting again after it would cost two ioctls and two wake-ups of the
// monitor per callback.  A wait that turns out long ends it: the package's
// timer, unref'd, ends the poll once the wait has used up the idle time
// the count allows (IdleLeft(), rounded up to libuv's milliseconds, plus
// one so that it does however libuv rounds), and the check ends the boost
// (CountWait()).  So a saturation's end holds the core boosted that long
// into its idle wait (at most a fifth of the bound: 20 ms by default); a
// wait cut short by other work, a little work and another wait end it at
// the next prepare (not ten times the wait's work).
bool KeepThroughWait(QueueMonitor::Shared* s, uint64_t cpu) {
  if (s->count_short_waits < 2) return false;  // before the clock's call
  if (!cpu) cpu = LoopCpuNs(s);
  if (!cpu || !CountSaturated(s, cpu) ||
      cpu - s->last_wait_cpu < 10 * s->last_wait_ns)
    return false;
  uint64_t left = IdleLeft(s, cpu);
  if (!left) return false;
  s->kept_since = s->boosted_since.load(std::memory_order_acquire);
  if (!s->kept_since) return false;  // the monitor ended it meanwhile
  // The loop's clock is the iteration's start: the timer counts from now.
  uv_update_time(s->loop);
  uv_timer_start(&s->kept_timer, [](uv_timer_t*) {},
                 (left + 999999) / 1000000 + 1, 0);
  s->kept.fetch_add(1, std::memory_order_relaxed);
  return true;
}

// At the check after a poll.  The overload bound counts the loop's CPU
// time since the count began (count_from).  A wait of @waited (0: the
// poll did not block) that began at the loop's CPU time @cpu restarts the
// count once the loop has been idle a tenth of the CPU time the count
// holds (IdleLeft()): a loop busy nine tenths of its time is saturated
// whether its callbacks run back to back or each ends in a wait (the
// threadpool, a timer, a peer's quick answer, a closed-loop client's next
// request).  Before 2026-12-03 any wait of a sample or more restarted it,
// and a service under closed-loop overload, which waits for its clients a
// few ms every second or so, ran unboosted 100 ms of CPU time after each
// such wait.  The share is taken over the last one to two bounds of CPU
// time, not the whole count, the wait itself in full: a long saturation,
// or one long callback, must not carry a loop that has since become less
// busy.  A wake-up by a monitor's vote alone is no wait of the service's:
// its idle time counts, the wait does not.  Then the boost the prepare
// kept through the poll ends if the wait restarted the count, and a count
// past its bound after a wait that followed ten times its length of work
// votes (the monitor's timer fires where the count crosses its bound, not
// at each wait after it).
void CountWait(QueueMonitor::Shared* s, uint64_t now, uint64_t seq,
               uint64_t waited, uint64_t cpu) {
  bool restart = false, busy = false;
  if (waited && cpu && !s->only_vote_woke) {
    busy = cpu - s->last_wait_cpu >= 10 * waited;
    s->last_wait_ns = waited;
    s->last_wait_cpu = cpu;
  }
  if (waited && cpu) {
    restart = waited >= IdleLeft(s, cpu);
    if (!restart) {
      // IdleLeft() was not 0: the count began before @cpu.
      CountWindow w = WindowedCount(s, cpu);
      s->count_from = w.from;
      s->count_idle_ns = w.idle_ns + waited;
    }
    if (restart) {
      s->count_from = cpu;
      s->count_idle_ns = 0;
      s->count_short_waits = 0;
    } else if (!s->only_vote_woke && s->count_short_waits < 2) {
      s->count_short_waits++;  // one, or two and more
    }
    // What the monitor counts from: the count's start once it stood
    // through two short waits, else this wait.
    s->wait_cpu.store(s->count_short_waits >= 2 ? s->count_from : cpu,
                      std::memory_order_release);
  }
  if (s->kept_since) {
    uv_timer_stop(&s->kept_timer);
    if (restart && EndBoost(s, now, s->kept_since)) WakeMonitor(s);
    s->kept_since = 0;
  }
  if (busy && !restart && CountSaturated(s, cpu) &&
      !s->boosted_since.load(std::memory_order_relaxed) &&
      now >= s->refused_until.load(std::memory_order_relaxed) &&
      !BeginBoost(s, now, Why::kOverload, seq, false))
    WakeMonitor(s);  // to follow the boost (renewal, end)
}

}  // namespace

void QueueMonitor::OnPrepare(uv_prepare_t* handle) {
  auto* s = static_cast<Shared*>(handle->data);
  uint64_t now = uv_hrtime();
  uv_metrics_t m;

  if (s->work_began && now > s->work_began) {
    s->last_busy_ns.store(now - s->work_began, std::memory_order_relaxed);
  }
  s->work_began = 0;
  // The iteration that ends the warm-up wakes the monitor, which may sleep
  // up to the overload bound of CPU time before then: the baselines, and the
  // head-of-line threshold with them, begin there.  So does one at least
  // kRefreshNs after the monitor last looked: a loop that mostly waits, on
  // timers or (bursts 'threshold') on anything, gives a monitor asleep on
  // the head-of-line timer no look, and the baseline, learnt only at looks,
  // would keep what it learnt before.  At most one wake-up a second.
  uint64_t looked = s->looked_ns.load(std::memory_order_relaxed);
  if (s->iterations.fetch_add(1, std::memory_order_relaxed) + 1 ==
      kWarmupIterations)
    WakeMonitor(s);
  else if (now - looked > kRefreshNs && s->asleep.load() &&
           s->looked_ns.compare_exchange_strong(looked, now))
    WakeMonitor(s);
  if (!s->only_vote_woke) s->counted_seq.fetch_add(1, std::memory_order_relaxed);
  s->only_vote_woke = false;
  s->prepare_ns = now;
  s->idle_at_prepare = uv_metrics_idle_time(s->loop);
  if (!uv_metrics_info(s->loop, &m)) s->events_at_prepare = m.events;

  // The poll's timeout (libuv computes it right after the prepare phase;
  // 0 also while fds wait to be added to the epoll set: PollMayBlock()).
  int timeout = uv_backend_timeout(s->loop);
  bool slow = SlowIterations(s), asleep = s->asleep.load();
  uint64_t seq = s->seq.load(std::memory_order_relaxed) + 1;
  // Iterations whose head-of-line time is counted from their own start
  // (timed), the sleeping monitor's timer re-armed from there: long ones,
  // and while the monitor sleeps, those after a wait (an idle service's).
  // A loop of short iterations whose polls have a timeout and return at
  // once (saturated) pays nothing here or below: the timer the monitor
  // armed fires within one bound of CPU time, and the look it wakes for
  // counts on from there.
  bool timed = slow || (asleep && s->waited);
  // Also published, not re-armed (re-armed at each such prepare, the timer
  // of a loop that alternates immediates and short polls would never
  // fire): an iteration whose poll may block, unless the last poll had a
  // timeout and returned at once (after an immediate's iteration, say, or
  // one with fds to register).  Its work comes after the wait; a timer
  // armed from an earlier start fires early, and the look it brings counts
  // from the start published here, not from itself (which let a callback
  // cross the bound unseen for up to one bound more).  The first wait
  // after a poll that had a timeout and returned at once (one request that
  // came during the last callback is enough) is still timed from a look:
  // publishing there too would cost a saturated loop a system call per
  // iteration.  Published too: the iteration right after a wait, whether
  // or not the monitor sleeps (with the check's, at most two clock reads
  // per wait).  A monitor between its look and its sleep reads as awake
  // here, then sleeps on the timer of the iteration before: the look that
  // timer brings early must find this start, or it times the iteration
  // from itself, up to one bound late.  Iterations after it that cannot
  // wait either (an immediate's chain) are not published: those are the
  // saturated loop's, timed from a look.
  bool may_wait = PollHasLeaveToBlock(s->loop, timeout);
  // The first iteration since start() is where the overload bound counts
  // from until the loop first waits (wait_cpu).
  bool first = seq == 1;
  bool exact = first || timed || s->waited || (may_wait && !s->returned_at_once);
  s->timed_poll = timeout != 0;
  // Where the next iteration begins, for a monitor that may not look for a
  // while (one system call).
  uint64_t cpu = exact ? LoopCpuNs(s) : 0;
  if (exact) {
    s->prepare_cpu.store(cpu, std::memory_order_relaxed);
    s->prepare_cpu_seq.store(seq, std::memory_order_release);
  }
  if (first && cpu) {
    s->count_from = cpu;
    s->wait_cpu.store(cpu, std::memory_order_release);
  }
  s->in_poll.store(true);
  // The first iteration wakes the monitor, which waits for it to begin.
  if (s->seq.fetch_add(1) == 0) WakeMonitor(s);
  // The iteration the monitor watched for an arrival is over unboosted
  // (taken after seq: AwaitArrival()): it looks at the new one, and its
  // baseline learns the long one as one iteration; the watch ends unless
  // the loop waits.
  bool awaited = s->hol_waiting && s->awaiting.exchange(false);
  if (awaited) WakeMonitor(s);
  // The sleeping monitor wakes if the next iteration (a timer's, an I/O
  // event's) uses the nearer bound of this thread's CPU time; a shorter one
  // re-arms it here before it fires, until the overload bound is crossed.
  // Preemption never fires it.
  bool boosted = s->boosted_since.load(std::memory_order_acquire) != 0;
  if (asleep && timed && cpu) {
    // Past the overload bound since the last wait already, unboosted: the
    // look is due now.  Re-armed, the timer would move ahead at each
    // iteration shorter than the nearer bound (the kernel checks it at its
    // tick, seldom inside the one short iteration that crosses the bound),
    // and the crossing be seen at the next refresh, up to a second late.
    // Once for each wait the bound counts from.  Past it and woken for it
    // (or boosted, or refused), the monitor's own arm stands: the one a
    // look that found the loop asleep in a callback made a sample ahead
    // (SleepWhileLoopSleeps()).  Re-armed here a head-of-line threshold
    // ahead at every iteration (until 2026-12-07), it never fired, and the
    // look came at the refresh.
    uint64_t w = s->wait_cpu.load(std::memory_order_relaxed);
    bool past = w && cpu >= w + s->max_delay_ns;
    if (past && w != s->saturation_woken && !boosted &&
        now >= s->refused_until.load(std::memory_order_relaxed)) {
      s->saturation_woken = w;
      WakeMonitor(s);
    } else if (!past) {
      ArmHolTimerAt(s, NearerSaturation(s, cpu, cpu + HolDue(s)));
    }
  }
  // Events ready now are what the poll returns at once: a backlog that
  // formed while the last iteration ran.  With slow iterations the loop
  // counts it here (one system call) and boosts it before processing it,
  // whether or not an arrival woke the monitor meanwhile.
  if (slow && !boosted &&
      s->iterations.load(std::memory_order_relaxed) >= kWarmupIterations &&
      now >= s->refused_until.load(std::memory_order_relaxed)) {
    int length = CountReady(s->backend_fd);
    double avg_length = s->avg_events_x256.load() / 256.0;
    if (length >= 2 && length > s->factor * avg_length &&
        !BeginBoost(s, now, Why::kLength, seq, false)) {
      // The monitor may sleep until the next arrival (or be about to):
      // woken, it follows the boost from now (its renewal, its end while
      // the loop stays busy).
      WakeMonitor(s);
    }
    // Nothing to end; with nothing ready the poll may block, and work that
    // comes to it is the monitor's to see.
    if (WatchesBursts(s) && !length && PollMayBlock(s, timeout, may_wait))
      WatchArrivals(s);
    else if (awaited)
      UnwatchAfterWait(s);
    return;
  }
  // The loop is about to wait with nothing ready: the backlog has drained,
  // and the boost ends here, not a sample later; the monitor watches for
  // the work that comes next (bursts 'arrival').  With neither to do, no
  // system call is made to ask.
  bool watch = WatchesBursts(s);
  if ((boosted || watch) && PollMayBlock(s, timeout, may_wait) &&
      !Readable(s->backend_fd)) {
    // The monitor holding the boost sleeps BoostedLook() on wake_fd alone
    // (no timer, no watch): woken now, it looks once and sleeps on the
    // head-of-line timer and the watch, instead of missing what comes next
    // until its look is due.  The look it would take then is taken now.
    if (boosted && !KeepThroughWait(s, cpu)) {
      s->wait_expected.store(seq, std::memory_order_relaxed);
      if (EndBoost(s, now)) WakeMonitor(s);
    }
    if (watch) WatchArrivals(s);
    else if (awaited) UnwatchAfterWait(s);
  } else if (awaited) {
    UnwatchAfterWait(s);
  }
}

void QueueMonitor::OnCheck(uv_check_t* handle) {
  auto* s = static_cast<Shared*>(handle->data);
  uint64_t now = uv_hrtime();
  uint64_t idle = uv_metrics_idle_time(s->loop);
  uint64_t began = now, events = 0, waited = 0, wait_at = 0;
  uv_metrics_t m;

  // Node keeps libuv's idle-time metric: the wait ended idle - idle_at_prepare
  // after prepare, and this iteration's work began then.
  s->waited = false;
  if (s->prepare_ns && idle) {
    waited = idle - s->idle_at_prepare;
    began = s->prepare_ns + waited;
    if (began > now) began = now;
    s->waited = waited > 0;
  }
  // The poll had a timeout and returned at once (saturated): libuv (every
  // version the package builds against) records idle time only for a poll
  // that a first one without timeout found nothing for.  A poll whose
  // public timeout was 0 because fds waited to be registered is not taken
  // for one, whatever it did: Node's start-up iteration is one (its fds
  // ready at once), and the timer's wait after it went unpublished.  Such
  // polls cost a saturated loop that registers fds at each iteration a
  // system call per iteration (the next prepare publishes).
  s->returned_at_once = s->timed_poll && !s->waited;
  // A wait whose prepare did not publish where its iteration begins (the
  // poll before had a timeout and returned at once: OnPrepare) publishes it
  // here once it has waited, for a system call after a wait, not one per
  // saturated iteration.  The loop used no CPU time while it waited, so the
  // timers and immediates after this check are timed from their own
  // iteration, not from the look that a timer armed from an earlier start
  // brings (up to one bound late).  Later than the iteration's start by
  // the poll phase's callbacks: the monitor keeps an earlier start it saw
  // (the look an arrival woke it for, or one during the wait).
  // The CPU time where the wait was (the loop used none during it), where
  // the overload bound counts from if the wait restarts it (CountWait()):
  // the prepare's, published just before the poll, or the one read here,
  // later by the poll phase's callbacks.
  uint64_t seq = s->seq.load(std::memory_order_relaxed);
  if (!s->waited &&
      s->wait_expected.load(std::memory_order_relaxed) == seq)
    WakeMonitor(s);
  if (s->waited) {
    s->waits.fetch_add(1, std::memory_order_relaxed);
    uint64_t cpu;
    if ((s->prepare_cpu_seq.load(std::memory_order_relaxed) & ~kAtCheck) !=
        seq) {
      cpu = LoopCpuNs(s);
      if (cpu) {
        s->prepare_cpu.store(cpu, std::memory_order_relaxed);
        s->prepare_cpu_seq.store(seq | kAtCheck, std::memory_order_release);
      }
    } else {
      cpu = s->prepare_cpu.load(std::memory_order_relaxed);
    }
    wait_at = cpu;
  }
  if (s->prepare_ns && !uv_metrics_info(s->loop, &m))
    events = m.events - s->events_at_prepare;
  // An iteration that only took a vote's wake-up is none of the service's:
  // neither baseline counts it (its CPU time, if a due timer ran after it,
  // goes to the next iteration's), and one that took more does not count
  // the wake-up among its events.
  if (s->vote_woke && events) events--;
  s->only_vote_woke = s->vote_woke && events == 0;
  s->vote_woke = false;
  CountWait(s, now, seq, waited, wait_at);
  if (!s->only_vote_woke) {
    s->events.Add(double(events), now);
    s->avg_events_x256.store(uint64_t(s->events.Mean() * 256),
                             std::memory_order_relaxed);
  }
  s->work_began = began;
  s->in_poll.store(false);
  if (!s->hol_waiting) {
    UnwatchAfterWait(s);
  } else if (!s->awaiting.load()) {
    UnwatchAfterWait(s);
    // A monitor that began to await meanwhile (AwaitArrival()) may have
    // armed before this disarm: the flag it set is seen here then.
    if (s->awaiting.load()) WatchArrivals(s);
  }
}

void QueueMonitor::Monitor(Shared* s) {
  uint64_t seen_seq = ~0ull;
  uint64_t hol_base = LoopCpuNs(s);
  // hol_base is a point of the current iteration (read after its prepare),
  // not of the one before, which a look preempted between reading the
  // clock and seq can take for it.
  bool base_in_seq = false;
  uint64_t last_cpu = hol_base, last_now = MonoNs();
  bool woke = false;  // the last sleep was the long one
  SleepConfirm sleep_confirm(s);
  // The head-of-line baseline, the loop thread's CPU time per iteration:
  // between two looks, the CPU it used over the iterations it began.
  Baseline busy;
  // counted_seq and the loop's CPU time at the last update; 0: no
  // iteration seen yet (counted_seq is 1 or more from the first prepare).
  uint64_t busy_counted = 0, busy_cpu = hol_base;

  while (!s->stop.load()) {
    uint64_t seq_before = s->seq.load();
    uint64_t now = MonoNs(), cpu = LoopCpuNs(s);
    uint64_t seq = s->seq.load();
    bool in_poll = s->in_poll.load();
    s->looked_ns.store(now, std::memory_order_relaxed);

    if (seq == 0) {
      // The loop has not reached its first prepare since start() (a
      // preload starts us before the main script): the script's start-up
      // work is no backlog -- nothing waits behind it yet -- and no
      // iteration either (see busy_counted below).  The first prepare wakes
      // us, or stop(): no look before.
      hol_base = last_cpu = cpu;
      last_now = now;
      SleepUntilWoken(s);
      continue;
    }

    // The loop reached its queue (prepare) since the last look: count from
    // here (at most a look's interval of CPU time too little), or from the
    // prepare itself where the loop published it.  A start published at
    // the check after a wait (OnCheck) is later than the iteration's by
    // the poll phase's callbacks: a look before that check (an arrival's,
    // one during the wait) saw an earlier point of it, which is kept.
    if (seq != seen_seq) {
      hol_base = cpu;
      base_in_seq = seq_before == seq;
    }
    uint64_t published = s->prepare_cpu_seq.load(std::memory_order_acquire);
    if ((published & ~kAtCheck) == seq) {
      uint64_t at = s->prepare_cpu.load(std::memory_order_relaxed);
      if (at <= cpu &&
          (!(published & kAtCheck) || !base_in_seq || at < hol_base)) {
        hol_base = at;
        base_in_seq = true;
      }
    }
    uint64_t counted = s->counted_seq.load(std::memory_order_relaxed);
    if (busy_counted == 0) {
      // The first look since the loop began: what ran before its first
      // prepare was start-up work, no iteration.  Count from that prepare
      // where the loop published it, else from here.
      busy_counted = counted;
      busy_cpu = hol_base;
    } else if (counted != busy_counted) {
      // Iterations above the threshold teach the baseline at an eighth of
      // the weight: a step in the work stays boosted for tens of seconds,
      // and is learnt only if it stays.  A vote's wake-up is no iteration
      // here (counted_seq): its CPU time joins the next one's.
      double x = double(cpu - busy_cpu), n = double(counted - busy_counted);
      double w = x / n > double(HolThreshold(s)) ? 0.125 : 1;
      busy.Add(x * w, now, n * w);
      s->avg_busy_ns.store(uint64_t(busy.Mean()), std::memory_order_relaxed);
      busy_counted = counted;
      busy_cpu = cpu;
    }
    bool progressed = (cpu - last_cpu) * 8 > now - last_now;
    bool ran_most = (cpu - last_cpu) * 8 >= (now - last_now) * 7;
    bool new_seq = seq != seen_seq;
    seen_seq = seq;
    last_cpu = cpu;
    last_now = now;

    // Just woken, look at least once more before deciding the loop waits:
    // its callback may have read the fd already.  (Only a monitor holding
    // a boost looks twice in a row: without one it sleeps after each look,
    // and woke stays set.)
    if (!woke && in_poll && !progressed && !new_seq && LoopWaits(s)) {
      // The loop waits and nothing is queued.
      EndBoost(s, now);
      sleep_confirm.Clear();
      // The timer counts the iteration the wait ends in.
      DropEdgesAfterBoost(s);
      if (s->seq.load() == seq) {
        if (WatchesBursts(s)) WatchWaitingLoop(s);
        SleepWatching(s, cpu + HolDue(s), 0);
      }
      last_cpu = LoopCpuNs(s);
      last_now = MonoNs();
      // Still the iteration that waited: what it ran since is all this
      // iteration's work (a CPU-time timer that woke us: the threshold of
      // it already), for the loop used no CPU while it waited.
      base_in_seq = s->seq.load() == seq;
      hol_base = base_in_seq ? cpu : last_cpu;
      woke = true;
      continue;
    }
    woke = false;

    s->samples.fetch_add(1, std::memory_order_relaxed);
    uint64_t hol = cpu - hol_base;
    // The loop's CPU time since its poll last blocked: past the overload
    // bound, the loop is saturated whatever each iteration's length.  Not
    // while a wait its prepare expects has not reached its check (wait_cpu
    // is the old run's start until then).
    uint64_t wait_cpu = s->wait_cpu.load(std::memory_order_acquire);
    uint64_t unwaited = wait_cpu && cpu > wait_cpu ? cpu - wait_cpu : 0;
    bool saturated = unwaited >= s->max_delay_ns &&
                     !(in_poll && s->wait_expected.load(std::memory_order_relaxed) == seq);
    bool overloaded = hol >= s->max_delay_ns || saturated;
    int length = CountReady(s->backend_fd);
    // The loop thread asleep in a callback (Atomics.wait, execSync, a
    // synchronous read): nothing of the loop runs on its core, whatever the
    // signals say.  Its CPU clock moved less than an eighth of the time
    // since the last look, and its state says so (LoopSleepsInCallback()).
    // No boost begins; one held ends once the sleep is confirmed.
    // A boost held asks even a loop that worked since the last look (the
    // sleep's confirmation begins at once), unless it ran nearly all the
    // time: a saturated loop's looks read no state.
    // Acquire: a boost the loop began (OnPrepare) published its boost_seq
    // before it, and the hold below reads that.
    uint64_t boost = s->boosted_since.load(std::memory_order_acquire);
    bool boosted = boost != 0;
    bool sleeping = (!progressed || (boosted && !ran_most)) &&
                    LoopSleepsInCallback(s, length);
    bool asleep = !progressed && sleeping;
    if (!sleeping) sleep_confirm.Clear();
    double avg_length = s->avg_events_x256.load() / 256.0;
    double avg_busy = double(s->avg_busy_ns.load());
    uint64_t threshold = HolThreshold(s);
    bool warm = s->iterations.load(std::memory_order_relaxed) >= kWarmupIterations;
    // The clock read again after the state: the loop may have run between
    // the look's first read and its stop.
    bool sleeps = sleeping && boosted &&
                  sleep_confirm.Sleeps(now, LoopCpuNs(s), seq, boost);

    if (!boosted && !asleep &&
        now >= s->refused_until.load(std::memory_order_relaxed)) {
      bool by_length = warm && length >= 2 && length > s->factor * avg_length;
      bool by_hol = warm && hol >= threshold &&
                    (!s->hol_waiting || WorkWaits(s, length));
      // A loop blocked in its poll is not saturated, whatever wait_cpu
      // says before its check: the look after a sleep, refused or not,
      // asks (two system calls, only at such a crossing).
      bool by_overload = hol >= s->max_delay_ns || (saturated && !LoopWaits(s));
      if (by_length || by_hol || by_overload) {
        Why why = by_length ? Why::kLength
                  : by_hol  ? Why::kHeadOfLine
                            : Why::kOverload;
        if (s->test_vote_delay_ns) {
          struct timespec d = Timespec(s->test_vote_delay_ns);
          nanosleep(&d, nullptr);
          now = MonoNs();
        }
        BeginBoost(s, now, why, seq);
        boosted = s->boosted_since.load(std::memory_order_relaxed) != 0;
      }
    } else if (boosted) {
      // Held through the iteration it began in (the backlog, the long
      // callback, is still being processed), then while any signal is
      // still above its baseline; the loop ends it itself when it is about
      // to wait again.
      bool hold = seq == s->boost_seq.load(std::memory_order_relaxed) ||
                  (length >= 2 && length > avg_length) ||
                  double(hol) > avg_busy || overloaded ||
                  s->last_busy_ns.load(std::memory_order_relaxed) >=
                      (threshold < s->max_delay_ns ? threshold : s->max_delay_ns);
      if (!hold || sleeps) {
        // The boost this look saw, not one the loop began since.
        if (EndBoost(s, now, boost) && hold)
          s->ended_asleep.fetch_add(1, std::memory_order_relaxed);
        boosted = false;
      } else {
        RenewBoost(s, now);
        boosted = s->boosted_since.load(std::memory_order_relaxed) != 0;
      }
    }
    if (boosted) {
      s->after_boost = true;
      uint64_t look = BoostedLook(s);
      // Sleeps() was asked at this look whenever the loop was sleeping.
      uint64_t left = sleeping ? sleep_confirm.Left(now) : 0;
      SleepNs(s, left && left < look ? left : look);
    } else if (asleep || sleeps) {
      SleepWhileLoopSleeps(s, cpu);
      woke = true;
    } else {
      SleepUntilDue(s, cpu, hol, now, progressed, seq);
      woke = true;
    }
  }
  EndBoost(s, MonoNs());
}

static void* MonitorThread(void* arg) {
  auto* s = static_cast<QueueMonitor::Shared*>(arg);
  pthread_setname_np(pthread_self(), "eventboost-mon");
  // The CPU-time timer signals this thread only (all signals are blocked
  // here: it stays pending for the signalfd).
  struct sigevent sev = {};
  sev.sigev_notify = SIGEV_THREAD_ID;
  sev.sigev_signo = HolSignal();
  sev._sigev_un._tid = pid_t(syscall(SYS_gettid));
  if (!timer_create(s->loop_clock, &sev, &s->hol_timer))
    s->timer_ready.store(true, std::memory_order_release);
  QueueMonitor::Monitor(s);
  return nullptr;
}

static void CloseFd(int* fd) {
  if (*fd >= 0) close(*fd);
  *fd = -1;
}

// The monitor's descriptors: once its thread is joined and its vote_cast
// closing (libuv's uv_close() of a poll handle takes its fd out of the
// loop's set at once), nothing uses them.
static void CloseFds(QueueMonitor::Shared* s) {
  CloseFd(&s->wake_fd);
  CloseFd(&s->watch_fd);
  CloseFd(&s->vote_fd);
  CloseFd(&s->signal_fd);
  CloseFd(&s->stat_fd);
}

static void FreeShared(QueueMonitor::Shared* s) {
  CloseFds(s);
  if (s->timer_ready.load()) timer_delete(s->hol_timer);
  delete s;
}

static void OnClose(uv_handle_t* handle) {
  auto* s = static_cast<QueueMonitor::Shared*>(handle->data);
  if (--s->open_handles) return;
  void (*closed)(void*) = s->closed;
  void* arg = s->closed_arg;
  FreeShared(s);
  if (closed) closed(arg);
}

int QueueMonitor::Start(uv_loop_t* loop, eb_client* client, double factor,
                        unsigned sample_us, unsigned max_delay_ms,
                        bool hol_waiting, bool bursts_at_threshold,
                        unsigned test_vote_delay_us,
                        unsigned test_sleep_delay_us,
                        unsigned test_wake_delay_us) {
  int fd = uv_backend_fd(loop);
  if (fd < 0) return -ENOTSUP;
  // The overload bound across iterations rests on libuv's idle-time metric
  // (OnCheck): Node enables it on every loop it runs; on a loop without it
  // no wait would ever be seen.  Setting a flag, and idempotent.
  uv_loop_configure(loop, UV_METRICS_IDLE_TIME);

  auto* s = new Shared();
  s->loop = loop;
  s->client = client;
  s->factor = factor;
  s->sample_ns = uint64_t(sample_us) * 1000;
  s->max_delay_ns = uint64_t(max_delay_ms) * 1000000;
  s->hol_waiting = hol_waiting;
  s->bursts_at_threshold = bursts_at_threshold;
  s->test_vote_delay_ns = uint64_t(test_vote_delay_us) * 1000;
  s->test_sleep_delay_ns = uint64_t(test_sleep_delay_us) * 1000;
  s->test_wake_delay_ns = uint64_t(test_wake_delay_us) * 1000;
  s->backend_fd = fd;
  s->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  s->vote_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  sigset_t sig;
  sigemptyset(&sig);
  sigaddset(&sig, HolSignal());
  s->signal_fd = signalfd(-1, &sig, SFD_CLOEXEC | SFD_NONBLOCK);
  s->watch_fd = epoll_create1(EPOLL_CLOEXEC);
  if (s->wake_fd < 0 || s->vote_fd < 0 || s->signal_fd < 0 || s->watch_fd < 0) {
    int err = -errno;
    FreeShared(s);
    return err;
  }
  // Edge-triggered on the loop's set: woken when an fd in it turns ready,
  // not by what is ready already (a busy loop's backlog) nor by the loop's
  // own (level-triggered) polls of it; one-shot, armed again when the loop
  // is about to wait (WatchArrivals()).  With bursts 'threshold' it begins
  // disarmed: no arrival is watched for until one is awaited.
  uint32_t arrival = bursts_at_threshold ? 0u : uint32_t(EPOLLIN);
  uint64_t first_arm = arrival ? ++s->watch_generation : 0;
  s->watch_armed.store(first_arm);
  const struct { int fd; uint32_t events; uint64_t data; } watched[] = {
      {fd, arrival | EPOLLET | EPOLLONESHOT, kWatchTag | first_arm},
      {s->signal_fd, EPOLLIN, uint64_t(s->signal_fd)},
      {s->wake_fd, EPOLLIN, uint64_t(s->wake_fd)}};
  for (const auto& w : watched) {
    struct epoll_event ev = {};
    ev.events = w.events;
    ev.data.u64 = w.data;
    if (epoll_ctl(s->watch_fd, EPOLL_CTL_ADD, w.fd, &ev)) {
      int err = -errno;
      FreeShared(s);
      return err;
    }
  }
  char stat[64];
  snprintf(stat, sizeof(stat), "/proc/self/task/%ld/stat", long(syscall(SYS_gettid)));
  // Without it a loop asleep in a callback looks like one running, and
  // would keep its boost through the sleep: no monitor rather than that.
  s->stat_fd = open(stat, O_RDONLY | O_CLOEXEC);
  if (s->stat_fd < 0) {
    int err = -errno;
    FreeShared(s);
    return err;
  }
  uv_metrics_t m;
  if (!uv_metrics_info(loop, &m)) s->events_at_prepare = m.events;
  int err = pthread_getcpuclockid(pthread_self(), &s->loop_clock);
  if (err) {
    FreeShared(s);
    return -err;
  }

  // Before the monitor exists: it may cast a vote as soon as it runs.
  err = uv_poll_init(loop, &s->vote_cast, s->vote_fd);
  if (err) {
    FreeShared(s);
    return err;
  }
  s->vote_cast.data = s;
  uv_poll_start(&s->vote_cast, UV_READABLE, [](uv_poll_t* p, int, int) {
    auto* sh = static_cast<Shared*>(p->data);
    Drain(sh->vote_fd);
    sh->vote_woke = true;
  });
  uv_unref(reinterpret_cast<uv_handle_t*>(&s->vote_cast));

  // The monitor takes no signals: they belong to the loop thread.
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  err = pthread_create(&s->thread, nullptr, MonitorThread, s);
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  if (err) {
    s->open_handles = 1;  // OnClose() frees it
    uv_close(reinterpret_cast<uv_handle_t*>(&s->vote_cast), OnClose);
    return -err;
  }

  uv_prepare_init(loop, &s->prepare);
  uv_check_init(loop, &s->check);
  uv_timer_init(loop, &s->kept_timer);
  s->prepare.data = s;
  s->check.data = s;
  s->kept_timer.data = s;
  s->open_handles = 4;
  uv_prepare_start(&s->prepare, OnPrepare);
  uv_check_start(&s->check, OnCheck);
  // Measuring the loop must not keep it alive.
  uv_unref(reinterpret_cast<uv_handle_t*>(&s->prepare));
  uv_unref(reinterpret_cast<uv_handle_t*>(&s->check));
  uv_unref(reinterpret_cast<uv_handle_t*>(&s->kept_timer));
  shared_ = s;
  return 0;
}

QueueMonitor::Counters QueueMonitor::counters() const {
  Counters c = last_;
  Shared* s = shared_;
  if (!s) return c;

  uint64_t since, boosted_ns;
  {
    // Under the vote: a boost the monitor ends between the two loads
    // would be counted twice (closed, and still open).  The loop thread
    // may wait here behind a vote's ioctl, as in EndBoost().
    std::lock_guard<std::mutex> lock(s->vote);
    since = s->boosted_since.load(std::memory_order_relaxed);
    boosted_ns = s->boosted_ns.load(std::memory_order_relaxed);
  }
  c.boosts = s->boosts.load();
  c.boosted_ns = boosted_ns + (since ? MonoNs() - since : 0);
  c.by_length = s->by_length.load();
  c.by_head_of_line = s->by_hol.load();
  c.by_overload = s->by_overload.load();
  c.refused = s->refused.load();
  c.errors = s->errors.load();
  c.samples = s->samples.load();
  c.wakeups = s->wakeups.load();
  c.arrivals = s->arrivals.load();
  c.waits = s->waits.load();
  c.kept = s->kept.load();
  c.ended_asleep = s->ended_asleep.load();
  c.renewed = s->renewed.load();
  c.iterations = s->iterations.load();
  c.boosted_now = since != 0;
  c.avg_length = s->avg_events_x256.load() / 256.0;
  c.avg_busy_us = s->avg_busy_ns.load() / 1000.0;
  c.last_error = s->last_error.load();
  return c;
}

void QueueMonitor::Stop(void (*closed)(void*), void* arg) {
  Shared* s = shared_;
  if (!s) {
    if (closed) closed(arg);
    return;
  }

  s->stop.store(true);
  WakeMonitor(s);
  pthread_join(s->thread, nullptr);  // it ends a vote still held
  if (s->timer_ready.exchange(false)) timer_delete(s->hol_timer);
  last_ = counters();
  last_.boosted_now = false;
  uv_prepare_stop(&s->prepare);
  uv_check_stop(&s->check);
  s->closed = closed;
  s->closed_arg = arg;
  uv_close(reinterpret_cast<uv_handle_t*>(&s->prepare), OnClose);
  uv_close(reinterpret_cast<uv_handle_t*>(&s->check), OnClose);
  uv_close(reinterpret_cast<uv_handle_t*>(&s->vote_cast), OnClose);
  uv_close(reinterpret_cast<uv_handle_t*>(&s->kept_timer), OnClose);
  // Now, not at the close phase: start() after start() in one tick would
  // hold five descriptors per replaced monitor until then.
  CloseFds(s);
  shared_ = nullptr;
}

}  // namespace eventboost
