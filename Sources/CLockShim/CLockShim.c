#define _GNU_SOURCE
#include "CLockShim.h"

#include <dlfcn.h>
#if defined(__linux__)
#include <sys/prctl.h>
#endif
#include <errno.h>
#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <sys/resource.h>

// Linux-only facilities (RUSAGE_THREAD, CPU affinity, adaptive mutexes) answer ENOSYS elsewhere,
// so the library products build on macOS; the live modes that need them say so in one line.

int lks_current_thread_usage(lks_thread_usage *out) {
#if defined(__linux__)
    struct rusage u;
    if (getrusage(RUSAGE_THREAD, &u) != 0) return errno;
    out->user_ns = (uint64_t)u.ru_utime.tv_sec * 1000000000ULL + (uint64_t)u.ru_utime.tv_usec * 1000ULL;
    out->system_ns = (uint64_t)u.ru_stime.tv_sec * 1000000000ULL + (uint64_t)u.ru_stime.tv_usec * 1000ULL;
    out->voluntary_switches = (uint64_t)u.ru_nvcsw;
    out->involuntary_switches = (uint64_t)u.ru_nivcsw;
    return 0;
#else
    (void)out;
    return ENOSYS;
#endif
}

int lks_pin_current_thread(int cpu) {
#if defined(__linux__)
    if (cpu < 0 || cpu >= CPU_SETSIZE) return EINVAL;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
#else
    (void)cpu;
    return ENOSYS;
#endif
}

int lks_mutex_init_adaptive(pthread_mutex_t *mutex) {
#if defined(__linux__)
    pthread_mutexattr_t attr;
    int rc = pthread_mutexattr_init(&attr);
    if (rc != 0) return rc;
    rc = pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_ADAPTIVE_NP);
    if (rc == 0) rc = pthread_mutex_init(mutex, &attr);
    pthread_mutexattr_destroy(&attr);
    return rc;
#else
    (void)mutex;
    return ENOSYS;
#endif
}

typedef int (*mallctl_fn)(const char *, void *, size_t *, void *, size_t);

static mallctl_fn lks_mallctl(void) {
    // RTLD_DEFAULT finds the mallctl of the allocator that actually serves malloc: only a
    // preloaded (or linked) jemalloc is visible here, never one merely dlopen-ed with RTLD_LOCAL.
    static mallctl_fn fn = NULL;
    static int looked = 0;
    if (!looked) {
        fn = (mallctl_fn)dlsym(RTLD_DEFAULT, "mallctl");
        looked = 1;
    }
    return fn;
}

int lks_jemalloc_active(void) { return lks_mallctl() != NULL; }

int lks_mallctl_u64(const char *name, uint64_t *value) {
    mallctl_fn fn = lks_mallctl();
    if (fn == NULL) return ENOSYS;
    uint64_t v = 0;
    size_t len = sizeof(v);
    int rc = fn(name, &v, &len, NULL, 0);
    if (rc == 0) *value = v;
    return rc;
}

int lks_mallctl_bool(const char *name, int *value) {
    mallctl_fn fn = lks_mallctl();
    if (fn == NULL) return ENOSYS;
    bool v = false;
    size_t len = sizeof(v);
    int rc = fn(name, &v, &len, NULL, 0);
    if (rc == 0) *value = v ? 1 : 0;
    return rc;
}

const char *lks_mallctl_string(const char *name) {
    mallctl_fn fn = lks_mallctl();
    if (fn == NULL) return NULL;
    const char *v = NULL;
    size_t len = sizeof(v);
    if (fn(name, &v, &len, NULL, 0) != 0) return NULL;
    return v;
}

int lks_mallctl_refresh_stats(void) {
    mallctl_fn fn = lks_mallctl();
    if (fn == NULL) return ENOSYS;
    uint64_t epoch = 1;
    size_t len = sizeof(epoch);
    return fn("epoch", &epoch, &len, &epoch, len);
}

int lks_mallctl_flush_thread_cache(void) {
    mallctl_fn fn = lks_mallctl();
    if (fn == NULL) return ENOSYS;
    return fn("thread.tcache.flush", NULL, NULL, NULL, 0);
}

int lks_set_parent_death_signal(int signal) {
#if defined(__linux__)
    return prctl(PR_SET_PDEATHSIG, (unsigned long)signal, 0UL, 0UL, 0UL) == 0 ? 0 : errno;
#else
    (void)signal;
    return ENOSYS;
#endif
}
