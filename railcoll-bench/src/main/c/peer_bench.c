/*
 * peer_bench: the MPI side of `railcoll bench --peer`, timing one collective the way the OSU
 * micro-benchmarks do, so railcoll's numbers and the MPI library's come from the same method.
 *
 * Timing (per message size, per sample), as in osu_allgather and friends:
 *   - `warmup` untimed calls, then `iterations` timed calls; each call is timed alone with
 *     MPI_Wtime and an MPI_Barrier separates calls (outside the timed region), so every call
 *     starts with the ranks roughly aligned and a slow rank cannot hide in the next call;
 *   - each rank averages its own calls; the sample is the MAX of those averages over ranks
 *     (MPI_Reduce to rank 0), i.e. the time until the slowest rank was done;
 *   - this repeats `samples` times; the Java side keeps min/median/max over samples.
 * Sizes at or above `large-from` bytes use the smaller `large-iterations`/`large-warmup` counts,
 * as OSU does, so 1 MiB points on an oversubscribed machine do not take minutes.
 *
 * --added-below B (railcoll's decision 0232): each sample of a size below B bytes (not the barrier) also measures what
 * one call adds to a loop of barriers, a figure that does not depend on which rank MPI_Barrier lets out first. After
 * the timed calls, every rank times a loop of `iterations` x (MPI_Barrier + call) and a loop of `iterations` x
 * MPI_Barrier alone, each split into 4 rounds whose loops alternate (pairs first in rounds 0 and 2, barriers first in
 * 1 and 3) so both see the same load, an untimed barrier before each loop; the rank's figure is (pairs - barriers) /
 * iterations, the sample's the MAX over ranks. railcoll bench takes the same calls in the same order.
 *
 * --budget-us B makes the counts those of `railcoll bench`, so both sides of a comparison average
 * the same number of calls per sample (the max over ranks of short means is biased upward when
 * ranks outnumber processors, so unequal counts alone move the ratio by up to 2x): before the
 * first sample of a size, warm-up calls in rounds of 8 until `warmup` or B elapsed, then the
 * fastest of 3 calls on rank 0 sets iterations = min(iterations, B / fastest), at least 1, and
 * each sample's untimed calls to min(warmup, iterations).
 *
 * Size semantics (same as railcoll's block size): the bytes each rank contributes. allgather
 * and gather move size bytes per rank (receive size*N); bcast moves size bytes from root 0;
 * alltoall sends size bytes to each peer (send and receive size*N); allreduce sums size/8
 * doubles (MPI_DOUBLE, MPI_SUM; size must be a multiple of 8), as `railcoll bench --collective
 * allreduce` does, and so do reduce (to root 0), scan and exscan; reduce-scatter
 * (MPI_Reduce_scatter_block) sums N blocks of size/8 doubles, each rank receiving its block; barrier
 * ignores sizes and is measured once, reported as size 0.
 *
 * --check runs one untimed call per size before timing with a pattern that depends on source
 * rank and byte index, receive buffers poisoned first, and compares every received byte.
 *
 * --rail-interfaces rail0,rail1 (rail accounting, railcoll's RailLedger): every rank reads the kernel byte
 * counters of those interfaces in its own network namespace (/proc/self/net/dev) after a barrier before the
 * first sample of a size and after a barrier behind the last, and rank 0 prints each rank's deltas, with the
 * calls made in between (samples x (untimed + timed calls)) and the window's length.
 *
 * Output: CSV on stdout, written by rank 0 only; the first field names the record type:
 *   info,library,"<MPI_Get_library_version, first line>"
 *   info,ranks,<N>
 *   where,<rank>,<network namespace>,<host name>   (one per rank: readlink /proc/self/ns/net, gethostname; the
 *                                                  testbed peer checks that every node's ranks run in its namespace)
 *   check,<collective>,<ranks>,<size_bytes>,ok
 *   check,<collective>,<ranks>,<size_bytes>,FAILED,<ranks with wrong bytes>
 *   sample,<collective>,<ranks>,<size_bytes>,<iterations>,<sample_index>,<latency_us>[,<added_us>]
 *                                                  (added_us, below --added-below: what a call adds to the barrier loop)
 *   rails,<label>,<size_bytes>,<rank>,<calls>,<elapsed_ns>,<interface>,<rx_bytes>,<tx_bytes>
 *   done,<collective>,<ranks>
 * Errors in the arguments go to stderr with exit status 2; a failed check exits with 3 after
 * all sizes were checked, so the caller sees every failing size.
 */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum collective { ALLGATHER, GATHER, BCAST, BARRIER, ALLTOALL, ALLREDUCE, REDUCE, REDUCE_SCATTER, SCAN, EXSCAN };

