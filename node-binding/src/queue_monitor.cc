// SPDX-License-Identifier: LGPL-2.1-or-later
#include "queue_monitor.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include <atomic>

#include "eventboost.h"
#include "mono_clock.h"

namespace eventboost {

// Weight of one iteration in the running averages: about the last 32
// iterations count, so the thresholds follow the load within milliseconds
// under load and a single long callback barely moves them.
static constexpr double kAvgWeight = 1.0 / 32;
// No decision before the averages have seen this many iterations.
static constexpr uint64_t kWarmupIterations = 32;

struct QueueMonitor::Shared {
  uv_prepare_t prepare;
  uv_check_t check;
  int open_handles = 0;
  uv_loop_t* loop = nullptr;
  eb_client* client = nullptr;
  double factor = 2.5;
  uint64_t sample_ns = 1000000;
  int wake_fd = -1;     // eventfd: the loop or stop() wakes the monitor
  int backend_fd = -1;  // the loop's epoll fd: readable when events wait
  clockid_t loop_clock;  // the loop thread's CPU-time clock
  pthread_t thread;

  // Published by the loop thread.
  std::atomic<uint64_t> seq{0};          // bumped when the loop goes to wait
  std::atomic<bool> in_poll{false};      // from prepare to check
  std::atomic<uint64_t> busy_since{0};   // this iteration's work began (ns)
  std::atomic<uint64_t> events{0};       // events this iteration's poll returned
  std::atomic<uint64_t> avg_events_x256{0};
  std::atomic<uint64_t> avg_busy_ns{0};
  std::atomic<uint64_t> iterations{0};

  // Loop thread only.
  uint64_t prepare_ns = 0, idle_at_prepare = 0, events_at_prepare = 0;
  uint64_t work_began = 0;
  double avg_events = 0, avg_busy = 0;

  // Monitor <-> loop and stop().
  std::atomic<bool> monitor_sleeping{false};
  std::atomic<bool> stop{false};

