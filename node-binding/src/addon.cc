// SPDX-License-Identifier: LGPL-2.1-or-later
// The native half of the npm package: one eventboost client per Node
// environment (the main thread and each Worker), its GC hooks and its queue
// monitor.  Options are validated and results shaped in JavaScript.
#include <napi.h>
// NODE_MODULE_VERSION, the ABI (node_version.h also sets the runtime's own
// NAPI_VERSION: keep the one the addon is built for).
#pragma push_macro("NAPI_VERSION")
#undef NAPI_VERSION
#include <node_version.h>
#undef NAPI_VERSION
#pragma pop_macro("NAPI_VERSION")
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <uv.h>
#include <v8.h>

#include <utility>

#include "eventboost.h"
#include "gc_hooks.h"
#include "queue_monitor.h"

namespace eventboost {
namespace {

struct Instance {
  eb_client* client = nullptr;
  GcHooks gc;
  QueueMonitor queue;
  pid_t tid = 0;
  // The environment waits for this hook (Node-API's async cleanup) until
  // the queue monitor's handles have closed: a Worker unloads its addons
  // when its environment goes, and libuv runs close callbacks later.
  napi_async_cleanup_hook_handle cleanup = nullptr;
  int closing = 0;      // queue monitors whose handles are still closing
  bool ending = false;  // the environment is going away