static const char *const COLLECTIVE_NAMES[] = {"allgather", "gather", "bcast", "barrier", "alltoall", "allreduce",
                                               "reduce", "reduce-scatter", "scan", "exscan"};

/* The collectives that sum doubles rather than move bytes. */
static int reduces(enum collective c) {
    return c == ALLREDUCE || c == REDUCE || c == REDUCE_SCATTER || c == SCAN || c == EXSCAN;
}

#define MAX_SIZES 64
#define MAX_RAILS 8
#define MAX_IFNAME 32
#define ROOT 0
#define POISON 0xEE

struct options {
    enum collective collective;
    long sizes[MAX_SIZES];
    int size_count;
    int warmup;
    int iterations;
    int large_warmup;
    int large_iterations;
    long large_from;
    int samples;
    int check;
    long budget_us; /* 0: OSU's fixed counts */
    char rails[MAX_RAILS][MAX_IFNAME]; /* interfaces to account, none by default */
    int rail_count;
    char label[64];
    long added_below; /* sizes below this also measure what a call adds to a loop of barriers; 0: none */
};

static int rank_id;
static int rank_count;

static void usage_error(const char *message, const char *arg) {
    if (rank_id == 0) {
        fprintf(stderr, "peer_bench: %s%s%s\n", message, arg ? ": " : "", arg ? arg : "");
        fprintf(stderr, "usage: peer_bench --collective allgather|gather|bcast|barrier|alltoall|allreduce|reduce|"
                        "reduce-scatter|scan|exscan "
                        "--sizes 1,2,4 [--warmup N] [--iterations N] [--large-warmup N] "
                        "[--large-iterations N] [--large-from BYTES] [--samples N] [--budget-us N] [--check] "
                        "[--rail-interfaces IF,IF] [--rail-label LABEL] [--added-below BYTES]\n");
    }
    MPI_Finalize();
    exit(2);
}

static long parse_long(const char *text, long min) {
    char *end;
    errno = 0;
    long value = strtol(text, &end, 10);
    if (errno != 0 || *end != '\0' || end == text || value < min) {
        usage_error("bad number", text);
    }
    return value;
}

static void parse_sizes(struct options *o, const char *list) {
    char *copy = strdup(list);
    char *save = NULL;
    o->size_count = 0;
    for (char *item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
        if (o->size_count == MAX_SIZES) {
            usage_error("too many sizes (at most 64)", list);
        }
        o->sizes[o->size_count++] = parse_long(item, 0);
    }
    free(copy);
    if (o->size_count == 0) {
        usage_error("no sizes", list);
    }
}

