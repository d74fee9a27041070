package io.railcoll.algorithm.node;

import io.railcoll.topology.Placement;

import java.util.ArrayList;
import java.util.List;

/**
 * Every node's blocks in local-rank order (master first): the unit the SMP-aware algorithms of paper 000
 * section 5.2 move between node masters. Immutable.
 */
public final class NodeUnits {
    private final Placement placement;
    private final PackedBlocks[] units;

    public NodeUnits(Placement placement) {
        this.placement = placement;
        units = new PackedBlocks[placement.nodeCount()];
        for (int n = 0; n < units.length; n++) {
            units[n] = PackedBlocks.of(placement.ranksOf(n));
        }
    }

    public Placement placement() {
        return placement;
    }

    public int nodes() {
        return units.length;
    }

    public PackedBlocks unit(int node) {
        return units[node];
    }

    /** The master of {@code node}: its lowest rank, first in its unit. */
    public int master(int node) {
        return placement.masterOf(node);
    }

    /** The units of {@code count} nodes from {@code first} on, wrapping after the last node, one after the other. */
    public PackedBlocks run(int first, int count) {
        List<PackedBlocks> parts = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            parts.add(units[(first + i) % units.length]);
        }
        return PackedBlocks.concat(parts);
    }
}
