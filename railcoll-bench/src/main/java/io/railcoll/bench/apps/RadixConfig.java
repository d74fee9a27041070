package io.railcoll.bench.apps;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * The radix app's options, parsed from {@code key=value} arguments (defaults in brackets):
 * <ul>
 *   <li>{@code keys} [262144] in total, {@code bits} [32] per key (1..64, unsigned), {@code digit-bits} [8] per pass
 *       (10 gives paper 000's 4 KB count exchanges), {@code seed} [42];</li>
 *   <li>{@code exchange} [auto]: how keys move, {@code alltoall}, {@code allgather}, or {@code auto} (all-to-all
 *       when the communicator can select an all-to-all algorithm, else all-gather);</li>
 *   <li>{@code baseline} [allgather.ring] and {@code algorithm} [auto]: the two all-gather choices compared;</li>
 *   <li>{@code warmup} [1], {@code repeats} [1]: as for the N-body app;</li>
 *   <li>{@code reference-max-keys} [1048576]: up to this many keys every rank compares its output with the
 *       sequentially sorted keys;</li>
 *   <li>{@code result}: file where rank 0 writes the {@link AppResult}; {@code summary} [true]: whether rank 0
 *       prints it (the {@code app} command prints a table instead);</li>
 *   <li>{@code corrupt-pass} [0: off]: for tests only, the last rank flips a bit of a received key after that pass
 *       in the compared run, as a broken exchange would, so the checks must fail.</li>
 * </ul>
 */
record RadixConfig(long keys, int keyBits, int digitBits, long seed, String exchange, AlgorithmChoice baseline,
                   AlgorithmChoice compared, int warmup, int repeats, long referenceMaxKeys, Path result, boolean summary,
                   int corruptPass) {

    static final Set<String> KEYS = Set.of("keys", "bits", "digit-bits", "seed", "exchange", "baseline", "algorithm",
            "warmup", "repeats", "reference-max-keys", "result", "summary", "corrupt-pass");

    static RadixConfig parse(List<String> args) {
        AppArgs a = AppArgs.parse("radix", args, KEYS);
        int keyBits = a.intValue("bits", 32, 1);
        int digitBits = a.intValue("digit-bits", 8, 1);
        if (keyBits > 64) {
            throw new IllegalArgumentException("radix: bits must be at most 64, got " + keyBits);
        }
        if (digitBits > 16) {
            throw new IllegalArgumentException("radix: digit-bits must be at most 16, got " + digitBits);
        }
        String exchange = a.string("exchange", "auto");
        if (!exchange.equals("auto")) {
            KeyRedistribution.of(exchange);
        }
        String result = a.string("result", null);
        return new RadixConfig(a.longValue("keys", 262144, 1), keyBits, digitBits, a.longValue("seed", 42, Long.MIN_VALUE),
                exchange, AlgorithmChoice.parse(a.string("baseline", "allgather.ring")),
                AlgorithmChoice.parse(a.string("algorithm", AlgorithmChoice.AUTO)), a.intValue("warmup", 1, 0),
                a.intValue("repeats", 1, 1), a.longValue("reference-max-keys", 1 << 20, 0),
                result == null ? null : Path.of(result), a.bool("summary", true),
                a.intValue("corrupt-pass", 0, 0));
    }

    int passes() {
        return RadixSorter.passes(keyBits, digitBits);
    }

    String problem(String exchangeUsed) {
        return keys + " keys of " + keyBits + " bits, " + passes() + " passes of " + digitBits + "-bit digits, keys moved by "
                + exchangeUsed;
    }
}
