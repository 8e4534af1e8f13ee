#ifndef PATTERNBENCH_CCLOCKLOOPS_H
#define PATTERNBENCH_CCLOCKLOOPS_H

#include <stdint.h>
#include <time.h>

/// Calls clock_gettime(clock, …) `iterations` times in a tight loop and returns the elapsed
/// CLOCK_MONOTONIC nanoseconds for the whole loop (the per-call cost is that over iterations).
/// Written in C so that the Swift read-cost figures have a baseline with no Swift overhead at all.
uint64_t pb_clock_gettime_loop(clockid_t clock, uint64_t iterations);

/// One clock_gettime reading of `clock` in nanoseconds (0 if the call failed).
uint64_t pb_clock_read_ns(clockid_t clock);

/// The clock ids, so Swift code does not depend on Glibc exporting the Linux-only ones.
clockid_t pb_clock_realtime(void);
clockid_t pb_clock_monotonic(void);
clockid_t pb_clock_monotonic_raw(void);
clockid_t pb_clock_boottime(void);

#endif
