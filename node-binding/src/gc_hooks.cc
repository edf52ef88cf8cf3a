// SPDX-License-Identifier: LGPL-2.1-or-later
#include "gc_hooks.h"

#include <errno.h>

#include "eventboost.h"
#include "mono_clock.h"

namespace eventboost {

static int KindIndex(v8::GCType type) {
  switch (type) {
    case v8::kGCTypeScavenge: return 0;
    case v8::kGCTypeMinorMarkCompact: return 1;
    case v8::kGCTypeMarkSweepCompact: return 2;
    case v8::kGCTypeIncrementalMarking: return 3;
    default: return 4;  // kGCTypeProcessWeakCallbacks
  }
}

void GcHooks::Start(v8::Isolate* isolate, eb_client* client, unsigned types) {
  isolate_ = isolate;
  client_ = client;
  depth_ = 0;
  counters_ = Counters();
  auto filter = static_cast<v8::GCType>(types);
  isolate->AddGCPrologueCallback(Prologue, this, filter);
  isolate->AddGCEpilogueCallback(Epilogue, this, filter);
}

void GcHooks::Stop() {
  if (!isolate_) return;
  isolate_->RemoveGCPrologueCallback(Prologue, this);
  isolate_->RemoveGCEpilogueCallback(Epilogue, this);
  if (depth_) eb_gc_exit(client_);
  isolate_ = nullptr;
  client_ = nullptr;
  depth_ = 0;
}

void GcHooks::Prologue(v8::Isolate*, v8::GCType type, v8::GCCallbackFlags,
                       void* data) {
  auto* self = static_cast<GcHooks*>(data);
  Counters& c = self->counters_;

  if (self->depth_++) return;
  self->entered_ns_ = MonoNs();
  c.count++;
  c.by_kind[KindIndex(type)]++;
  int err = eb_gc_enter(self->client_);
  if (!err) {
    c.boosts++;
  } else {
    if (err == -EBUSY) c.refused++; else c.errors++;
    c.last_error = err;
  }
}

void GcHooks::Epilogue(v8::Isolate*, v8::GCType, v8::GCCallbackFlags,
                       void* data) {
  auto* self = static_cast<GcHooks*>(data);
  Counters& c = self->counters_;

  if (!self->depth_ || --self->depth_) return;
  eb_gc_exit(self->client_);
  uint64_t ns = MonoNs() - self->entered_ns_;
  c.total_ns += ns;
  if (ns > c.max_ns) c.max_ns = ns;
}

}  // namespace eventboost
