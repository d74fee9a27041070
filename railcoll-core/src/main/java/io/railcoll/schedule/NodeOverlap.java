package io.railcoll.schedule;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The node steps of a {@link NodePhased} algorithm on one node when they overlap the masters' schedule: the steps
 * in the order every rank of the node runs them, and for the node's master, where in its program it runs each.
 * Immutable.
 *
 * @param steps  the node's steps, in order; together they do what the algorithm's before and after steps do
 * @param points for step i, the index of the op of the master's program after which it runs (-1: before the
 *               first op); non-decreasing
 */
public record NodeOverlap(List<NodeStep> steps, int[] points) {
    public NodeOverlap {
        steps = List.copyOf(steps);
        Objects.requireNonNull(points, "points");
        if (points.length != steps.size()) {
            throw new IllegalArgumentException(steps.size() + " steps but " + points.length + " points");
        }
        for (int i = 1; i < points.length; i++) {
            if (points[i] < points[i - 1]) {
                throw new IllegalArgumentException("points must not decrease: " + Arrays.toString(points));
            }
        }
        points = points.clone();
    }

    /** The points (a copy is not made: callers must not change it). */
    @Override
    public int[] points() {
        return points;
    }
}
