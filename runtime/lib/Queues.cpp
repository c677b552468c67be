//===- Queues.cpp - Queues and notifiers on the simulated clock -----------===//
//
// The simulator runs each piece of work when it is enqueued, so a queue
// never has work pending: cnrtQueueSync and cnrtQueueQuery only report a
// device fault that an earlier launch on the queue left (Launch.cpp records
// it), and cnrtQueueWaitNotifier has nothing to wait for. Time is the
// device's simulated clock, which each launch advances by the simulated
// duration of the kernel (LaunchStats::seconds); a notifier placed on a
// queue reads that clock, so cnrtNotifierElapsedTime measures simulated
// device time, not host time.
//
//===----------------------------------------------------------------------===//
#include "State.h"


using namespace bangsim;
using namespace bangsim::cnrt;

static cnrtRet_t badQueue(const char *function) {
  return fail(cnrtErrorInvalidResourceHandle, function,
              "the queue is not a live cnrtQueue_t");
}

cnrtRet_t cnrtQueueCreate(cnrtQueue_t *queue) {
  if (!queue)
    return fail(cnrtErrorArgsInvalid, "cnrtQueueCreate", "queue is NULL");
  State &state = State::get();
  std::lock_guard lock(state.mutex);
  if (cnrtRet_t e = checkCurrentDevice(state, "cnrtQueueCreate"))
    return e;
  CNqueue_st *q = new CNqueue_st;
  q->device = currentOrdinal();
  state.queues.insert(q);
  *queue = q;
  return cnrtSuccess;
}

cnrtRet_t cnrtQueueDestroy(cnrtQueue_t queue) {
  State &state = State::get();
  std::lock_guard lock(state.mutex);
  if (!queue || !state.queues.erase(queue))
    return badQueue("cnrtQueueDestroy");
  delete queue;
  return cnrtSuccess;
}

static cnrtRet_t syncOrQuery(cnrtQueue_t queue, bool clear,
                             const char *function) {
  State &state = State::get();
  std::lock_guard lock(state.mutex);
  if (cnrtRet_t e = checkCurrentDevice(state, function))
    return e;
  CNqueue_st *q = resolveQueue(state, queue);
  if (!q)
    return badQueue(function);
  cnrtRet_t pending = q->pending;
  if (clear)
    q->pending = cnrtSuccess;
  if (pending != cnrtSuccess)
    return fail(pending, function,
                "a kernel on this queue faulted (message above)");
  return cnrtSuccess;
}

cnrtRet_t cnrtQueueSync(cnrtQueue_t queue) {
  return syncOrQuery(queue, /*clear=*/true, "cnrtQueueSync");
}

cnrtRet_t cnrtQueueQuery(cnrtQueue_t queue) {
  return syncOrQuery(queue, /*clear=*/false, "cnrtQueueQuery");
}

cnrtRet_t cnrtCreateQueue(cnrtQueue_t *queue) { return cnrtQueueCreate(queue); }
cnrtRet_t cnrtDestroyQueue(cnrtQueue_t queue) { return cnrtQueueDestroy(queue); }
cnrtRet_t cnrtSyncQueue(cnrtQueue_t queue) { return cnrtQueueSync(queue); }

// --- Notifiers -------------------------------------------------------------
static bool liveNotifier(State &state, cnrtNotifier_t n) {
  return n && state.notifiers.count(n);
}

static cnrtRet_t badNotifier(const char *function) {
  return fail(cnrtErrorArgsInvalid, function,
              "the notifier is not a live cnrtNotifier_t");
}

cnrtRet_t cnrtNotifierCreateWithFlags(cnrtNotifier_t *notifier,
                                      unsigned int flags) {
  const char *function = "cnrtNotifierCreateWithFlags";
  if (!notifier)
    return fail(cnrtErrorArgsInvalid, function, "notifier is NULL");
  const unsigned known = CNRT_NOTIFIER_DISABLE_TIMING_SW |
                         CNRT_NOTIFIER_DISABLE_TIMING_ALL |
                         CNRT_NOTIFIER_INTERPROCESS;
  if (flags & ~known)
    return fail(cnrtErrorArgsInvalid, function,
                "unknown flags " + llvm::Twine::utohexstr(flags));
  if ((flags & CNRT_NOTIFIER_INTERPROCESS) &&
      !(flags & CNRT_NOTIFIER_DISABLE_TIMING_ALL))
    return fail(cnrtErrorArgsInvalid, function,
                "CNRT_NOTIFIER_INTERPROCESS needs "
                "CNRT_NOTIFIER_DISABLE_TIMING_ALL");
  State &state = State::get();
  std::lock_guard lock(state.mutex);
  CNnotifier_st *n = new CNnotifier_st;
  n->flags = flags;
  state.notifiers.insert(n);
  *notifier = n;
  return cnrtSuccess;
}

