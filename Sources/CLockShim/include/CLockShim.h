// Small OS shims for the Locking module: things Swift cannot reach directly on Linux (macros,
// GNU-only constants, RUSAGE_THREAD, function pointers found at run time).
#ifndef CLOCKSHIM_H
#define CLOCKSHIM_H

#include <pthread.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The calling thread's resource usage (getrusage(RUSAGE_THREAD)).
typedef struct {
    uint64_t user_ns;
    uint64_t system_ns;
    uint64_t voluntary_switches;
    uint64_t involuntary_switches;
} lks_thread_usage;

/// Fills `out` for the calling thread; returns 0 or an errno value.
int lks_current_thread_usage(lks_thread_usage *out);

/// Pins the calling thread to one CPU; returns 0 or an errno value.
int lks_pin_current_thread(int cpu);

/// Initialises `mutex` as PTHREAD_MUTEX_ADAPTIVE_NP (spins briefly before sleeping); 0 or errno.
int lks_mutex_init_adaptive(pthread_mutex_t *mutex);

/// CLOCK_MONOTONIC in nanoseconds.
uint64_t lks_monotonic_ns(void);

/// Asks the kernel to send `signal` to the calling process when the thread that started it dies
/// (prctl(PR_SET_PDEATHSIG): variadic, so out of Swift's reach). Used by a child process that
/// runs an isolated item, so that it dies with its parent however the parent dies. Returns 0 or
/// an errno value; ENOSYS where the call does not exist (anything but Linux).
int lks_set_parent_death_signal(int signal);

/// posix_spawn_file_actions_addclosefrom_np(actions, from) (glibc 2.34+, a GNU extension Swift
/// does not see): the child closes every descriptor from `from` up. `actions` is a
/// posix_spawn_file_actions_t *. Returns 0 or an errno value; ENOSYS where it does not exist.
int lks_spawn_close_from(void *actions, int from);

/// The x86 `pause` hint (a no-op elsewhere): what a spinning thread executes between polls.
static inline void lks_cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ volatile("yield");
#endif
}

// jemalloc, found at run time so that nothing links against it.

/// 1 when the process allocator exports `mallctl` (jemalloc is loaded, e.g. by LD_PRELOAD).
int lks_jemalloc_active(void);

/// Reads a uint64_t mallctl value (`thread.allocated`, `stats.arenas.4096.small.nrequests`, ...).
/// Returns 0 or an errno value (ENOENT for an unknown name, ENOSYS when jemalloc is not active).
int lks_mallctl_u64(const char *name, uint64_t *value);

/// Reads a size_t mallctl value.
int lks_mallctl_size(const char *name, uint64_t *value);

/// Reads a bool mallctl value (e.g. `config.stats`).
int lks_mallctl_bool(const char *name, int *value);

/// Reads a string mallctl value (e.g. `version`); NULL on failure. The string is jemalloc's.
const char *lks_mallctl_string(const char *name);

/// Advances jemalloc's stats epoch so that `stats.*` values are refreshed; 0 or errno.
int lks_mallctl_refresh_stats(void);

/// Flushes the calling thread's allocation cache (merging its statistics); 0 or errno.
int lks_mallctl_flush_thread_cache(void);

#ifdef __cplusplus
}
#endif

#endif
