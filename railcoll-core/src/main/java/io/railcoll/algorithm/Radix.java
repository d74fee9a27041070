package io.railcoll.algorithm;

/** Integer logarithms and powers in base k+1, the radix of every k-port algorithm. Stateless. */
public final class Radix {
    private Radix() {
    }

    /** {@code base^exponent}, saturating at {@link Long#MAX_VALUE}. */
    public static long pow(int base, int exponent) {
        long result = 1;
        for (int i = 0; i < exponent; i++) {
            if (result > Long.MAX_VALUE / base) {
                return Long.MAX_VALUE;
            }
            result *= base;
        }
        return result;
    }

    /** The smallest {@code e} with {@code base^e >= n}: steps of a k-nomial tree or of Bruck; 0 for n = 1. */
    public static int ceilLog(long n, int base) {
        int e = 0;
        long p = 1;
        while (p < n) {
            p = p > Long.MAX_VALUE / base ? Long.MAX_VALUE : p * base;
            e++;
        }
        return e;
    }

    /** The largest {@code e} with {@code base^e <= n}, for {@code n >= 1}. */
    public static int floorLog(long n, int base) {
        int e = 0;
        long p = base;
        while (p <= n) {
            e++;
            if (p > Long.MAX_VALUE / base) {
                break;
            }
            p *= base;
        }
        return e;
    }

    /** {@code ceil(a / b)} for {@code a >= 0, b > 0}. */
    public static long ceilDiv(long a, long b) {
        return (a + b - 1) / b;
    }
}