  void Stop() {
    gc.Stop();
    if (queue.running()) {
      closing++;
      queue.Stop(Closed, this);
    }
    eb_close(client);  // the kernel drops whatever the client still held
    client = nullptr;
  }
  static void Closed(void* arg) {
    auto* in = static_cast<Instance*>(arg);
    if (--in->closing == 0 && in->ending) in->Done();
  }
  void Done() {
    napi_async_cleanup_hook_handle h = cleanup;
    cleanup = nullptr;
    if (h) napi_remove_async_cleanup_hook(h);  // last use of this
  }
};

Instance* Get(const Napi::Env& env) { return env.GetInstanceData<Instance>(); }

// @stopped: the configuration that ran before this start() was stopped.
// @reason: what to do about @err, where eb_strerror() cannot know.
// @opened: the device opened (@err is not the device's).
Napi::Object Result(Napi::Env env, bool active, int err, bool stopped,
                    const char* reason = nullptr, bool opened = true) {
  Napi::Object r = Napi::Object::New(env);
  r.Set("active", active);
  r.Set("stopped", stopped);
  r.Set("opened", opened);
  r.Set("errno", err);
  if (err && !reason) reason = eb_strerror(err);
  r.Set("reason", reason ? Napi::Value(Napi::String::New(env, reason))
                         : env.Null());
  return r;
}

// What to do about a Queue-Boost monitor that cannot start, where
// eb_strerror() cannot know (null: its sentence fits).
const char* MonitorFailure(int err) {
  // Of QueueMonitor::Start()'s steps only pthread_create() fails with
  // EAGAIN (glibc's, also for a thread stack it cannot map).
  if (err == -EAGAIN)
    return "Queue-Boost cannot create its monitor thread: a thread or "
           "memory limit is reached (ulimit -u counts the user's threads; "
           "the cgroup's pids.max; kernel.threads-max; ulimit -v); raise "
           "it, or start with queue: false";
  if (err == -EMFILE || err == -ENFILE)
    return "Queue-Boost cannot open the file descriptors its monitor "
           "needs (five): the open-files limit is reached (ulimit -n, "
           "systemd's LimitNOFILE=; fs.file-max for the system's); raise "
           "it, or start with queue: false";
  if (err == -ENOENT || err == -EACCES || err == -EPERM)
    // (Of its steps only the open of the loop thread's stat.)
    return "Queue-Boost cannot read the loop thread's state in /proc "
           "(/proc/self/task/<tid>/stat), without which it cannot tell "
           "a loop asleep in a callback from one running: mount /proc "
           "or allow reading it, or start with queue: false";
  return nullptr;
}

// start(device|null, gcTypes, queue, queueFactor, sampleUs, maxDelayMs,
//       holWaiting, burstsAtThreshold, testVoteDelayUs, testSleepDelayUs,
//       testWakeDelayUs)
Napi::Value Start(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Instance* in = Get(env);
  if (info.Length() != 11 || !(info[0].IsString() || info[0].IsNull()) ||
      !info[1].IsNumber() || !info[2].IsBoolean() || !info[3].IsNumber() ||
      !info[4].IsNumber() || !info[5].IsNumber() || !info[6].IsBoolean() ||
      !info[7].IsBoolean() || !info[8].IsNumber() || !info[9].IsNumber() ||
      !info[10].IsNumber()) {
    Napi::TypeError::New(env, "eventboost native start: bad arguments")
        .ThrowAsJavaScriptException();
    return env.Undefined();
  }
  std::string device;
  if (info[0].IsString()) device = info[0].As<Napi::String>().Utf8Value();
  unsigned gc_types = info[1].As<Napi::Number>().Uint32Value();
  bool queue = info[2].As<Napi::Boolean>().Value();
  double factor = info[3].As<Napi::Number>().DoubleValue();
  unsigned sample_us = info[4].As<Napi::Number>().Uint32Value();
  unsigned max_delay_ms = info[5].As<Napi::Number>().Uint32Value();
  bool hol_waiting = info[6].As<Napi::Boolean>().Value();
  bool bursts_at_threshold = info[7].As<Napi::Boolean>().Value();
  unsigned test_vote_delay_us = info[8].As<Napi::Number>().Uint32Value();
  unsigned test_sleep_delay_us = info[9].As<Napi::Number>().Uint32Value();
  unsigned test_wake_delay_us = info[10].As<Napi::Number>().Uint32Value();

  // Binds the client to this thread: the loop's thread.  The client opens
  // and the monitor starts before the running configuration stops: a
  // device that cannot be opened (a typo, no module, no permission) or a
  // monitor that cannot start (a thread or open-files limit) changes
  // nothing.
  eb_client* client = nullptr;
  int err = eb_open(&client, device.empty() ? nullptr : device.c_str());
  if (err) return Result(env, false, err, false, nullptr, false);
  QueueMonitor fresh;
  if (queue) {
    uv_loop_t* loop = nullptr;
    if (napi_get_uv_event_loop(env, &loop) != napi_ok || !loop)
      err = -ENOTSUP;
    else
      err = fresh.Start(loop, client, factor, sample_us, max_delay_ms,
                        hol_waiting, bursts_at_threshold, test_vote_delay_us,
                        test_sleep_delay_us, test_wake_delay_us);
    if (err) {
      eb_close(client);
      return Result(env, false, err, false, MonitorFailure(err));
    }
  }
  in->Stop();
  // stats() counts what this configuration does, not an earlier one: the
  // stopped monitor (and its last counters) goes with @fresh.
  in->gc.ClearCounters();
  std::swap(in->queue, fresh);
  in->client = client;
  in->tid = static_cast<pid_t>(syscall(SYS_gettid));
  if (gc_types) in->gc.Start(v8::Isolate::GetCurrent(), in->client, gc_types);
  return Result(env, true, 0, true);
}

Napi::Value Stop(const Napi::CallbackInfo& info) {
  Get(info.Env())->Stop();
  return info.Env().Undefined();
}

Napi::Value Stats(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Instance* in = Get(env);
  Napi::Object o = Napi::Object::New(env);
  auto num = [&](Napi::Object& obj, const char* k, double v) {
    obj.Set(k, Napi::Number::New(env, v));
  };

  o.Set("active", in->client != nullptr);
  num(o, "tid", in->tid);
  num(o, "cpu", sched_getcpu());

  const GcHooks::Counters& g = in->gc.counters();
  Napi::Object gc = Napi::Object::New(env);
  num(gc, "boosts", g.boosts);
  num(gc, "refused", g.refused);
  num(gc, "errors", g.errors);
  num(gc, "count", g.count);
  num(gc, "totalNs", g.total_ns);
  num(gc, "maxNs", g.max_ns);
  num(gc, "markingNs", g.marking_ns);
  gc.Set("markingNow", in->gc.marking());
  num(gc, "lastErrno", g.last_error);
  Napi::Array kinds = Napi::Array::New(env, kGcKinds);
  for (int i = 0; i < kGcKinds; i++) kinds.Set(i, Napi::Number::New(env, g.by_kind[i]));
  gc.Set("byKind", kinds);
  o.Set("gc", gc);

  QueueMonitor::Counters q = in->queue.counters();
  Napi::Object qo = Napi::Object::New(env);
  num(qo, "boosts", q.boosts);
  num(qo, "boostedNs", q.boosted_ns);
  qo.Set("boostedNow", q.boosted_now);
  num(qo, "byLength", q.by_length);
  num(qo, "byHeadOfLine", q.by_head_of_line);
  num(qo, "byOverload", q.by_overload);
  num(qo, "refused", q.refused);
  num(qo, "errors", q.errors);
  num(qo, "samples", q.samples);
  num(qo, "wakeups", q.wakeups);
  num(qo, "arrivals", q.arrivals);
  num(qo, "renewed", q.renewed);
  num(qo, "iterations", q.iterations);
  num(qo, "waits", q.waits);
  num(qo, "keptThroughWaits", q.kept);
  num(qo, "endedAsleep", q.ended_asleep);
  num(qo, "avgLength", q.avg_length);
  num(qo, "avgBusyUs", q.avg_busy_us);
  num(qo, "lastErrno", q.last_error);
  o.Set("queue", qo);

  struct eb_stats st;
  int cpu = sched_getcpu();
  if (in->client && cpu >= 0 && !eb_stats(in->client, cpu, &st)) {
    Napi::Object k = Napi::Object::New(env);
    num(k, "policy", st.policy_cpu);
    k.Set("governed", st.governed != 0);
    k.Set("fastSwitch", st.fast_switch != 0);
    k.Set("boosted", st.boosted != 0);
    k.Set("budgetSpent", st.budget_spent != 0);
    num(k, "curKhz", st.cur_khz);
    num(k, "baseKhz", st.base_khz);
    num(k, "boostKhz", st.boost_khz);
    num(k, "hintsGc", st.hints_gc);
    num(k, "hintsQueue", st.hints_queue);
    num(k, "hintsTimed", st.hints_timed);
    num(k, "boosts", st.boosts);
    num(k, "boostedNs", st.boosted_ns);
    num(k, "governedNs", st.governed_ns);
    num(k, "maxBoostUs", st.max_boost_us);
    num(k, "watchdogEnds", st.watchdog_ends);
    num(k, "budgetEnds", st.budget_ends);
    num(k, "refused", st.refused);
    num(k, "latencyP50Us", eb_latency_percentile_us(&st, 50));
    num(k, "latencyP99Us", eb_latency_percentile_us(&st, 99));
    o.Set("kernel", k);
  } else {
    o.Set("kernel", env.Null());
  }
  return o;
}

// boostFor(usec): a timed vote on the loop's core (0 ends it); 0 or -errno.
Napi::Value BoostFor(const Napi::CallbackInfo& info) {
  Instance* in = Get(info.Env());
  unsigned usec = info[0].As<Napi::Number>().Uint32Value();
  int err = in->client ? eb_boost_for(in->client, usec) : -ENODEV;
  return Napi::Number::New(info.Env(), err);
}

Napi::Value Strerror(const Napi::CallbackInfo& info) {
  int err = info[0].As<Napi::Number>().Int32Value();
  return Napi::String::New(info.Env(), eb_strerror(err));
}

void Cleanup(napi_async_cleanup_hook_handle, void* arg) {
  auto* in = static_cast<Instance*>(arg);
  in->ending = true;
  in->Stop();
  if (!in->closing) in->Done();
}

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  auto* in = new Instance();
  env.SetInstanceData(in);  // deleted at environment teardown
  // A Worker that ends, or the process, undoes everything it did.
  napi_add_async_cleanup_hook(env, Cleanup, in, &in->cleanup);
  // The Node ABI the addon was compiled for: it calls V8's C++ API, which
  // Node does not check, so index.js refuses a binary of another ABI.
  exports.Set("abi", double(NODE_MODULE_VERSION));
  exports.Set("start", Napi::Function::New(env, Start));
  exports.Set("stop", Napi::Function::New(env, Stop));
  exports.Set("stats", Napi::Function::New(env, Stats));
  exports.Set("strerror", Napi::Function::New(env, Strerror));
  exports.Set("boostFor", Napi::Function::New(env, BoostFor));
  Napi::Object kinds = Napi::Object::New(env);
  kinds.Set("scavenge", double(v8::kGCTypeScavenge));
  kinds.Set("minor-mark-compact", double(kGCTypeMinorMark));
  kinds.Set("mark-compact", double(v8::kGCTypeMarkSweepCompact));
  kinds.Set("incremental-marking", double(v8::kGCTypeIncrementalMarking));
  kinds.Set("weak-callbacks", double(v8::kGCTypeProcessWeakCallbacks));
  exports.Set("gcKinds", kinds);
  return exports;
}

}  // namespace
}  // namespace eventboost

static Napi::Object InitEventboost(Napi::Env env, Napi::Object exports) {
  return eventboost::Init(env, exports);
}

NODE_API_MODULE(eventboost, InitEventboost)
