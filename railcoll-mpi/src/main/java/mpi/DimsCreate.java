package mpi;

import java.util.ArrayList;
import java.util.List;

/** The arithmetic of {@code CartComm.createDims} (MPI_Dims_create): balanced factors of a process count. */
final class DimsCreate {
    private DimsCreate() {
    }

    /** Fills {@code dims}' zero entries in place; the problem, or null when it was filled. Leaves it as it was on error. */
    static String fill(int nnodes, int[] dims) {
        if (nnodes < 0) {
            return "nnodes is negative";
        }
        long fixed = 1;
        int free = 0;
        for (int i = 0; i < dims.length; i++) {
            if (dims[i] < 0) {
                return "dims[" + i + "] is negative";
            }
            if (dims[i] == 0) {
                free++;
            } else {
                fixed *= dims[i];
            }
        }
        if (fixed == 0 || nnodes % fixed != 0 || (nnodes == 0 && free > 0)) {
            return "the non-zero dims (product " + fixed + ") do not divide nnodes " + nnodes;
        }
        long rest = nnodes / fixed;
        if (free == 0) {
            return rest == 1 ? null : "no dims are free and their product " + fixed + " is not nnodes " + nnodes;
        }
        int[] shares = new int[free];
        java.util.Arrays.fill(shares, 1);
        List<Integer> primes = primeFactorsDescending((int) rest);
        for (int p : primes) {
            int smallest = 0;
            for (int i = 1; i < free; i++) {
                if (shares[i] < shares[smallest]) {
                    smallest = i;
                }
            }
            shares[smallest] *= p;
        }
        java.util.Arrays.sort(shares);
        int next = free - 1;
        for (int i = 0; i < dims.length; i++) {
            if (dims[i] == 0) {
                dims[i] = shares[next--];
            }
        }
        return null;
    }

    private static List<Integer> primeFactorsDescending(int n) {
        List<Integer> factors = new ArrayList<>();
        for (int p = 2; (long) p * p <= n; p++) {
            while (n % p == 0) {
                factors.add(p);
                n /= p;
            }
        }
        if (n > 1) {
            factors.add(n);
        }
        factors.sort(java.util.Comparator.reverseOrder());
        return factors;
    }
}
