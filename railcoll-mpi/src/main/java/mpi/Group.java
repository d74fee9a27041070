package mpi;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A process group ({@code MPI_Group}): an ordered list of distinct processes, held here as their ranks in
 * {@code COMM_WORLD}. Every operation is local. {@code Comm.getGroup()} returns a new one each call; errors go to
 * {@code COMM_WORLD}'s handler, as calls tied to no communicator do in the bindings.
 */
public final class Group implements Freeable {
    private final int[] worldRanks;
    private boolean freed;

    Group(int[] worldRanks) {
        this.worldRanks = worldRanks;
    }

    /** The world ranks of its members, in group order (no copy: callers do not modify it). */
    int[] worldRanks() {
        return worldRanks;
    }

    public int getSize() throws MPIException {
        return live("getSize").length;
    }

    /** This process's rank in the group, or {@code MPI.UNDEFINED} if it is not a member. */
    public int getRank() throws MPIException {
        return indexOf(live("getRank"), MPI.worldRank());
    }

    /** Frees it; freeing {@code MPI.GROUP_EMPTY} leaves it usable. */
    @Override
    public void free() throws MPIException {
        live("free");
        if (this != MPI.GROUP_EMPTY) {
            freed = true;
        }
    }

    public boolean isNull() {
        return freed;
    }

    /**
     * The ranks in {@code group2} of the processes at {@code ranks1} in {@code group1}: {@code MPI.UNDEFINED} for one
     * that is not in {@code group2}, {@code MPI.PROC_NULL} for {@code MPI.PROC_NULL}.
     */
    public static int[] translateRanks(Group group1, int[] ranks1, Group group2) throws MPIException {
        int[] from = group1.live("translateRanks");
        int[] to = group2.live("translateRanks");
        int[] out = new int[ranks1.length];
        for (int i = 0; i < ranks1.length; i++) {
            int r = ranks1[i];
            if (r == MPI.PROC_NULL) {
                out[i] = MPI.PROC_NULL;
                continue;
            }
            checkRank("translateRanks", r, from.length);
            out[i] = indexOf(to, from[r]);
        }
        return out;
    }

    /** {@code MPI.IDENT} (same members, same order), {@code MPI.SIMILAR} (same members) or {@code MPI.UNEQUAL}. */
    public static int compare(Group group1, Group group2) throws MPIException {
        return compareMembers(group1.live("compare"), group2.live("compare"), MPI.IDENT);
    }

    /** {@code same} if the lists are equal, {@code MPI.SIMILAR} if they hold the same members, else {@code MPI.UNEQUAL}. */
    static int compareMembers(int[] a, int[] b, int same) {
        if (Arrays.equals(a, b)) {
            return same;
        }
        int[] sa = a.clone();
        int[] sb = b.clone();
        Arrays.sort(sa);
        Arrays.sort(sb);
        return Arrays.equals(sa, sb) ? MPI.SIMILAR : MPI.UNEQUAL;
    }

    /** The members of {@code group1}, then those of {@code group2} not in it. */
    public static Group union(Group group1, Group group2) throws MPIException {
        Set<Integer> all = new LinkedHashSet<>();
        for (int r : group1.live("union")) {
            all.add(r);
        }
        for (int r : group2.live("union")) {
            all.add(r);
        }
        return new Group(all.stream().mapToInt(Integer::intValue).toArray());
    }

    /** The members of {@code group1} that are in {@code group2}, in {@code group1}'s order. */
    public static Group intersection(Group group1, Group group2) throws MPIException {
        int[] other = group2.live("intersection");
        return new Group(Arrays.stream(group1.live("intersection")).filter(r -> indexOf(other, r) >= 0).toArray());
    }

    /** The members of {@code group1} that are not in {@code group2}, in {@code group1}'s order. */
    public static Group difference(Group group1, Group group2) throws MPIException {
        int[] other = group2.live("difference");
        return new Group(Arrays.stream(group1.live("difference")).filter(r -> indexOf(other, r) < 0).toArray());
    }

    /** The members at {@code ranks} (distinct ranks of this group), in that order. */
    public Group incl(int[] ranks) throws MPIException {
        int[] members = live("incl");
        boolean[] seen = new boolean[members.length];
        int[] out = new int[ranks.length];
        for (int i = 0; i < ranks.length; i++) {
            checkRank("incl", ranks[i], members.length);
            if (seen[ranks[i]]) {
                throw error(MPI.ERR_RANK, "incl: rank " + ranks[i] + " listed twice");
            }
            seen[ranks[i]] = true;
            out[i] = members[ranks[i]];
        }
        return new Group(out);
    }

    /** The members not at {@code ranks} (distinct ranks of this group), in this group's order. */
    public Group excl(int[] ranks) throws MPIException {
        int[] members = live("excl");
        boolean[] out = new boolean[members.length];
        for (int r : ranks) {
            checkRank("excl", r, members.length);
            if (out[r]) {
                throw error(MPI.ERR_RANK, "excl: rank " + r + " listed twice");
            }
            out[r] = true;
        }
        List<Integer> kept = new ArrayList<>();
        for (int i = 0; i < members.length; i++) {
            if (!out[i]) {
                kept.add(members[i]);
            }
        }
        return new Group(kept.stream().mapToInt(Integer::intValue).toArray());
    }

    /** {@code incl} of the ranks of the triplets {@code {first, last, stride}}. */
    public Group rangeIncl(int[][] ranges) throws MPIException {
        return incl(expand("rangeIncl", ranges));
    }

    /** {@code excl} of the ranks of the triplets {@code {first, last, stride}}. */
    public Group rangeExcl(int[][] ranges) throws MPIException {
        return excl(expand("rangeExcl", ranges));
    }

    private int[] expand(String call, int[][] ranges) throws MPIException {
        int n = live(call).length;
        List<Integer> ranks = new ArrayList<>();
        for (int[] t : ranges) {
            if (t.length != 3 || t[2] == 0) {
                throw error(MPI.ERR_ARG, call + ": each range must be {first, last, stride} with stride != 0, not "
                        + Arrays.toString(t));
            }
            checkRank(call, t[0], n);
            checkRank(call, t[1], n);
            for (int r = t[0]; t[2] > 0 ? r <= t[1] : r >= t[1]; r += t[2]) {
                ranks.add(r);
            }
        }
        return ranks.stream().mapToInt(Integer::intValue).toArray();
    }

    static int indexOf(int[] members, int worldRank) {
        for (int i = 0; i < members.length; i++) {
            if (members[i] == worldRank) {
                return i;
            }
        }
        return MPI.UNDEFINED;
    }

    private static void checkRank(String call, int rank, int size) throws MPIException {
        if (rank < 0 || rank >= size) {
            throw error(MPI.ERR_RANK, call + ": rank " + rank + " outside the group's 0.." + (size - 1));
        }
    }

    private int[] live(String call) throws MPIException {
        MPI.check();
        if (freed) {
            throw error(MPI.ERR_GROUP, call + " on a freed group");
        }
        return worldRanks;
    }

    private static MPIException error(int errorClass, String message) {
        return MPI.COMM_WORLD.raise("Group", MPIException.of(errorClass, "Group." + message));
    }
}
