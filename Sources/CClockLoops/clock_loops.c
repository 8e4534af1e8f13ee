#define _GNU_SOURCE
#include "CClockLoops.h"

static inline uint64_t to_ns(const struct timespec *ts) {
    return (uint64_t)ts->tv_sec * 1000000000ull + (uint64_t)ts->tv_nsec;
}

uint64_t pb_clock_gettime_loop(clockid_t clock, uint64_t iterations) {
    struct timespec start, end, sink;
    uint64_t acc = 0;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (uint64_t i = 0; i < iterations; i++) {
        clock_gettime(clock, &sink);
        acc += (uint64_t)sink.tv_nsec;  /* keeps the call from being optimised away */
    }
    clock_gettime(CLOCK_MONOTONIC, &end);
    __asm__ volatile("" : : "r"(acc) : "memory");
    return to_ns(&end) - to_ns(&start);
}

uint64_t pb_clock_read_ns(clockid_t clock) {
    struct timespec ts;
    if (clock_gettime(clock, &ts) != 0) return 0;
    return to_ns(&ts);
}

clockid_t pb_clock_realtime(void) { return CLOCK_REALTIME; }
clockid_t pb_clock_monotonic(void) { return CLOCK_MONOTONIC; }
clockid_t pb_clock_monotonic_raw(void) { return CLOCK_MONOTONIC_RAW; }
#if defined(CLOCK_BOOTTIME)
clockid_t pb_clock_boottime(void) { return CLOCK_BOOTTIME; }
#else
// Darwin has no CLOCK_BOOTTIME; its CLOCK_MONOTONIC counts sleep, as Linux's CLOCK_BOOTTIME does.
clockid_t pb_clock_boottime(void) { return CLOCK_MONOTONIC; }
#endif
