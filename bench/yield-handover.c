/*
 * The floor of a one-node collective when ranks outnumber processors: how long it takes one process to hand its
 * processor to another through sched_yield. Two processes pinned to processor 0 take turns on a shared counter,
 * each yielding until it is its turn, and the time per hand-over is printed.
 *
 * Why it matters (docs/results/shm-node.md): with 4 ranks on 2 processors, a timed call of a one-node collective
 * contains at least two hand-overs for the rank that left the preceding barrier first (its node-mate on the same
 * processor has to run to post its block, and then hand the processor back), so no design gets under twice this.
 *
 * cc -O2 -o /tmp/yield-handover bench/yield-handover.c && /tmp/yield-handover
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(void) {
    const long turns = 200000;
    atomic_long *turn = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (turn == MAP_FAILED) {
        perror("mmap");
        return 1;
    }
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(0, &one);
    if (sched_setaffinity(0, sizeof one, &one) != 0) {
        perror("sched_setaffinity");
        return 1;
    }
    pid_t child = fork();
    if (child < 0) {
        perror("fork");
        return 1;
    }
    long me = child == 0 ? 1 : 0;
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (long i = 0; i < turns; i++) {
        while (atomic_load(turn) != 2 * i + me) {
            sched_yield();
        }
        atomic_store(turn, 2 * i + me + 1);
    }
    clock_gettime(CLOCK_MONOTONIC, &end);
    if (child != 0) {
        waitpid(child, NULL, 0);
        double ns = (end.tv_sec - start.tv_sec) * 1e9 + (end.tv_nsec - start.tv_nsec);
        printf("%.3f us per hand-over of processor 0 between two processes (sched_yield)\n", ns / 1e3 / (2.0 * turns));
    }
    return 0;
}
