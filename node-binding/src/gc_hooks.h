// SPDX-License-Identifier: LGPL-2.1-or-later
// GC-Boost: a V8 GC prologue/epilogue pair becomes one gc_enter/gc_exit hint
// on the client.  The callbacks run on the isolate's own thread, inside the
// collector: they only count, read the clock and make one ioctl each.
// kGCTypeIncrementalMarking is V8's signal that a major GC cycle begins:
// its callbacks only bracket the short start step, but the cycle goes on
// for many loop iterations (marking steps on the loop thread, concurrent
// markers beside it) until the mark-compact pause that completes it.  So
// that kind holds the vote from marking start through that pause.
#ifndef EVENTBOOST_GC_HOOKS_H
#define EVENTBOOST_GC_HOOKS_H

#include <stdint.h>
#include <v8-version.h>
#include <v8.h>

struct eb_client;

namespace eventboost {

// The V8 GC kinds, in the order of GcHooks::Counters::by_kind.
constexpr int kGcKinds = 5;

// The young generation's mark-compact: V8 12 renamed it (Node 22), V8 12.8
// dropped the old name (Node 23).
#if V8_MAJOR_VERSION >= 12
constexpr v8::GCType kGCTypeMinorMark = v8::kGCTypeMinorMarkSweep;
#else
constexpr v8::GCType kGCTypeMinorMark = v8::kGCTypeMinorMarkCompact;
#endif

class GcHooks {
 public:
  struct Counters {
    uint64_t boosts = 0;     // GCs whose enter hint the kernel accepted
    uint64_t refused = 0;    // -EBUSY: a budget, share or GC's part spent
    uint64_t errors = 0;     // any other failure
    uint64_t count = 0;      // hooked GCs (outermost prologue)
    uint64_t total_ns = 0;   // time from outermost prologue to epilogue
    uint64_t max_ns = 0;
    uint64_t marking_ns = 0;  // incremental-marking: marking start to its
                              // mark-compact's epilogue
    uint64_t by_kind[kGcKinds] = {};
    int last_error = 0;
  };

  // Hook @isolate's GCs of @types (a v8::GCType mask); hints go to @client.
  void Start(v8::Isolate* isolate, eb_client* client, unsigned types);
  // Unhook, and end a GC vote still held.  Safe when not started.
  void Stop();
  const Counters& counters() const { return counters_; }
  // Count afresh (a start() that leaves GC-Boost off).  Not while started.
  void ClearCounters() { counters_ = Counters(); }
  bool marking() const { return marking_; }

 private:
  static void Prologue(v8::Isolate*, v8::GCType, v8::GCCallbackFlags, void*);
  static void Epilogue(v8::Isolate*, v8::GCType, v8::GCCallbackFlags, void*);
  void Enter();
  void ExitUnlessHeld();
  void EndMarking();

  v8::Isolate* isolate_ = nullptr;
  eb_client* client_ = nullptr;
  unsigned types_ = 0;  // the kinds asked for (v8::GCType mask)
  int depth_ = 0;  // V8 may run one GC inside another (a scavenge first)
  bool marking_ = false;  // a major GC cycle's marking holds the vote
  uint64_t entered_ns_ = 0;
  uint64_t marking_since_ns_ = 0;
  Counters counters_;
};

}  // namespace eventboost

#endif