static void parse_options(struct options *o, int argc, char **argv) {
    /* OSU's defaults (osu_util.h): 1000/200 below 8 KiB, 100/10 from there on. */
    *o = (struct options){.collective = ALLGATHER, .warmup = 200, .iterations = 1000,
                          .large_warmup = 10, .large_iterations = 100, .large_from = 8192,
                          .samples = 5, .check = 0, .budget_us = 0, .size_count = 0, .rail_count = 0,
                          .label = "peer", .added_below = 0};
    int have_collective = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--check") == 0) {
            o->check = 1;
            continue;
        }
        if (i + 1 >= argc) {
            usage_error("missing value or unknown flag", a);
        }
        const char *v = argv[++i];
        if (strcmp(a, "--collective") == 0) {
            int found = 0;
            for (int c = 0; c < (int)(sizeof COLLECTIVE_NAMES / sizeof COLLECTIVE_NAMES[0]); c++) {
                if (strcmp(v, COLLECTIVE_NAMES[c]) == 0) {
                    o->collective = (enum collective)c;
                    found = 1;
                }
            }
            if (!found) {
                usage_error("unknown collective", v);
            }
            have_collective = 1;
        } else if (strcmp(a, "--sizes") == 0) {
            parse_sizes(o, v);
        } else if (strcmp(a, "--warmup") == 0) {
            o->warmup = (int)parse_long(v, 0);
        } else if (strcmp(a, "--iterations") == 0) {
            o->iterations = (int)parse_long(v, 1);
        } else if (strcmp(a, "--large-warmup") == 0) {
            o->large_warmup = (int)parse_long(v, 0);
        } else if (strcmp(a, "--large-iterations") == 0) {
            o->large_iterations = (int)parse_long(v, 1);
        } else if (strcmp(a, "--large-from") == 0) {
            o->large_from = parse_long(v, 0);
        } else if (strcmp(a, "--samples") == 0) {
            o->samples = (int)parse_long(v, 1);
        } else if (strcmp(a, "--budget-us") == 0) {
            o->budget_us = parse_long(v, 0);
        } else if (strcmp(a, "--rail-interfaces") == 0) {
            char *copy = strdup(v);
            char *save = NULL;
            for (char *item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
                if (o->rail_count == MAX_RAILS || strlen(item) >= MAX_IFNAME) {
                    usage_error("too many rail interfaces (at most 8) or a name too long", v);
                }
                strcpy(o->rails[o->rail_count++], item);
            }
            free(copy);
        } else if (strcmp(a, "--added-below") == 0) {
            o->added_below = parse_long(v, 0);
        } else if (strcmp(a, "--rail-label") == 0) {
            if (strlen(v) >= sizeof o->label || strchr(v, ',')) {
                usage_error("--rail-label must be under 64 characters without commas", v);
            }
            strcpy(o->label, v);
        } else {
            usage_error("unknown flag", a);
        }
    }
    if (!have_collective) {
        usage_error("--collective is required", NULL);
    }
    if (o->collective == BARRIER) {
        o->sizes[0] = 0;
        o->size_count = 1;
    } else if (o->size_count == 0) {
        usage_error("--sizes is required", NULL);
    }
    if (reduces(o->collective)) {
        for (int i = 0; i < o->size_count; i++) {
            if (o->sizes[i] % (long)sizeof(double) != 0) {
                usage_error("the reductions sum doubles: every size must be a multiple of 8 bytes", NULL);
            }
        }
    }
}

/* The byte that rank `src` contributes at `index` of what it sends; never equal to POISON for
 * long stretches, and different across ranks and positions so a misplaced block is caught. */
static unsigned char pattern(int src, long index) {
    return (unsigned char)((src * 131 + index * 7 + (index >> 8) + 1) & 0xFF);
}

