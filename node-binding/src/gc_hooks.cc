// SPDX-License-Identifier: LGPL-2.1-or-later
#include "gc_hooks.h"

#include <errno.h>

#include "eventboost.h"
#include "mono_clock.h"

namespace eventboost {

static int KindIndex(v8::GCType type) {
  switch (type) {
    case v8::kGCTypeScavenge: return 0;
    case kGCTypeMinorMark: return 1;
    case v8::kGCTypeMarkSweepCompact: return 2;
    case v8::kGCTypeIncrementalMarking: return 3;
    default: return 4;  // kGCTypeProcessWeakCallbacks
  }
}

void GcHooks::Start(v8::Isolate* isolate, eb_client* client, unsigned types) {
  isolate_ = isolate;
  client_ = client;
  types_ = types;
  depth_ = 0;
  marking_ = false;
  counters_ = Counters();
  // Marking ends in a mark-compact: hook it even when its pause is not
  // asked for, or the marking vote would be held until the watchdog.
  if (types & v8::kGCTypeIncrementalMarking) types |= v8::kGCTypeMarkSweepCompact;
  auto filter = static_cast<v8::GCType>(types);
  isolate->AddGCPrologueCallback(Prologue, this, filter);
  isolate->AddGCEpilogueCallback(Epilogue, this, filter);
}

void GcHooks::Stop() {
  if (!isolate_) return;
  isolate_->RemoveGCPrologueCallback(Prologue, this);
  isolate_->RemoveGCEpilogueCallback(Epilogue, this);
  if (depth_ || marking_) eb_gc_exit(client_);
  isolate_ = nullptr;
  client_ = nullptr;
  depth_ = 0;
  marking_ = false;
}

// One gc_enter hint; the vote is idempotent, so a pause inside a marking
// cycle enters again (and so re-arms a vote the watchdog ended).
void GcHooks::Enter() {
  Counters& c = counters_;
  int err = eb_gc_enter(client_);
  if (!err) {
    c.boosts++;
  } else {
    if (err == -EBUSY) c.refused++; else c.errors++;
    c.last_error = err;
  }
}

void GcHooks::ExitUnlessHeld() {
  if (!depth_ && !marking_) eb_gc_exit(client_);
}

void GcHooks::EndMarking() {
  if (!marking_) return;
  marking_ = false;
  counters_.marking_ns += MonoNs() - marking_since_ns_;
}

void GcHooks::Prologue(v8::Isolate*, v8::GCType type, v8::GCCallbackFlags,
                       void* data) {
  auto* self = static_cast<GcHooks*>(data);
  Counters& c = self->counters_;

  if (type == v8::kGCTypeIncrementalMarking) {
    // The cycle's start (V8 also calls this at later marking steps).
    if (self->marking_) return;
    self->marking_ = true;
    self->marking_since_ns_ = MonoNs();
    c.count++;
    c.by_kind[KindIndex(type)]++;
    self->Enter();
    return;
  }
  if (!(self->types_ & type)) {
    // A mark-compact hooked only to end the marking: its pause is not
    // boosted (unless a pause around it is).
    self->EndMarking();
    self->ExitUnlessHeld();
    return;
  }
  if (self->depth_++) return;
  self->entered_ns_ = MonoNs();
  c.count++;
  c.by_kind[KindIndex(type)]++;
  self->Enter();
}

void GcHooks::Epilogue(v8::Isolate*, v8::GCType type, v8::GCCallbackFlags,
                       void* data) {
  auto* self = static_cast<GcHooks*>(data);
  Counters& c = self->counters_;

  if (type == v8::kGCTypeIncrementalMarking || !(self->types_ & type)) return;
  // The mark-compact completes the cycle even when nested in another GC.
  if (type == v8::kGCTypeMarkSweepCompact) self->EndMarking();
  if (!self->depth_) {
    self->ExitUnlessHeld();
    return;
  }
  if (--self->depth_) return;
  self->ExitUnlessHeld();
  uint64_t ns = MonoNs() - self->entered_ns_;
  c.total_ns += ns;
  if (ns > c.max_ns) c.max_ns = ns;
}

}  // namespace eventboost
