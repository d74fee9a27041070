package io.railcoll.transport.mcast;

import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class KnomialTreeTest {
    @Test
    void everyMemberIsReachedOnceAndParentsMatchChildren() {
        for (int size = 1; size <= 40; size++) {
            for (int k = 2; k <= 5; k++) {
                for (int root = 0; root < size; root += Math.max(1, size / 3)) {
                    KnomialTree t = new KnomialTree(size, k, root);
                    int[] depth = new int[size];
                    boolean[] seen = new boolean[size];
                    ArrayDeque<Integer> q = new ArrayDeque<>();
                    q.add(root);
                    seen[root] = true;
                    assertEquals(-1, t.parent(root));
                    int maxDepth = 0;
                    while (!q.isEmpty()) {
                        int v = q.poll();
                        for (int c : t.children(v)) {
                            assertTrue(!seen[c], "reached twice: " + c);
                            seen[c] = true;
                            assertEquals(v, t.parent(c));
                            depth[c] = depth[v] + 1;
                            maxDepth = Math.max(maxDepth, depth[c]);
                            q.add(c);
                        }
                    }
                    for (boolean s : seen) {
                        assertTrue(s, "size " + size + " k " + k + " root " + root);
                    }
                    int bound = 0;
                    for (long p = 1; p < size; p *= k) {
                        bound++;
                    }
                    assertTrue(maxDepth <= bound, "depth " + maxDepth + " > log_k(size) " + bound);
                }
            }
        }
    }

    @Test
    void binomialTreeOfEightLooksLikeTheTextbook() {
        KnomialTree t = new KnomialTree(8, 2, 0);
        assertArrayEquals(new int[] {4, 2, 1}, t.children(0));
        assertArrayEquals(new int[] {6, 5}, t.children(4));
        assertArrayEquals(new int[] {7}, t.children(6));
        assertArrayEquals(new int[] {}, t.children(7));
        KnomialTree shifted = new KnomialTree(8, 2, 3);
        assertArrayEquals(new int[] {7, 5, 4}, shifted.children(3));
    }
}
