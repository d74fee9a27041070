/*
 * node-floor: the least a one-node collective costs on this host when every rank is a process, measured the way
 * `railcoll bench` and peer_bench measure (OSU style), so it can stand beside railcoll and Open MPI in one table.
 *
 * What it runs: N processes on one node, sharing one anonymous mapping. Each rank owns a cache-line-aligned mailbox
 * (a sequence word and up to 4 KiB of data). A call writes the data, then release-stores the call number; a reader
 * acquire-loads the sequence until it shows the call. Waits spin while every rank has a processor; when ranks
 * outnumber processors they are sched_yield loops, the cheapest hand-over of a processor this machine has
 * (bench/yield-handover.c; waking a futex sleeper costs 2-3x more here, see docs/results/node-floor.md). Nothing else: no liveness checks, no time-outs, no JVM, one mapping. It is
 * not a library (a dead rank hangs it); it is the floor under any process-per-rank design on this host.
 *
 *   allgather  every rank writes its block, then reads every other rank's
 *   gather     every rank but the root writes its block; the root reads them all
 *   bcast      the root writes; every other rank reads
 *   barrier    the barrier alone (the counter and release below), timed
 *
 * The barrier between timed calls (untimed, as OSU's MPI_Barrier): every rank adds 1 to an arrival counter; local
 * rank 0 waits for all N arrivals of this barrier and then release-stores the barrier number, which the others
 * wait for. Two orders of leaving are measured for the rooted collectives (root = rank 0):
 *   root-first  rank 0 leaves as soon as it has released (railcoll's node barrier, decision 0015)
 *   root-last   rank 0 leaves only after every other rank has left (it waits for a second counter)
 * With ranks sharing a processor whichever leaves first waits, inside its timed call, for the ranks sharing its
 * processor: a broadcast wants the root out first, a gather wants it out last, and a barrier cannot know which call
 * follows it.
 *
 * Timing: per sample, `warmup` untimed calls and `iterations` timed ones, each timed call after an untimed barrier;
 * each rank averages its calls; the sample is the maximum of those averages over ranks; the median over samples is
 * printed, with the minimum and maximum sample. Binding as railcoll's launcher does by default (RAILCOLL_BIND=auto):
 * round-robin over the processors while there are at most 4 ranks per processor, none beyond.
 *
 * Output, one line per (collective, order, size): node-floor,<collective>,<order>,<ranks>,<size>,<median_us>,<min_us>,<max_us>
 *
 * cc -O2 -o /tmp/node-floor bench/node-floor.c && /tmp/node-floor 4
 * Options: node-floor N [samples [iterations [sizes, comma-separated]]]   (defaults 7, 2000, 1,64,4096)
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_RANKS 64
#define MAX_BLOCK 4096
#define MAX_SAMPLES 101
#define MAX_SIZES 16
#define LINE 64

enum collective { ALLGATHER, GATHER, BCAST, BARRIER };
static const char *const NAMES[] = {"allgather", "gather", "bcast", "barrier"};
enum order { ROOT_FIRST, ROOT_LAST };
static const char *const ORDERS[] = {"root-first", "root-last"};

struct mailbox {
    _Alignas(LINE) atomic_long seq;
    _Alignas(LINE) unsigned char data[MAX_BLOCK];
};

struct shared {
    _Alignas(LINE) atomic_long arrived;  /* barrier arrivals, ever */
    _Alignas(LINE) atomic_long released; /* last barrier released */
    _Alignas(LINE) atomic_long left;     /* ranks that left a barrier, ever (root-last) */
    _Alignas(LINE) long mean_ns[MAX_RANKS];
    struct mailbox box[MAX_RANKS];
};

static struct shared *sh;
static int n, me;
static long barriers, root_last_barriers, calls;

static long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000L + t.tv_nsec;
}

/* Spin while every rank has a processor of its own, yield the processor when ranks outnumber them. */
static int spin;

static void wait_at_least(atomic_long *word, long value) {
    while (atomic_load_explicit(word, memory_order_acquire) < value) {
        if (spin) {
            __builtin_ia32_pause();
        } else {
            sched_yield();
        }
    }
}

static void barrier(enum order order) {
    long b = ++barriers;
    long l = order == ROOT_LAST ? ++root_last_barriers : 0;
    atomic_fetch_add_explicit(&sh->arrived, 1, memory_order_acq_rel);
    if (me == 0) {
        wait_at_least(&sh->arrived, b * n);
        atomic_store_explicit(&sh->released, b, memory_order_release);
        if (order == ROOT_LAST) {
            wait_at_least(&sh->left, l * (n - 1));
        }
    } else {
        wait_at_least(&sh->released, b);
        if (order == ROOT_LAST) {
            atomic_fetch_add_explicit(&sh->left, 1, memory_order_acq_rel);
        }
    }
}

static void post(const unsigned char *src, long bytes, long call) {
    memcpy(sh->box[me].data, src, bytes);
    atomic_store_explicit(&sh->box[me].seq, call, memory_order_release);
}

