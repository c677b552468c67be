//===- FiberSanitizer.h - Tell AddressSanitizer about fiber switches -*- C++ -*-===//
//
// Tasks run as ucontext fibers. AddressSanitizer tracks one stack per thread
// unless told of every switch; without this, a sanitized build reports false
// stack overflows and stale poisoned frames. Each switch is bracketed:
// `beforeSwitch` with the target stack, `afterSwitch` once running on it.
// Without AddressSanitizer all of this compiles to nothing.
//
//===----------------------------------------------------------------------===//
#ifndef BANGSIM_FIBERSANITIZER_H
#define BANGSIM_FIBERSANITIZER_H

#include <cstddef>

#if defined(__SANITIZE_ADDRESS__)
#define BANGSIM_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define BANGSIM_ASAN 1
#endif
#endif

#ifdef BANGSIM_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

namespace bangsim {

/// A stack: its lowest address and size.
struct StackBounds {
  const void *bottom = nullptr;
  size_t size = 0;
};

/// Before switching to the stack `to`. `fakeStack` keeps this context's
/// fake frames until it resumes; null when this context never resumes.
inline void beforeSwitch(void **fakeStack, StackBounds to) {
#ifdef BANGSIM_ASAN
  __sanitizer_start_switch_fiber(fakeStack, to.bottom, to.size);
#else
  (void)fakeStack, (void)to;
#endif
}

/// First thing after a switch lands: restores this context's fake frames and
/// returns the stack we came from.
inline StackBounds afterSwitch(void *fakeStack) {
  StackBounds from;
#ifdef BANGSIM_ASAN
  __sanitizer_finish_switch_fiber(fakeStack, &from.bottom, &from.size);
#else
  (void)fakeStack;
#endif
  return from;
}

/// A fiber stack about to be unmapped or reused: clear frames a stopped
/// task left poisoned.
inline void forgetStack(void *bottom, size_t size) {
#ifdef BANGSIM_ASAN
  __asan_unpoison_memory_region(bottom, size);
#else
  (void)bottom, (void)size;
#endif
}

} // namespace bangsim

#endif // BANGSIM_FIBERSANITIZER_H
