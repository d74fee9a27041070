package io.railcoll.bench.apps;

import io.railcoll.Communicator;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Collects every rank's verification problems, so that all ranks agree whether the check passed and rank 0 can
 * report what each rank found. Each rank's problems travel as one fixed-size UTF-8 block of one all-gather
 * (all-gather needs equal blocks); longer text is cut, which is enough for a report line.
 */
final class RankVerdicts {
    static final int BLOCK_BYTES = 512;

    private RankVerdicts() {
    }

    /** Problems found by all ranks, each prefixed with its rank, in rank order; empty when every rank passed. */
    static List<String> gather(Communicator comm, List<String> mine) {
        byte[] send = encode(String.join("; ", mine));
        byte[] all = new byte[BLOCK_BYTES * comm.size()];
        comm.allgather(send, all);
        List<String> out = new ArrayList<>();
        for (int r = 0; r < comm.size(); r++) {
            String text = decode(Arrays.copyOfRange(all, r * BLOCK_BYTES, (r + 1) * BLOCK_BYTES));
            if (!text.isEmpty()) {
                out.add("rank " + r + ": " + text);
            }
        }
        return out;
    }

    /** Text as a zero-padded block, cut on a character boundary so the receiver decodes valid UTF-8. */
    static byte[] encode(String text) {
        byte[] block = new byte[BLOCK_BYTES];
        // A character is at most 4 bytes in UTF-8, so cut first, then trim to the block.
        String t = text.length() > BLOCK_BYTES ? text.substring(0, BLOCK_BYTES) : text;
        byte[] bytes = t.getBytes(StandardCharsets.UTF_8);
        while (bytes.length > BLOCK_BYTES) {
            t = t.substring(0, t.length() - 1);
            bytes = t.getBytes(StandardCharsets.UTF_8);
        }
        System.arraycopy(bytes, 0, block, 0, bytes.length);
        return block;
    }

    static String decode(byte[] block) {
        int len = 0;
        while (len < block.length && block[len] != 0) {
            len++;
        }
        return new String(block, 0, len, StandardCharsets.UTF_8);
    }
}
