// SPDX-License-Identifier: LGPL-2.1-or-later
// GC-Boost: a V8 GC prologue/epilogue pair becomes one gc_enter/gc_exit hint
// on the client.  The callbacks run on the isolate's own thread, inside the
// collector: they only count, read the clock and make one ioctl each.
#ifndef EVENTBOOST_GC_HOOKS_H
#define EVENTBOOST_GC_HOOKS_H

#include <stdint.h>
#include <v8.h>

struct eb_client;

namespace eventboost {

// The V8 GC kinds, in the order of GcHooks::Counters::by_kind.
constexpr int kGcKinds = 5;

class GcHooks {
 public:
  struct Counters {
    uint64_t boosts = 0;     // GCs whose enter hint the kernel accepted
    uint64_t refused = 0;    // -EBUSY: the policy's budget was spent
    uint64_t errors = 0;     // any other failure
    uint64_t count = 0;      // hooked GCs (outermost prologue)
    uint64_t total_ns = 0;   // time from outermost prologue to epilogue
    uint64_t max_ns = 0;
    uint64_t by_kind[kGcKinds] = {};
    int last_error = 0;
  };

  // Hook @isolate's GCs of @types (a v8::GCType mask); hints go to @client.
  void Start(v8::Isolate* isolate, eb_client* client, unsigned types);
  // Unhook, and end a GC vote still held.  Safe when not started.
  void Stop();
  const Counters& counters() const { return counters_; }

 private:
  static void Prologue(v8::Isolate*, v8::GCType, v8::GCCallbackFlags, void*);
  static void Epilogue(v8::Isolate*, v8::GCType, v8::GCCallbackFlags, void*);

  v8::Isolate* isolate_ = nullptr;
  eb_client* client_ = nullptr;
  int depth_ = 0;  // V8 may run one GC inside another (a scavenge first)
  uint64_t entered_ns_ = 0;
  Counters counters_;
};

}  // namespace eventboost

#endif
