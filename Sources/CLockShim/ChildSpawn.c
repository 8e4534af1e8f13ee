// Starting PatternBench's own child processes so that none outlives the run: each in a
// process group of its own, with a parent-death signal on Linux, started from one thread that
// lives as long as the process, and listed where a signal handler can kill them all.
#define _GNU_SOURCE
#include "CLockShim.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/prctl.h>
#include <sys/syscall.h>
#endif

// MARK: The registry

#define LKS_CHILD_SLOTS 1024
static _Atomic pid_t lks_children[LKS_CHILD_SLOTS];
static atomic_int lks_children_stopping_flag;

static void lks_children_add(pid_t pid) {
    for (int i = 0; i < LKS_CHILD_SLOTS; i++) {
        pid_t expected = 0;
        if (atomic_compare_exchange_strong(&lks_children[i], &expected, pid)) return;
    }
    // Full: the child still has its parent-death signal; only the group kill on exit is lost.
}

void lks_children_remove(pid_t pid) {
    for (int i = 0; i < LKS_CHILD_SLOTS; i++) {
        pid_t expected = pid;
        if (atomic_compare_exchange_strong(&lks_children[i], &expected, 0)) return;
    }
}

void lks_children_kill_all(void) {
    atomic_store(&lks_children_stopping_flag, 1);
    for (int i = 0; i < LKS_CHILD_SLOTS; i++) {
        pid_t pid = atomic_load(&lks_children[i]);
        if (pid > 0) {
            kill(-pid, SIGKILL);
            kill(pid, SIGKILL);
        }
    }
}

int lks_children_stopping(void) { return atomic_load(&lks_children_stopping_flag); }

// MARK: The child's side, between fork and exec (async-signal-safe calls only)

/// Closes descriptors `from` ... `to` (inclusive).
static void lks_close_range(int from, int to) {
    if (from > to) return;
#if defined(__linux__) && defined(SYS_close_range)
    if (syscall(SYS_close_range, (unsigned)from, (unsigned)to, 0) == 0) return;
#endif
    struct rlimit limit;
    int top = (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY && limit.rlim_cur < 65536)
        ? (int)limit.rlim_cur - 1 : 65535;
    if (to > top) to = top;
    for (int fd = from; fd <= to; fd++) close(fd);
}

static void lks_report_and_exit(int report, int code) {
    ssize_t unused = write(report, &code, sizeof code);
    (void)unused;
    _exit(127);
}