  // Written by the monitor, read by counters().
  std::atomic<uint64_t> boosts{0}, boosted_ns{0}, by_length{0}, by_hol{0};
  std::atomic<uint64_t> refused{0}, errors{0}, samples{0}, wakeups{0};
  std::atomic<uint64_t> boosted_since{0};  // 0: not boosted
  std::atomic<int> last_error{0};
};

static void Wake(int fd) {
  uint64_t one = 1;
  ssize_t r = write(fd, &one, sizeof(one));
  (void)r;  // EAGAIN: a wake-up is already pending
}

void QueueMonitor::OnPrepare(uv_prepare_t* handle) {
  auto* s = static_cast<Shared*>(handle->data);
  uint64_t now = uv_hrtime();
  uv_metrics_t m;

  if (s->work_began && now > s->work_began) {
    s->avg_busy += (double(now - s->work_began) - s->avg_busy) * kAvgWeight;
    s->avg_busy_ns.store(uint64_t(s->avg_busy), std::memory_order_relaxed);
  }
  s->work_began = 0;
  s->events.store(0, std::memory_order_relaxed);
  s->busy_since.store(0, std::memory_order_relaxed);
  s->in_poll.store(true);
  s->seq.fetch_add(1);
  s->iterations.fetch_add(1, std::memory_order_relaxed);
  s->prepare_ns = now;
  s->idle_at_prepare = uv_metrics_idle_time(s->loop);
  if (!uv_metrics_info(s->loop, &m)) s->events_at_prepare = m.events;
}

void QueueMonitor::OnCheck(uv_check_t* handle) {
  auto* s = static_cast<Shared*>(handle->data);
  uint64_t now = uv_hrtime();
  uint64_t idle = uv_metrics_idle_time(s->loop);
  uint64_t began = now, events = 0;
  uv_metrics_t m;

  // Node keeps libuv's idle-time metric: the wait ended idle - idle_at_prepare
  // after prepare, and the I/O callbacks run since then are this
  // iteration's work.  Without the metric, count from here.
  if (s->prepare_ns && idle) {
    began = s->prepare_ns + (idle - s->idle_at_prepare);
    if (began > now) began = now;
  }
  if (s->prepare_ns && !uv_metrics_info(s->loop, &m))
    events = m.events - s->events_at_prepare;
  s->avg_events += (double(events) - s->avg_events) * kAvgWeight;
  s->avg_events_x256.store(uint64_t(s->avg_events * 256),
                           std::memory_order_relaxed);
  s->work_began = began;
  s->events.store(events, std::memory_order_relaxed);
  s->busy_since.store(began, std::memory_order_relaxed);
  s->in_poll.store(false);
  // Pairs with the monitor's store of monitor_sleeping and its re-check of
  // in_poll: one of the two sides sees the other.  A queue long enough to
  // boost for wakes it too, whatever it sleeps on.
  bool long_queue = s->iterations.load(std::memory_order_relaxed) >= kWarmupIterations &&
                    events >= 2 && double(events) > s->factor * s->avg_events &&
                    !s->boosted_since.load(std::memory_order_relaxed);
  if (long_queue || s->monitor_sleeping.load()) Wake(s->wake_fd);
}

// CPU time the loop thread has used: it grows only while the loop runs.
static uint64_t LoopCpuNs(const QueueMonitor::Shared* s) {
  struct timespec ts;
  if (clock_gettime(s->loop_clock, &ts)) return 0;
  return uint64_t(ts.tv_sec) * 1000000000u + ts.tv_nsec;
}

static bool Readable(int fd) {
  struct pollfd p = {fd, POLLIN, 0};
  return poll(&p, 1, 0) > 0 && (p.revents & POLLIN);
}

static void BeginBoost(QueueMonitor::Shared* s, uint64_t now, bool by_length,
                       uint64_t seq, uint64_t* refused_seq);

static void EndBoost(QueueMonitor::Shared* s, uint64_t now) {
  uint64_t since = s->boosted_since.load(std::memory_order_relaxed);
  if (!since) return;
  eb_queue_idle(s->client);
  s->boosted_ns.fetch_add(now - since, std::memory_order_relaxed);
  s->boosted_since.store(0, std::memory_order_relaxed);
}

static void BeginBoost(QueueMonitor::Shared* s, uint64_t now, bool by_length,
                       uint64_t seq, uint64_t* refused_seq) {
  int err = eb_queue_busy(s->client);
  if (!err) {
    s->boosted_since.store(now, std::memory_order_relaxed);
    s->boosts.fetch_add(1, std::memory_order_relaxed);
    (by_length ? s->by_length : s->by_hol).fetch_add(1,
                                                     std::memory_order_relaxed);
    return;
  }
  // Budget spent (EBUSY) or worse: do not retry within this iteration.
  *refused_seq = seq;
  (err == -EBUSY ? s->refused : s->errors).fetch_add(1,
                                                     std::memory_order_relaxed);
  s->last_error.store(err, std::memory_order_relaxed);
}

// Sleep until the loop has work: its backend fd turns readable (I/O), or
// the loop thread wakes us from its check handle (a timer fired), or
// stop().  Returns true when I/O woke us while the loop still sat in its
// poll phase: its work (I/O callbacks) begins about now.
static bool SleepWhileIdle(QueueMonitor::Shared* s, uint64_t seq) {
  bool io = false;

  s->monitor_sleeping.store(true);
  if (s->seq.load() == seq && s->in_poll.load() && !s->stop.load()) {
    struct pollfd p[2] = {{s->backend_fd, POLLIN, 0}, {s->wake_fd, POLLIN, 0}};
    if (poll(p, 2, -1) > 0) {
      uint64_t drain;
      if (p[1].revents & POLLIN) {
        ssize_t r = read(s->wake_fd, &drain, sizeof(drain));
        (void)r;
      }
      io = (p[0].revents & POLLIN) && s->seq.load() == seq &&
           s->in_poll.load();
    }
    s->wakeups.fetch_add(1, std::memory_order_relaxed);
  }
  s->monitor_sleeping.store(false);
  return io;
}

static void SleepNs(QueueMonitor::Shared* s, uint64_t ns) {
  struct pollfd p = {s->wake_fd, POLLIN, 0};
  struct timespec ts = {time_t(ns / 1000000000u), long(ns % 1000000000u)};
  if (ppoll(&p, 1, &ts, nullptr) > 0) {
    uint64_t drain;
    ssize_t r = read(s->wake_fd, &drain, sizeof(drain));
    (void)r;
  }
}

void QueueMonitor::Monitor(Shared* s) {
  uint64_t seen_seq = ~0ull, woke_at = 0, refused_seq = ~0ull;
  uint64_t loop_cpu = 0, loop_cpu_at = 0;
  bool ready_but_idle = false;

  while (!s->stop.load()) {
    uint64_t seq = s->seq.load();
    bool in_poll = s->in_poll.load();
    uint64_t now = MonoNs(), began = 0;

    if (seq != seen_seq) {
      seen_seq = seq;
      woke_at = 0;
    }
    if (!in_poll) {
      began = s->busy_since.load(std::memory_order_relaxed);
      if (!began) began = now;  // started mid-iteration
    } else if (woke_at || Readable(s->backend_fd)) {
      // Poll phase with events: the loop runs their callbacks, or has
      // gone back to epoll_wait without a new iteration (libuv does so when
      // an event needed no callback).  Its CPU time tells which.
      uint64_t cpu = LoopCpuNs(s);
      if (!woke_at) {
        began = woke_at = now;
      } else if ((cpu - loop_cpu) * 10 < now - loop_cpu_at) {
        woke_at = 0;
        ready_but_idle = true;
      } else {
        began = woke_at;
      }
      loop_cpu = cpu;
      loop_cpu_at = now;
    }
    if (!began) {
      // The loop waits and nothing is queued: the queue has drained.
      EndBoost(s, now);
      if (ready_but_idle) {
        // an fd the loop will not read: poll() would return at once
        ready_but_idle = false;
        SleepNs(s, s->sample_ns);
      } else if (SleepWhileIdle(s, seq)) {
        woke_at = loop_cpu_at = MonoNs();
        loop_cpu = LoopCpuNs(s);
      }
      continue;
    }

    s->samples.fetch_add(1, std::memory_order_relaxed);
    uint64_t hol = now > began ? now - began : 0;
    double events = in_poll ? 0 : double(s->events.load());
    double avg_events = s->avg_events_x256.load() / 256.0;
    double avg_busy = double(s->avg_busy_ns.load());
    double sample = double(s->sample_ns);

    if (s->iterations.load(std::memory_order_relaxed) < kWarmupIterations) {
      // thresholds not known yet
    } else if (!s->boosted_since.load(std::memory_order_relaxed)) {
      bool by_length = events >= 2 && events > s->factor * avg_events;
      bool by_hol = hol >= sample && hol > s->factor * avg_busy;
      if ((by_length || by_hol) && seq != refused_seq)
        BeginBoost(s, now, by_length, seq, &refused_seq);
    } else if (events <= avg_events &&
               double(hol) < (avg_busy > sample ? avg_busy : sample)) {
      EndBoost(s, now);
    }
    // Not boosted: nothing can trigger before the head-of-line time
    // reaches its threshold (a long queue wakes us from OnCheck), so sleep
    // until then instead of every sample period: waking costs the loop's
    // core too.
    uint64_t nap = s->sample_ns;
    if (!s->boosted_since.load(std::memory_order_relaxed)) {
      double until = s->factor * avg_busy - double(hol);
      if (until > double(nap)) nap = uint64_t(until);
    }
    SleepNs(s, nap);
  }
  EndBoost(s, MonoNs());
}

static void* MonitorThread(void* arg) {
  auto* s = static_cast<QueueMonitor::Shared*>(arg);
  pthread_setname_np(pthread_self(), "eventboost-mon");
  QueueMonitor::Monitor(s);
  return nullptr;
}

int QueueMonitor::Start(uv_loop_t* loop, eb_client* client, double factor,
                        unsigned sample_us) {
  int fd = uv_backend_fd(loop);
  if (fd < 0) return -ENOTSUP;

  auto* s = new Shared();
  s->loop = loop;
  s->client = client;
  s->factor = factor;
  s->sample_ns = uint64_t(sample_us) * 1000;
  s->backend_fd = fd;
  s->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (s->wake_fd < 0) {
    int err = -errno;
    delete s;
    return err;
  }
  uv_metrics_t m;
  if (!uv_metrics_info(loop, &m)) s->events_at_prepare = m.events;
  int err = pthread_getcpuclockid(pthread_self(), &s->loop_clock);
  if (err) {
    close(s->wake_fd);
    delete s;
    return -err;
  }

  // The monitor takes no signals: they belong to the loop thread.
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  err = pthread_create(&s->thread, nullptr, MonitorThread, s);
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  if (err) {
    close(s->wake_fd);
    delete s;
    return -err;
  }

  uv_prepare_init(loop, &s->prepare);
  uv_check_init(loop, &s->check);
  s->prepare.data = s;
  s->check.data = s;
  s->open_handles = 2;
  uv_prepare_start(&s->prepare, OnPrepare);
  uv_check_start(&s->check, OnCheck);
  // Measuring the loop must not keep it alive.
  uv_unref(reinterpret_cast<uv_handle_t*>(&s->prepare));
  uv_unref(reinterpret_cast<uv_handle_t*>(&s->check));
  shared_ = s;
  return 0;
}

QueueMonitor::Counters QueueMonitor::counters() const {
  Counters c = last_;
  const Shared* s = shared_;
  if (!s) return c;

  uint64_t since = s->boosted_since.load(std::memory_order_relaxed);
  c.boosts = s->boosts.load();
  c.boosted_ns = s->boosted_ns.load() + (since ? MonoNs() - since : 0);
  c.by_length = s->by_length.load();
  c.by_head_of_line = s->by_hol.load();
  c.refused = s->refused.load();
  c.errors = s->errors.load();
  c.samples = s->samples.load();
  c.wakeups = s->wakeups.load();
  c.iterations = s->iterations.load();
  c.boosted_now = since != 0;
  c.avg_length = s->avg_events_x256.load() / 256.0;
  c.avg_busy_us = s->avg_busy_ns.load() / 1000.0;
  c.last_error = s->last_error.load();
  return c;
}

static void OnClose(uv_handle_t* handle) {
  auto* s = static_cast<QueueMonitor::Shared*>(handle->data);
  if (--s->open_handles) return;
  close(s->wake_fd);
  delete s;
}

void QueueMonitor::Stop() {
  Shared* s = shared_;
  if (!s) return;

  s->stop.store(true);
  Wake(s->wake_fd);
  pthread_join(s->thread, nullptr);  // it ends a vote still held
  last_ = counters();
  last_.boosted_now = false;
  uv_prepare_stop(&s->prepare);
  uv_check_stop(&s->check);
  uv_close(reinterpret_cast<uv_handle_t*>(&s->prepare), OnClose);
  uv_close(reinterpret_cast<uv_handle_t*>(&s->check), OnClose);
  shared_ = nullptr;
}

}  // namespace eventboost
