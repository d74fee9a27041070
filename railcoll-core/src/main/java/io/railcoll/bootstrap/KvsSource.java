package io.railcoll.bootstrap;

import io.railcoll.RailcollException;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * A bootstrap through a launcher's key-value store (PMIx, PMI-1): no rendezvous, no user secret. Rank 0 makes a
 * fresh secret and puts it; every rank puts its {@link RankRecord} (hex of its wire form); one fence; every rank
 * reads the secret and all records. Only processes of the job can read the store, which is what makes it a safe
 * channel for the secret.
 */
final class KvsSource implements BootstrapSource {
    static final String SECRET_KEY = "railcoll-secret";
    private static final HexFormat HEX = HexFormat.of();

    private final String name;
    private final KeyValueStore store;
    private final List<InetAddress> railAddresses;
    private Handshake handshake;

    KvsSource(String name, KeyValueStore store, List<InetAddress> railAddresses) {
        this.name = name;
        this.store = store;
        this.railAddresses = List.copyOf(railAddresses);
    }

    static String recordKey(int rank) {
        return "railcoll-r" + rank;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public RankIdentity identity() {
        return store.identity();
    }

    @Override
    public List<InetAddress> railAddresses() {
        return railAddresses;
    }

    @Override
    public InetSocketAddress routeHint() {
        return null;
    }

    @Override
    public String secretOrigin() {
        return "made by rank 0, shared through " + store.protocol();
    }

    @Override
    public JobTable exchange(RankRecord mine, long timeoutNs) {
        long deadline = System.nanoTime() + timeoutNs;
        RankIdentity me = store.identity();
        if (me.rank() == 0) {
            store.put(SECRET_KEY, Handshake.newSecret());
        }
        String encoded = HEX.formatHex(encode(mine));
        if (encoded.length() > store.maxValueLength()) {
            throw new RailcollException("rank " + me.rank() + ": this rank's record (" + encoded.length()
                    + " characters) is longer than " + store.protocol() + " accepts (" + store.maxValueLength()
                    + "); use fewer rails or a shorter RAILCOLL_NODE");
        }
        store.put(recordKey(me.rank()), encoded);
        store.fence(left(deadline));
        String secret = store.get(0, SECRET_KEY, left(deadline));
        handshake = new Handshake(me.jobId(), secret.getBytes(StandardCharsets.UTF_8));
        RankRecord[] records = new RankRecord[me.size()];
        for (int r = 0; r < me.size(); r++) {
            String value = store.get(r, recordKey(r), left(deadline));
            try {
                records[r] = decode(HEX.parseHex(value));
            } catch (IOException | IllegalArgumentException e) {
                throw new RailcollException("rank " + me.rank() + ": rank " + r + "'s record in " + store.protocol()
                        + " is not a railcoll record ('" + value + "'): " + e.getMessage(), e);
            }
            if (records[r].rank() != r || records[r].size() != me.size()) {
                throw new RailcollException("rank " + me.rank() + ": the record under " + recordKey(r) + " says rank "
                        + records[r].rank() + " of " + records[r].size() + ", expected rank " + r + " of " + me.size());
            }
        }
        for (RankRecord r : records) {
            if (r.railEndpoints().size() != mine.railEndpoints().size()) {
                throw new RailcollException("rank " + r.rank() + " has " + r.railEndpoints().size() + " rails but rank "
                        + me.rank() + " has " + mine.railEndpoints().size() + "; every node needs the same rail count");
            }
        }
        return JobTable.of(records);
    }

    private static long left(long deadline) {
        return Math.max(1, deadline - System.nanoTime());
    }

    static byte[] encode(RankRecord record) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            record.write(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    static RankRecord decode(byte[] bytes) throws IOException {
        return RankRecord.read(new DataInputStream(new ByteArrayInputStream(bytes)));
    }

    @Override
    public Handshake handshake() {
        if (handshake == null) {
            throw new IllegalStateException("the job secret is known only after the exchange");
        }
        return handshake;
    }

    @Override
    public List<String> details() {
        return new ArrayList<>(store.details());
    }

    @Override
    public void close() {
        store.close();
    }
}