static void lks_child_after_fork(const lks_spawn_request *r, int report) {
    setpgid(0, 0);
#if defined(__linux__)
    if (r->death_signal != 0) {
        if (prctl(PR_SET_PDEATHSIG, (unsigned long)r->death_signal, 0UL, 0UL, 0UL) != 0) lks_report_and_exit(report, errno);
        // The parent died before the signal was armed: nothing would end this child.
        if (getppid() != r->parent) _exit(137);
    }
#endif
    // The run's handlers are reset by exec; what it ignores or blocks must not be inherited.
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    const int reset[] = {SIGINT, SIGTERM, SIGPIPE, SIGHUP, SIGQUIT, SIGCHLD};
    for (size_t i = 0; i < sizeof reset / sizeof reset[0]; i++) sigaction(reset[i], &dfl, NULL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    if (r->memory_limit > 0) {
        struct rlimit limit = {(rlim_t)r->memory_limit, (rlim_t)r->memory_limit};
        if (setrlimit(RLIMIT_AS, &limit) != 0) lks_report_and_exit(report, errno);
    }
    // Descriptors: the report pipe and every source first moved above the targets (a source or
    // the report pipe may have a target's number), then the sources put in place.
    const int high = LKS_SPAWN_MAX_FDS + 1;
    report = fcntl(report, F_DUPFD_CLOEXEC, high);
    if (report < 0) _exit(127);
    int moved[LKS_SPAWN_MAX_FDS];
    for (int i = 0; i < r->fd_count; i++) {
        moved[i] = fcntl(r->fds[i], F_DUPFD, high);
        if (moved[i] < 0) lks_report_and_exit(report, errno);
    }
    for (int i = 0; i < r->fd_count; i++) {
        if (dup2(moved[i], i) < 0) lks_report_and_exit(report, errno);
    }
    // Nothing else of the parent's: an inherited pipe would keep whoever reads it waiting.
    lks_close_range(r->fd_count, report - 1);
    lks_close_range(report + 1, 0x7fffffff);
    execve(r->path, r->argv, r->envp);
    lks_report_and_exit(report, errno);
}

static int lks_spawn_now(lks_spawn_request *r) {
    if (r->fd_count > LKS_SPAWN_MAX_FDS) return EINVAL;
    if (lks_children_stopping()) return ECANCELED;
    int report[2];
    if (pipe(report) != 0) return errno;
    fcntl(report[0], F_SETFD, FD_CLOEXEC);
    fcntl(report[1], F_SETFD, FD_CLOEXEC);
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        close(report[0]);
        close(report[1]);
        return e;
    }
    if (pid == 0) lks_child_after_fork(r, report[1]);
    close(report[1]);
    setpgid(pid, pid);  // also here, so the group exists before anyone signals it
    lks_children_add(pid);
    int code = 0;
    ssize_t n;
    while ((n = read(report[0], &code, sizeof code)) < 0 && errno == EINTR) {}
    close(report[0]);
    if (n == (ssize_t)sizeof code) {
        // exec failed: reap the child, say why.
        int status;
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
        lks_children_remove(pid);
        return code;
    }
    // An interrupt that came while the child started: it must not be missed.
    if (lks_children_stopping()) {
        kill(-pid, SIGKILL);
        kill(pid, SIGKILL);
    }
    r->pid = pid;
    return 0;
}

// MARK: The spawning thread

// PR_SET_PDEATHSIG fires when the *thread* that forked the child ends, not the process: a child
// forked on a worker thread that later exits would be killed early. So every child is forked on
// this one thread, which never ends.
static pthread_mutex_t lks_spawn_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t lks_spawn_condition = PTHREAD_COND_INITIALIZER;
static lks_spawn_request *lks_spawn_pending;
static pthread_once_t lks_spawner_once = PTHREAD_ONCE_INIT;
static int lks_spawner_error;

static void *lks_spawner_main(void *unused) {
    (void)unused;
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL);  // the run's signal handlers run elsewhere
    pthread_mutex_lock(&lks_spawn_mutex);
    for (;;) {
        while (lks_spawn_pending == NULL || lks_spawn_pending->done) pthread_cond_wait(&lks_spawn_condition, &lks_spawn_mutex);
        lks_spawn_request *r = lks_spawn_pending;
        pthread_mutex_unlock(&lks_spawn_mutex);
        int result = lks_spawn_now(r);
        pthread_mutex_lock(&lks_spawn_mutex);
        r->result = result;
        r->done = 1;
        lks_spawn_pending = NULL;
        pthread_cond_broadcast(&lks_spawn_condition);
    }
    return NULL;
}

static void lks_start_spawner(void) {
    pthread_t thread;
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    lks_spawner_error = pthread_create(&thread, &attributes, lks_spawner_main, NULL);
    pthread_attr_destroy(&attributes);
    // A normal exit (an error, the end of main) takes every child group still running with it.
    atexit(lks_children_kill_all);
}

int lks_spawn_on_calling_thread(lks_spawn_request *r) { return lks_spawn_now(r); }

int lks_spawn(lks_spawn_request *r) {
    pthread_once(&lks_spawner_once, lks_start_spawner);
    if (lks_spawner_error != 0) return lks_spawner_error;
    r->done = 0;
    r->result = 0;
    pthread_mutex_lock(&lks_spawn_mutex);
    while (lks_spawn_pending != NULL) pthread_cond_wait(&lks_spawn_condition, &lks_spawn_mutex);
    lks_spawn_pending = r;
    pthread_cond_broadcast(&lks_spawn_condition);
    while (!r->done) pthread_cond_wait(&lks_spawn_condition, &lks_spawn_mutex);
    pthread_mutex_unlock(&lks_spawn_mutex);
    return r->result;
}
