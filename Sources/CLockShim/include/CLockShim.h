// Small OS shims for the Locking module: things Swift cannot reach directly on Linux (macros,
// GNU-only constants, RUSAGE_THREAD, function pointers found at run time).
#ifndef CLOCKSHIM_H
#define CLOCKSHIM_H

#include <pthread.h>
#include <stdint.h>
#include <sys/types.h>

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

/// Asks the kernel to send `signal` to the calling process when the thread that started it dies
/// (prctl(PR_SET_PDEATHSIG): variadic, so out of Swift's reach). Used by a child process that
/// runs an isolated item, so that it dies with its parent however the parent dies. Returns 0 or
/// an errno value; ENOSYS where the call does not exist (anything but Linux).
int lks_set_parent_death_signal(int signal);

/// At most this many descriptors are handed to a child (stdin, stdout, stderr, a watch pipe).
#define LKS_SPAWN_MAX_FDS 8

/// One child to start with `lks_spawn` (ChildSpawn.c).
typedef struct {
    /// The executable (a path: no $PATH search), argv and envp, each NULL-terminated.
    const char *path;
    char *const *argv;
    char *const *envp;
    /// The parent's descriptors that become the child's 0, 1, 2, ... (`fd_count` of them); every
    /// other descriptor is closed in the child.
    const int *fds;
    int fd_count;
    /// Linux: the signal the child gets when the parent dies (0: none), armed before exec, and
    /// `parent`, the pid the child checks its parent still is right after arming.
    int death_signal;
    pid_t parent;
    /// The child's address-space ceiling in bytes (RLIMIT_AS, set before exec; 0: inherited), so
    /// that a child allocating without bound fails its allocation instead of swapping the machine
    /// into a watchdog timeout or waking the kernel's OOM killer.
    long long memory_limit;
    /// Out: the child's pid; set by lks_spawn.
    pid_t pid;
    int result;
    int done;
} lks_spawn_request;

/// Starts the child `r` describes in a process group of its own (pgid = its pid), with default
/// signal dispositions and an empty mask, its parent-death signal armed (Linux), and lists it for
/// lks_children_kill_all. The fork happens on one thread that lives as long as the process
/// (PR_SET_PDEATHSIG fires when the forking *thread* ends). Returns 0 (r->pid set) or an errno
/// value: the exec's own error (ENOENT, EACCES) included; ECANCELED once lks_children_kill_all ran.
int lks_spawn(lks_spawn_request *r);

/// As lks_spawn, but forks on the calling thread: for tests only, the control that shows a child
/// forked on a thread that ends is killed with it.
int lks_spawn_on_calling_thread(lks_spawn_request *r);

/// Takes a reaped child off the list.
void lks_children_remove(pid_t pid);

/// SIGKILL to every listed child's process group, and no more children from now on.
/// Async-signal-safe: called from the interrupt handler, and at exit.
void lks_children_kill_all(void);

/// Whether lks_children_kill_all has run.
int lks_children_stopping(void);

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
