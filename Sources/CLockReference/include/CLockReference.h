// The C reference for bench-atomics: the same counter loop as the Swift wrappers, written in C on a
// raw pthread mutex and on a C11 atomic, so the wrappers' overhead is measured against C in one run.
#ifndef CLOCKREFERENCE_H
#define CLOCKREFERENCE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Busy work of `iterations` dependent steps that the optimiser cannot remove. Both the Swift
/// loops and the C loops call this one function, so critical-section and between-operation work
/// cost exactly the same in every variant. Returns a value to be discarded.
uint64_t clr_spin(uint64_t iterations);

/// A counter behind a default-attribute pthread mutex, both allocated once.
typedef struct clr_mutex_counter clr_mutex_counter;
clr_mutex_counter *clr_mutex_counter_create(void);
void clr_mutex_counter_destroy(clr_mutex_counter *counter);
uint64_t clr_mutex_counter_value(clr_mutex_counter *counter);

/// `operations` times: lock, `cs_iterations` of work, counter += 1, unlock, `gap_iterations` of work.
void clr_mutex_counter_run(clr_mutex_counter *counter, uint64_t operations,
                           uint64_t cs_iterations, uint64_t gap_iterations);

/// A counter that is a C11 `_Atomic uint64_t` (relaxed fetch-add: the hardware floor).
typedef struct clr_atomic_counter clr_atomic_counter;
clr_atomic_counter *clr_atomic_counter_create(void);
void clr_atomic_counter_destroy(clr_atomic_counter *counter);
uint64_t clr_atomic_counter_value(clr_atomic_counter *counter);

/// `operations` times: `cs_iterations` of work (not exclusive: there is no lock), fetch-add 1,
/// `gap_iterations` of work.
void clr_atomic_counter_run(clr_atomic_counter *counter, uint64_t operations,
                            uint64_t cs_iterations, uint64_t gap_iterations);

#ifdef __cplusplus
}
#endif

#endif