static void run_once(enum collective c, unsigned char *send, unsigned char *recv, long size) {
    int n = (int)size; /* sizes are limited to INT_MAX by the caller's check */
    switch (c) {
        case ALLGATHER:
            MPI_Allgather(send, n, MPI_BYTE, recv, n, MPI_BYTE, MPI_COMM_WORLD);
            break;
        case GATHER:
            MPI_Gather(send, n, MPI_BYTE, recv, n, MPI_BYTE, ROOT, MPI_COMM_WORLD);
            break;
        case BCAST:
            /* The root broadcasts from its receive buffer: the same convention railcoll uses. */
            MPI_Bcast(recv, n, MPI_BYTE, ROOT, MPI_COMM_WORLD);
            break;
        case BARRIER:
            MPI_Barrier(MPI_COMM_WORLD);
            break;
        case ALLTOALL:
            MPI_Alltoall(send, n, MPI_BYTE, recv, n, MPI_BYTE, MPI_COMM_WORLD);
            break;
        case ALLREDUCE:
            MPI_Allreduce(send, recv, n / (int)sizeof(double), MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
            break;
        case REDUCE:
            MPI_Reduce(send, recv, n / (int)sizeof(double), MPI_DOUBLE, MPI_SUM, ROOT, MPI_COMM_WORLD);
            break;
        case REDUCE_SCATTER:
            MPI_Reduce_scatter_block(send, recv, n / (int)sizeof(double), MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
            break;
        case SCAN:
            MPI_Scan(send, recv, n / (int)sizeof(double), MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
            break;
        case EXSCAN:
            MPI_Exscan(send, recv, n / (int)sizeof(double), MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
            break;
    }
}

/* The double rank `src` contributes at element `index` of an all-reduce: a small integer, so that
 * every sum over ranks is exact whatever order the library adds in, and a wrong or missing
 * contribution changes the result. */
static double reduce_term(int src, long index) {
    return (double)((src * 131 + index * 7 + 1) & 0x3FF);
}

/* Checks a reduction: returns the number of wrong elements on this rank. Element i of the result
 * sums the terms at first + i of the ranks it covers: every rank (reduce-scatter: at this rank's
 * block), ranks up to this one (scan) or before it (exscan; rank 0's result is undefined); only the
 * root's result of a reduce is defined. */
static long check_reduction(enum collective c, unsigned char *send, unsigned char *recv, long size) {
    long count = size / (long)sizeof(double);
    long inputs = c == REDUCE_SCATTER ? count * rank_count : count;
    double *in = (double *)send;
    double *out = (double *)recv;
    memset(recv, POISON, (size_t)size);
    for (long i = 0; i < inputs; i++) {
        in[i] = reduce_term(rank_id, i);
    }
    run_once(c, send, recv, size);
    if ((c == REDUCE && rank_id != ROOT) || (c == EXSCAN && rank_id == 0)) {
        return 0;
    }
    long first = c == REDUCE_SCATTER ? rank_id * count : 0;
    int ranks = c == SCAN ? rank_id + 1 : c == EXSCAN ? rank_id : rank_count;
    long wrong = 0;
    for (long i = 0; i < count; i++) {
        double expected = 0.0;
        for (int r = 0; r < ranks; r++) {
            expected += reduce_term(r, first + i);
        }
        if (out[i] != expected) {
            if (wrong == 0) {
                fprintf(stderr, "peer_bench: rank %d, %s size %ld: element %ld is %g, expected %g\n",
                        rank_id, COLLECTIVE_NAMES[c], size, i, out[i], expected);
            }
            wrong++;
        }
    }
    return wrong;
}

/* Fills inputs with the pattern, poisons outputs, runs once, returns the number of wrong bytes
 * this rank holds (its own first mismatch goes to stderr for the person debugging). */
static long check_once(enum collective c, unsigned char *send, unsigned char *recv, long size) {
    if (reduces(c)) {
        return check_reduction(c, send, recv, size);
    }
    long total = size * rank_count;
    memset(recv, POISON, (size_t)total);
    if (c == ALLTOALL) {
        for (long i = 0; i < total; i++) {
            send[i] = pattern(rank_id, i);
        }
    } else {
        for (long i = 0; i < size; i++) {
            send[i] = pattern(rank_id, i);
        }
    }
    if (c == BCAST && rank_id == ROOT) {
        memcpy(recv, send, (size_t)size);
    }
    run_once(c, send, recv, size);

    long wrong = 0;
    long first_bad = -1;
    unsigned char expected_at_first = 0;
    for (long i = 0; i < total; i++) {
        unsigned char expected;
        long block = i / (size ? size : 1);
        long offset = i % (size ? size : 1);
        switch (c) {
            case ALLGATHER:
                expected = pattern((int)block, offset);
                break;
            case GATHER:
                if (rank_id != ROOT) {
                    return 0; /* only the root receives */
                }
                expected = pattern((int)block, offset);
                break;
            case BCAST:
                if (i >= size) {
                    return wrong;
                }
                expected = pattern(ROOT, i);
                break;
            case ALLTOALL:
                /* Block `block` came from rank `block`: its bytes for me start at rank_id*size. */
                expected = pattern((int)block, (long)rank_id * size + offset);
                break;
            default:
                return 0;
        }
        if (recv[i] != expected) {
            if (first_bad < 0) {
                first_bad = i;
                expected_at_first = expected;
            }
            wrong++;
        }
    }
    if (wrong > 0) {
        fprintf(stderr, "peer_bench: rank %d, %s size %ld: %ld wrong bytes, first at %ld "
                        "(expected 0x%02x, got 0x%02x)\n",
                rank_id, COLLECTIVE_NAMES[c], size, wrong, first_bad, expected_at_first,
                recv[first_bad]);
    }
    return wrong;
}

/* Rounds of the loops behind the figure added to a barrier loop; their order alternates round by round. */
#define ADDED_ROUNDS 4

/* Seconds this rank took for `calls` x (barrier + call), after an untimed barrier. */
static double time_pairs(enum collective c, unsigned char *send, unsigned char *recv, long size, int calls) {
    MPI_Barrier(MPI_COMM_WORLD);
    double start = MPI_Wtime();
    for (int i = 0; i < calls; i++) {
        MPI_Barrier(MPI_COMM_WORLD);
        run_once(c, send, recv, size);
    }
    return MPI_Wtime() - start;
}

/* Seconds this rank took for `calls` barriers, after an untimed barrier. */
static double time_barriers(int calls) {
    MPI_Barrier(MPI_COMM_WORLD);
    double start = MPI_Wtime();
    for (int i = 0; i < calls; i++) {
        MPI_Barrier(MPI_COMM_WORLD);
    }
    return MPI_Wtime() - start;
}

/* What one call adds to a loop of barriers on this rank, in us: `iterations` pairs less `iterations` barriers, in
 * ADDED_ROUNDS rounds of alternating order, per call. */
static double time_added(enum collective c, unsigned char *send, unsigned char *recv, long size, int iterations) {
    double pairs = 0.0;
    double barriers = 0.0;
    for (int round = 0; round < ADDED_ROUNDS; round++) {
        int calls = (int)((long)iterations * (round + 1) / ADDED_ROUNDS - (long)iterations * round / ADDED_ROUNDS);
        if (calls == 0) {
            continue;
        }
        if (round % 2 == 0) {
            pairs += time_pairs(c, send, recv, size, calls);
            barriers += time_barriers(calls);
        } else {
            barriers += time_barriers(calls);
            pairs += time_pairs(c, send, recv, size, calls);
        }
    }
    return (pairs - barriers) * 1e6 / iterations;
}

/* One OSU sample: the max over ranks of each rank's average call time, on rank 0, into out[0]; with `added`, the max
 * over ranks of what a call adds to a loop of barriers into out[1]. */
static void time_sample(enum collective c, unsigned char *send, unsigned char *recv, long size,
                        int warmup, int iterations, int added, double out[2]) {
    double busy = 0.0;
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < warmup + iterations; i++) {
        double start = MPI_Wtime();
        run_once(c, send, recv, size);
        double stop = MPI_Wtime();
        if (i >= warmup) {
            busy += stop - start;
        }
        /* osu_barrier times back-to-back barriers; every other collective is separated. */
        if (c != BARRIER) {
            MPI_Barrier(MPI_COMM_WORLD);
        }
    }
    double mine[2] = {busy * 1e6 / iterations, added ? time_added(c, send, recv, size, iterations) : 0.0};
    MPI_Reduce(mine, out, 2, MPI_DOUBLE, MPI_MAX, ROOT, MPI_COMM_WORLD);
}

static void print_library(void) {
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int length = 0;
    MPI_Get_library_version(version, &length);
    /* Keep the first line and write it as one quoted CSV field (quotes doubled). */
    char *newline = strchr(version, '\n');
    if (newline) {
        *newline = '\0';
    }
    fputs("info,library,\"", stdout);
    for (const char *p = version; *p; p++) {
        if (*p == '"') {
            fputc('"', stdout);
        }
        fputc(*p, stdout);
    }
    fputs("\"\n", stdout);
    printf("info,ranks,%d\n", rank_count);
}

#define WHERE_LEN 256

/* Every rank's network namespace and host name, gathered to rank 0 and printed as where records (collective).
 * Open MPI can start ranks elsewhere than asked without failing (a plm that launches nothing remote, OMPI_MCA_plm=isolated,
 * maps every rank onto mpirun's node): only where they ran says whether the emulated nodes were nodes. */
static void print_where(void) {
    char ns[96] = "unknown";
    char host[128] = "unknown";
    ssize_t n = readlink("/proc/self/ns/net", ns, sizeof ns - 1);
    ns[n > 0 ? n : 0] = '\0';
    if (n <= 0) {
        strcpy(ns, "unknown");
    }
    if (gethostname(host, sizeof host) != 0) {
        strcpy(host, "unknown");
    }
    host[sizeof host - 1] = '\0';
    for (char *p = host; *p; p++) {
        if (*p == ',' || *p == '"' || *p == '\n') {
            *p = '_';
        }
    }
    char mine[WHERE_LEN];
    snprintf(mine, sizeof mine, "%.95s,%.127s", ns, host);
    char *all = rank_id == 0 ? malloc((size_t)WHERE_LEN * (size_t)rank_count) : NULL;
    if (rank_id == 0 && all == NULL) {
        fprintf(stderr, "peer_bench: cannot allocate the where records\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Gather(mine, WHERE_LEN, MPI_CHAR, all, WHERE_LEN, MPI_CHAR, 0, MPI_COMM_WORLD);
    if (rank_id == 0) {
        for (int r = 0; r < rank_count; r++) {
            printf("where,%d,%s\n", r, all + (size_t)r * WHERE_LEN);
        }
        free(all);
    }
}

/* Reads rx and tx bytes of every accounted interface from this process's namespace into counts[2*i],
 * counts[2*i+1]; aborts naming an interface the namespace lacks. */
static void read_rails(const struct options *o, long long *counts) {
    FILE *f = fopen("/proc/self/net/dev", "r");
    if (!f) {
        fprintf(stderr, "peer_bench: rank %d cannot read /proc/self/net/dev\n", rank_id);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    int found[MAX_RAILS] = {0};
    char line[512];
    while (fgets(line, sizeof line, f)) {
        char *colon = strchr(line, ':');
        if (!colon) {
            continue;
        }
        *colon = '\0';
        char *name = line;
        while (*name == ' ') {
            name++;
        }
        for (int i = 0; i < o->rail_count; i++) {
            if (strcmp(name, o->rails[i]) == 0) {
                long long v[16];
                if (sscanf(colon + 1, "%lld %lld %lld %lld %lld %lld %lld %lld %lld", &v[0], &v[1], &v[2], &v[3],
                           &v[4], &v[5], &v[6], &v[7], &v[8]) == 9) {
                    counts[2 * i] = v[0];
                    counts[2 * i + 1] = v[8];
                    found[i] = 1;
                }
            }
        }
    }
    fclose(f);
    for (int i = 0; i < o->rail_count; i++) {
        if (!found[i]) {
            fprintf(stderr, "peer_bench: rank %d has no interface %s in its network namespace\n", rank_id, o->rails[i]);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    }
}

/* Warm-up in rounds of 8 calls until `warmup` calls or `budget_us` elapsed; rank 0 decides, as
 * railcoll bench does, so every rank makes the same calls. */
static void warm_up_within(enum collective c, unsigned char *send, unsigned char *recv, long size, int warmup,
                           long budget_us) {
    double start = MPI_Wtime();
    for (int done = 0; done < warmup; done += 8) {
        for (int i = 0; i < 8; i++) {
            run_once(c, send, recv, size);
        }
        int more = (MPI_Wtime() - start) * 1e6 < (double)budget_us;
        MPI_Bcast(&more, 1, MPI_INT, ROOT, MPI_COMM_WORLD);
        if (!more) {
            return;
        }
    }
}

/* Timed calls per sample that fit `budget_us`, from the fastest of 3 calls on rank 0. */
static int iterations_within(enum collective c, unsigned char *send, unsigned char *recv, long size, int iterations,
                             long budget_us) {
    double fastest = 1e30;
    for (int i = 0; i < 3; i++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double start = MPI_Wtime();
        run_once(c, send, recv, size);
        double took = MPI_Wtime() - start;
        if (took < fastest) {
            fastest = took;
        }
    }
    MPI_Bcast(&fastest, 1, MPI_DOUBLE, ROOT, MPI_COMM_WORLD);
    double fit = (double)budget_us / (fastest * 1e6 > 1e-3 ? fastest * 1e6 : 1e-3);
    if (fit < 1.0) {
        return 1;
    }
    return fit < (double)iterations ? (int)fit : iterations;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_id);
    MPI_Comm_size(MPI_COMM_WORLD, &rank_count);

    struct options o;
    parse_options(&o, argc, argv);

    long max_size = 0;
    for (int s = 0; s < o.size_count; s++) {
        if (o.sizes[s] > max_size) {
            max_size = o.sizes[s];
        }
    }
    if (max_size > 0x7fffffffL / rank_count) {
        usage_error("size times ranks exceeds INT_MAX bytes", NULL);
    }
    /* Both buffers hold N blocks (alltoall sends N, allgather/gather receive N). Touch every
     * page now so first-touch page faults are not timed. */
    size_t bytes = (size_t)(max_size > 0 ? max_size : 1) * (size_t)rank_count;
    unsigned char *send = NULL;
    unsigned char *recv = NULL;
    if (posix_memalign((void **)&send, 4096, bytes) != 0 || posix_memalign((void **)&recv, 4096, bytes) != 0) {
        fprintf(stderr, "peer_bench: rank %d cannot allocate 2 x %zu bytes\n", rank_id, bytes);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    memset(send, 1, bytes);
    memset(recv, 0, bytes);

    if (rank_id == 0) {
        print_library();
    }
    print_where();
    int failed = 0;
    for (int s = 0; s < o.size_count; s++) {
        long size = o.sizes[s];
        if (o.check && o.collective != BARRIER) {
            long wrong = check_once(o.collective, send, recv, size);
            long bad_ranks = 0;
            long flag = wrong > 0 ? 1 : 0;
            MPI_Reduce(&flag, &bad_ranks, 1, MPI_LONG, MPI_SUM, ROOT, MPI_COMM_WORLD);
            if (rank_id == 0) {
                if (bad_ranks == 0) {
                    printf("check,%s,%d,%ld,ok\n", COLLECTIVE_NAMES[o.collective], rank_count, size);
                } else {
                    printf("check,%s,%d,%ld,FAILED,%ld\n", COLLECTIVE_NAMES[o.collective], rank_count, size,
                           bad_ranks);
                    failed = 1;
                }
            }
        }
        int large = size >= o.large_from;
        int warmup = large ? o.large_warmup : o.warmup;
        int iterations = large ? o.large_iterations : o.iterations;
        if (o.budget_us > 0) {
            warm_up_within(o.collective, send, recv, size, warmup, o.budget_us);
            iterations = iterations_within(o.collective, send, recv, size, iterations, o.budget_us);
            warmup = warmup < iterations ? warmup : iterations;
        }
        long long before[2 * MAX_RAILS] = {0};
        double window_start = 0.0;
        if (o.rail_count > 0) {
            MPI_Barrier(MPI_COMM_WORLD);
            read_rails(&o, before);
            window_start = MPI_Wtime();
        }
        int added = o.collective != BARRIER && size < o.added_below;
        for (int sample = 0; sample < o.samples; sample++) {
            double figures[2] = {0.0, 0.0};
            time_sample(o.collective, send, recv, size, warmup, iterations, added, figures);
            if (rank_id == 0) {
                printf("sample,%s,%d,%ld,%d,%d,%.3f", COLLECTIVE_NAMES[o.collective], rank_count, size,
                       iterations, sample, figures[0]);
                if (added) {
                    printf(",%.3f", figures[1]);
                }
                printf("\n");
            }
        }
        if (o.rail_count > 0) {
            MPI_Barrier(MPI_COMM_WORLD);
            long long after[2 * MAX_RAILS] = {0};
            read_rails(&o, after);
            long long window_ns = (long long)((MPI_Wtime() - window_start) * 1e9);
            long long delta[2 * MAX_RAILS] = {0};
            for (int i = 0; i < 2 * o.rail_count; i++) {
                delta[i] = after[i] - before[i];
            }
            long long *all = rank_id == 0 ? malloc(sizeof(long long) * 2 * MAX_RAILS * (size_t)rank_count) : NULL;
            MPI_Gather(delta, 2 * MAX_RAILS, MPI_LONG_LONG, all, 2 * MAX_RAILS, MPI_LONG_LONG, ROOT, MPI_COMM_WORLD);
            if (rank_id == 0) {
                long long calls = (long long)o.samples * (warmup + iterations + (added ? iterations : 0));
                for (int r = 0; r < rank_count; r++) {
                    for (int i = 0; i < o.rail_count; i++) {
                        printf("rails,%s,%ld,%d,%lld,%lld,%s,%lld,%lld\n", o.label, size, r, calls, window_ns, o.rails[i],
                               all[(size_t)r * 2 * MAX_RAILS + 2 * i], all[(size_t)r * 2 * MAX_RAILS + 2 * i + 1]);
                    }
                }
                free(all);
            }
        }
        if (rank_id == 0) {
            fflush(stdout); /* lets the caller follow progress size by size */
        }
    }
    if (rank_id == 0) {
        printf("done,%s,%d\n", COLLECTIVE_NAMES[o.collective], rank_count);
        fflush(stdout);
    }
    free(send);
    free(recv);
    MPI_Finalize();
    return failed ? 3 : 0;
}