static void take(int q, unsigned char *dst, long bytes, long call) {
    wait_at_least(&sh->box[q].seq, call);
    memcpy(dst, sh->box[q].data, bytes);
}

static void collective(enum collective c, enum order order, unsigned char *src, unsigned char *dst, long bytes) {
    long call = ++calls;
    switch (c) {
    case ALLGATHER:
        post(src, bytes, call);
        memcpy(dst + me * bytes, src, bytes);
        for (int i = 1; i < n; i++) {
            int q = (me + i) % n;
            take(q, dst + q * bytes, bytes, call);
        }
        break;
    case GATHER:
        if (me != 0) {
            post(src, bytes, call);
        } else {
            memcpy(dst, src, bytes);
            for (int q = 1; q < n; q++) {
                take(q, dst + q * bytes, bytes, call);
            }
        }
        break;
    case BCAST:
        if (me == 0) {
            post(src, bytes, call);
        } else {
            take(0, src, bytes, call);
        }
        break;
    case BARRIER:
        barrier(order);
        break;
    }
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* One rank's part of every measurement; rank 0 prints. The ranks run the same sequence of calls. */
static void run_rank(int samples, int iterations, const long *sizes, int size_count) {
    static unsigned char src[MAX_BLOCK], dst[MAX_BLOCK * MAX_RANKS];
    memset(src, me + 1, sizeof src);
    for (int c = ALLGATHER; c <= BARRIER; c++) {
        int orders = c == GATHER || c == BCAST ? 2 : 1;
        for (int o = 0; o < orders; o++) {
            for (int z = 0; z < (c == BARRIER ? 1 : size_count); z++) {
                long bytes = c == BARRIER ? 0 : sizes[z];
                double sample_us[MAX_SAMPLES];
                for (int s = 0; s < samples; s++) {
                    for (int i = 0; i < iterations / 10 + 10; i++) {
                        barrier(o);
                        collective(c, o, src, dst, bytes);
                    }
                    long total = 0;
                    for (int i = 0; i < iterations; i++) {
                        barrier(o);
                        long t0 = now_ns();
                        collective(c, o, src, dst, bytes);
                        total += now_ns() - t0;
                    }
                    sh->mean_ns[me] = total / iterations;
                    barrier(ROOT_FIRST);
                    if (me == 0) {
                        long max = 0;
                        for (int q = 0; q < n; q++) {
                            max = sh->mean_ns[q] > max ? sh->mean_ns[q] : max;
                        }
                        sample_us[s] = max / 1000.0;
                    }
                    barrier(ROOT_FIRST);
                }
                if (me == 0) {
                    qsort(sample_us, samples, sizeof(double), by_value);
                    printf("node-floor,%s,%s,%d,%ld,%.3f,%.3f,%.3f\n", NAMES[c], c == GATHER || c == BCAST ? ORDERS[o] : "-",
                           n, bytes, sample_us[samples / 2], sample_us[0], sample_us[samples - 1]);
                    fflush(stdout);
                }
            }
        }
    }
}

int main(int argc, char **argv) {
    if (argc < 2 || (n = atoi(argv[1])) < 2 || n > MAX_RANKS) {
        fprintf(stderr, "usage: node-floor RANKS(2..%d) [samples [iterations [sizes]]]\n", MAX_RANKS);
        return 2;
    }
    int samples = argc > 2 ? atoi(argv[2]) : 7;
    int iterations = argc > 3 ? atoi(argv[3]) : 2000;
    long sizes[MAX_SIZES] = {1, 64, 4096};
    int size_count = 3;
    if (argc > 4) {
        size_count = 0;
        for (char *tok = strtok(argv[4], ","); tok != NULL && size_count < MAX_SIZES; tok = strtok(NULL, ",")) {
            sizes[size_count++] = atol(tok);
        }
    }
    if (samples < 1 || samples > MAX_SAMPLES || iterations < 1) {
        fprintf(stderr, "node-floor: samples must be 1..%d and iterations positive\n", MAX_SAMPLES);
        return 2;
    }
    for (int z = 0; z < size_count; z++) {
        if (sizes[z] < 0 || sizes[z] > MAX_BLOCK) {
            fprintf(stderr, "node-floor: sizes must be 0..%d bytes\n", MAX_BLOCK);
            return 2;
        }
    }
    sh = mmap(NULL, sizeof *sh, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (sh == MAP_FAILED) {
        perror("node-floor: mmap");
        return 1;
    }
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    int bind = n <= 4 * cpus;
    spin = n <= cpus;
    for (int r = 0; r < n; r++) {
        pid_t pid = fork();
        if (pid < 0) {
            perror("node-floor: fork");
            return 1;
        }
        if (pid == 0) {
            me = r;
            if (bind) {
                cpu_set_t one;
                CPU_ZERO(&one);
                CPU_SET(r % cpus, &one);
                sched_setaffinity(0, sizeof one, &one);
            }
            run_rank(samples, iterations, sizes, size_count);
            _exit(0);
        }
    }
    int status, failed = 0;
    while (wait(&status) > 0) {
        failed |= !WIFEXITED(status) || WEXITSTATUS(status) != 0;
    }
    return failed;
}