cnrtRet_t cnrtNotifierCreate(cnrtNotifier_t *notifier) {
  return cnrtNotifierCreateWithFlags(notifier, CNRT_NOTIFIER_DEFAULT);
}

cnrtRet_t cnrtNotifierDestroy(cnrtNotifier_t notifier) {
  State &state = State::get();
  std::lock_guard lock(state.mutex);
  if (!liveNotifier(state, notifier))
    return badNotifier("cnrtNotifierDestroy");
  state.notifiers.erase(notifier);
  delete notifier;
  return cnrtSuccess;
}

cnrtRet_t cnrtCreateNotifier(cnrtNotifier_t *notifier) {
  return cnrtNotifierCreate(notifier);
}
cnrtRet_t cnrtDestroyNotifier(cnrtNotifier_t notifier) {
  return cnrtNotifierDestroy(notifier);
}

cnrtRet_t cnrtPlaceNotifier(cnrtNotifier_t notifier, cnrtQueue_t queue) {
  State &state = State::get();
  std::lock_guard lock(state.mutex);
  if (!liveNotifier(state, notifier))
    return badNotifier("cnrtPlaceNotifier");
  if (cnrtRet_t e = checkCurrentDevice(state, "cnrtPlaceNotifier"))
    return e;
  CNqueue_st *q = resolveQueue(state, queue);
  if (!q)
    return badQueue("cnrtPlaceNotifier");
  notifier->placed = true;
  notifier->device = q->device;
  notifier->seconds = state.devices()[q->device].clockSeconds;
  return cnrtSuccess;
}

cnrtRet_t cnrtWaitNotifier(cnrtNotifier_t notifier) {
  State &state = State::get();
  std::lock_guard lock(state.mutex);
  if (!liveNotifier(state, notifier))
    return badNotifier("cnrtWaitNotifier");
  return cnrtSuccess; // the work before it has run
}

cnrtRet_t cnrtQueryNotifier(cnrtNotifier_t notifier) {
  State &state = State::get();
  std::lock_guard lock(state.mutex);
  if (!liveNotifier(state, notifier))
    return badNotifier("cnrtQueryNotifier");
  return cnrtSuccess;
}

cnrtRet_t cnrtQueueWaitNotifier(cnrtNotifier_t notifier, cnrtQueue_t queue,
                                unsigned int flag) {
  (void)flag; // reserved in CNRT
  State &state = State::get();
  std::lock_guard lock(state.mutex);
  if (!liveNotifier(state, notifier))
    return badNotifier("cnrtQueueWaitNotifier");
  if (cnrtRet_t e = checkCurrentDevice(state, "cnrtQueueWaitNotifier"))
    return e;
  if (!resolveQueue(state, queue))
    return badQueue("cnrtQueueWaitNotifier");
  return cnrtSuccess;
}

cnrtRet_t cnrtNotifierElapsedTime(cnrtNotifier_t start, cnrtNotifier_t end,
                                  float *ms) {
  const char *function = "cnrtNotifierElapsedTime";
  if (!ms)
    return fail(cnrtErrorArgsInvalid, function, "ms is NULL");
  State &state = State::get();
  std::lock_guard lock(state.mutex);
  if (!liveNotifier(state, start) || !liveNotifier(state, end))
    return badNotifier(function);
  const unsigned noTiming =
      CNRT_NOTIFIER_DISABLE_TIMING_SW | CNRT_NOTIFIER_DISABLE_TIMING_ALL;
  if ((start->flags | end->flags) & noTiming)
    return fail(cnrtErrorArgsInvalid, function,
                "a notifier was created with timing disabled");
  // CNRT: a notifier not placed on a queue fails in CNDrv.
  if (!start->placed || !end->placed)
    return fail(cnrtErrorCndrvFuncCall, function,
                "a notifier has not been placed on a queue");
  if (start->device != end->device)
    return fail(cnrtErrorDevice, function,
                "the notifiers were placed on different devices");
  *ms = float((end->seconds - start->seconds) * 1e3);
  return cnrtSuccess;
}
