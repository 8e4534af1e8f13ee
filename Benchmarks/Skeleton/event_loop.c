/* The bare event loop bench-throttle's simulator is compared with (scripts/measure-throttle.sh).
 *
 * Same shape as `bench-throttle --scenario steady --variant fixed-rate --rate R --duration D`:
 * Poisson commits at R per second for D seconds, a fixed publish timer (100 ms), 60 Hz vsyncs,
 * all in one binary heap of (time in integer nanoseconds, sequence) entries. Each event does the
 * least its kind needs (count pending rows, publish them, present a frame), so the rate is an
 * upper bound for an event loop of this shape on this machine, not a model of anything.
 * Timing only: it uses libm's log, which is fine for a figure that is not a result.
 *
 * Usage: event_loop RATE DURATION_S SEED; prints "events N seconds S events_per_s E presented P commits C"
 * (C: the commits the loop processed, the work bench-throttle's rate is compared on). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { COMMIT, TIMER, VSYNC };
typedef struct { int64_t time; uint64_t seq; int kind; } Entry;
static Entry *heap; static size_t count, cap; static uint64_t seq;

static int less(const Entry *a, const Entry *b) {
  return a->time != b->time ? a->time < b->time : a->seq < b->seq;
}
static void push(int64_t time, int kind) {
  if (count == cap) { cap = cap ? 2 * cap : 64; heap = realloc(heap, cap * sizeof *heap); }
  size_t i = count++;
  Entry e = {time, seq++, kind};
  while (i > 0 && less(&e, &heap[(i - 1) / 2])) { heap[i] = heap[(i - 1) / 2]; i = (i - 1) / 2; }
  heap[i] = e;
}
static Entry pop(void) {
  Entry top = heap[0], last = heap[--count];
  size_t i = 0;
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= count) break;
    if (c + 1 < count && less(&heap[c + 1], &heap[c])) c++;
    if (!less(&heap[c], &last)) break;
    heap[i] = heap[c]; i = c;
  }
  heap[i] = last;
  return top;
}
static uint64_t rng_state;
static double open_unit(void) { /* splitmix64: (0, 1] */
  uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull; z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return (double)(((z ^ (z >> 31)) >> 11) + 1) * 0x1.0p-53;
}

int main(int argc, char **argv) {
  if (argc != 4) { fprintf(stderr, "usage: event_loop RATE DURATION_S SEED\n"); return 64; }
  double rate = atof(argv[1]), duration = atof(argv[2]);
  rng_state = strtoull(argv[3], 0, 10);
  if (!(rate > 0) || !(duration > 0)) { fprintf(stderr, "event_loop: RATE and DURATION_S must be positive\n"); return 64; }
  int64_t end = (int64_t)(duration * 1e9), frame = 1000000000 / 60;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  double now_s = 0;
  uint64_t events = 0, commits = 0, pending = 0, published = 0, presented = 0;
  push((int64_t)llround((now_s -= log(open_unit()) / rate) * 1e9), COMMIT);
  push(100000000, TIMER);
  push(frame, VSYNC);
  while (count > 0) {
    Entry e = pop();
    if (e.time >= end) break;
    events++;
    switch (e.kind) {
    case COMMIT: commits++; pending++; push((int64_t)llround((now_s -= log(open_unit()) / rate) * 1e9), COMMIT); break;
    case TIMER: published += pending; pending = 0; push(e.time + 100000000, TIMER); break;
    case VSYNC: presented += published; published = 0; push(e.time + frame, VSYNC); break;
    }
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
  printf("events %llu seconds %.6f events_per_s %.0f presented %llu commits %llu\n", (unsigned long long)events, s,
         events / s, (unsigned long long)presented, (unsigned long long)commits);
  free(heap);
  return 0;
}
