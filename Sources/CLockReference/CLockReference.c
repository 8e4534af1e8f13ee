#include "CLockReference.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

// Each counter sits alone on its cache lines so that nothing else shares them.
struct clr_mutex_counter {
    _Alignas(64) pthread_mutex_t mutex;
    uint64_t value;
};

struct clr_atomic_counter {
    _Alignas(64) _Atomic uint64_t value;
};

__attribute__((noinline)) uint64_t clr_spin(uint64_t iterations) {
    uint64_t x = iterations;
    for (uint64_t i = 0; i < iterations; i++) {
        // A dependent multiply-add chain; the empty asm keeps the loop from being folded away.
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        __asm__ volatile("" : "+r"(x));
    }
    return x;
}

clr_mutex_counter *clr_mutex_counter_create(void) {
    clr_mutex_counter *c = aligned_alloc(64, sizeof(clr_mutex_counter));
    if (c == NULL) return NULL;
    pthread_mutex_init(&c->mutex, NULL);
    c->value = 0;
    return c;
}

void clr_mutex_counter_destroy(clr_mutex_counter *c) {
    pthread_mutex_destroy(&c->mutex);
    free(c);
}

uint64_t clr_mutex_counter_value(clr_mutex_counter *c) {
    pthread_mutex_lock(&c->mutex);
    uint64_t v = c->value;
    pthread_mutex_unlock(&c->mutex);
    return v;
}

void clr_mutex_counter_run(clr_mutex_counter *c, uint64_t operations, uint64_t cs_iterations,
                           uint64_t gap_iterations) {
    if (cs_iterations == 0 && gap_iterations == 0) {
        for (uint64_t i = 0; i < operations; i++) {
            pthread_mutex_lock(&c->mutex);
            c->value += 1;
            pthread_mutex_unlock(&c->mutex);
        }
        return;
    }
    for (uint64_t i = 0; i < operations; i++) {
        pthread_mutex_lock(&c->mutex);
        if (cs_iterations) clr_spin(cs_iterations);
        c->value += 1;
        pthread_mutex_unlock(&c->mutex);
        if (gap_iterations) clr_spin(gap_iterations);
    }
}

clr_atomic_counter *clr_atomic_counter_create(void) {
    clr_atomic_counter *c = aligned_alloc(64, sizeof(clr_atomic_counter));
    if (c == NULL) return NULL;
    atomic_init(&c->value, 0);
    return c;
}

void clr_atomic_counter_destroy(clr_atomic_counter *c) { free(c); }

uint64_t clr_atomic_counter_value(clr_atomic_counter *c) {
    return atomic_load_explicit(&c->value, memory_order_acquire);
}

void clr_atomic_counter_run(clr_atomic_counter *c, uint64_t operations, uint64_t cs_iterations,
                            uint64_t gap_iterations) {
    if (cs_iterations == 0 && gap_iterations == 0) {
        for (uint64_t i = 0; i < operations; i++) {
            atomic_fetch_add_explicit(&c->value, 1, memory_order_relaxed);
        }
        return;
    }
    for (uint64_t i = 0; i < operations; i++) {
        if (cs_iterations) clr_spin(cs_iterations);
        atomic_fetch_add_explicit(&c->value, 1, memory_order_relaxed);
        if (gap_iterations) clr_spin(gap_iterations);
    }
}
