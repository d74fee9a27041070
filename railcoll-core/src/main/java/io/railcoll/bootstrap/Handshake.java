package io.railcoll.bootstrap;

import io.railcoll.HandshakeRejectedException;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;

/**
 * The mutual challenge-response every railcoll connection (rendezvous and rails) begins with. The job
 * secret never crosses the wire: each side proves it knows the secret with an HMAC-SHA256 over the other
 * side's fresh nonce and the connection's identity (purpose, job id, rank, rail). A stranger, or a rank of
 * another job, is refused before it can send a single data byte.
 *
 * <pre>
 * acceptor  -> connector : MAGIC u32, VERSION u16, acceptorNonce[16]
 * connector -> acceptor  : MAGIC u32, VERSION u16, purpose u8, jobId utf, rank i32, rail i32,
 *                          connectorNonce[16], mac[32] = HMAC(secret, "C" acceptorNonce purpose jobId rank rail)
 * acceptor  -> connector : status u8 (0 accepted, 1 refused), reason utf,
 *                          and when accepted mac[32] = HMAC(secret, "A" connectorNonce purpose jobId rank rail)
 * </pre>
 * All calls block with the socket's time-out; one handshake per socket, on the thread that owns it.
 */
public final class Handshake {
    static final int MAGIC = 0x52434853; // "RCHS"
    static final int VERSION = 1;
    private static final int NONCE_BYTES = 16;
    private static final SecureRandom RANDOM = new SecureRandom();

    /** What a connection is for, so a rail connection cannot be replayed against the rendezvous. */
    public enum Purpose { RENDEZVOUS, RAIL }

    /** Who connected, as proven by the handshake. */
    public record Peer(Purpose purpose, int rank, int rail) {
    }

    private final String jobId;
    private final byte[] secret;

    public Handshake(String jobId, byte[] secret) {
        if (secret.length == 0) {
            throw new IllegalArgumentException("the job secret is empty");
        }
        this.jobId = jobId;
        this.secret = secret.clone();
    }

    public String jobId() {
        return jobId;
    }

    /** Connector side: proves itself as {@code rank} on {@code rail}; throws if the acceptor refuses or cannot prove itself. */
    public void connect(Socket socket, Purpose purpose, int rank, int rail) throws IOException {
        String where = socket.getRemoteSocketAddress().toString();
        try {
            DataInputStream in = new DataInputStream(socket.getInputStream());
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            int magic = in.readInt();
            int version = in.readUnsignedShort();
            if (magic != MAGIC) {
                throw new HandshakeRejectedException(where + " is not a railcoll endpoint (bad magic 0x"
                        + Integer.toHexString(magic) + ")");
            }
            if (version != VERSION) {
                throw new HandshakeRejectedException(where + " speaks handshake version " + version + ", this rank " + VERSION);
            }
            byte[] acceptorNonce = in.readNBytes(NONCE_BYTES);
            byte[] myNonce = nonce();
            out.writeInt(MAGIC);
            out.writeShort(VERSION);
            out.writeByte(purpose.ordinal());
            out.writeUTF(jobId);
            out.writeInt(rank);
            out.writeInt(rail);
            out.write(myNonce);
            out.write(mac('C', acceptorNonce, purpose, rank, rail));
            out.flush();
            int status = in.readUnsignedByte();
            String reason = in.readUTF();
            if (status != 0) {
                throw new HandshakeRejectedException(where + " refused this rank (" + rank + ", rail " + rail + "): " + reason);
            }
            byte[] theirMac = in.readNBytes(32);
            if (!MessageDigest.isEqual(theirMac, mac('A', myNonce, purpose, rank, rail))) {
                throw new HandshakeRejectedException(where + " accepted but could not prove it knows the job secret");
            }
        } catch (SocketTimeoutException e) {
            throw new HandshakeRejectedException("handshake with " + where + " timed out", e);
        } catch (EOFException | java.net.SocketException e) {
            // An acceptor drops a handshake it has no room or time for (HandshakeAcceptor): the connector may retry.
            throw new HandshakeDroppedException(where + " closed the connection during the handshake", e);
        }
    }

    /**
     * What a connector sends after the acceptor's hello, as read off the wire and not yet checked. Its layout is the
     * second line of the table above; {@link #read} reads it from any stream, so the blocking acceptor and the
     * non-blocking {@link HandshakeAcceptor} parse it with the same code.
     */
    public record ConnectorHello(int magic, int version, int purposeCode, String jobId, int rank, int rail,
                                 byte[] nonce, byte[] mac) {
        /** The most bytes a well-formed hello can take: the fixed fields and a job id of at most 65535 bytes. */
        public static final int MAX_BYTES = 4 + 2 + 1 + 2 + 65535 + 4 + 4 + NONCE_BYTES + 32;

        /**
         * Reads one hello; a stream that ends early throws {@link EOFException} (a non-blocking reader then waits
         * for more bytes). A bad magic or version throws {@link HandshakeRejectedException} as soon as those bytes
         * are in, so garbage is refused without waiting for the rest.
         */
        public static ConnectorHello read(DataInputStream in, String where) throws IOException {
            int magic = in.readInt();
            if (magic != MAGIC) {
                throw new HandshakeRejectedException("refused " + where + ": not a railcoll peer (bad magic 0x"
                        + Integer.toHexString(magic) + ")");
            }
            int version = in.readUnsignedShort();
            if (version != VERSION) {
                throw new HandshakeRejectedException("refused " + where + ": handshake version " + version
                        + " unsupported, this side speaks " + VERSION);
            }
            int purposeCode = in.readUnsignedByte();
            String job = in.readUTF();
            int rank = in.readInt();
            int rail = in.readInt();
            byte[] nonce = new byte[NONCE_BYTES];
            in.readFully(nonce);
            byte[] mac = new byte[32];
            in.readFully(mac);
            return new ConnectorHello(magic, version, purposeCode, job, rank, rail, nonce, mac);
        }
    }

    /** The acceptor's verdict on a hello: the peer it proved to be, or why it was refused; and what to answer. */
    public record Verdict(Peer peer, String refusal, byte[] reply) {
        public boolean accepted() {
            return peer != null;
        }
    }

    /** The acceptor's first message: magic, version and a fresh nonce (22 bytes). */
    public static byte[] acceptorHello(byte[] myNonce) {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(4 + 2 + NONCE_BYTES);
        b.putInt(MAGIC).putShort((short) VERSION).put(myNonce);
        return b.array();
    }

    /** A fresh acceptor nonce. */
    public static byte[] freshNonce() {
        return nonce();
    }

    /**
     * Checks a connector's hello against {@code myNonce} (the one sent in this connection's acceptor hello): purpose,
     * job, proof of the secret, then rank and rail ranges. Pure: touches no socket; the reply is for the caller to send.
     */
    public Verdict judge(ConnectorHello hello, byte[] myNonce, int maxRankExclusive, int rails) {
        if (hello.purposeCode() >= Purpose.values().length) {
            return refusal("unknown purpose " + hello.purposeCode(), "unknown purpose " + hello.purposeCode());
        }
        Purpose purpose = Purpose.values()[hello.purposeCode()];
        if (!hello.jobId().equals(jobId)) {
            return refusal("this endpoint belongs to job " + jobId + ", not " + hello.jobId(),
                    "it belongs to job " + hello.jobId() + ", this is job " + jobId);
        }
        if (!MessageDigest.isEqual(hello.mac(), mac('C', myNonce, purpose, hello.rank(), hello.rail()))) {
            return refusal("wrong job secret", "claiming rank " + hello.rank() + ": wrong job secret");
        }
        if (hello.rank() < 0 || hello.rank() >= maxRankExclusive || hello.rail() < 0 || hello.rail() >= rails) {
            return refusal("rank " + hello.rank() + " / rail " + hello.rail() + " out of range",
                    "rank " + hello.rank() + " rail " + hello.rail() + " out of range");
        }
        try {
            java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream(64);
            DataOutputStream out = new DataOutputStream(bytes);
            out.writeByte(0);
            out.writeUTF("");
            out.write(mac('A', hello.nonce(), purpose, hello.rank(), hello.rail()));
            out.flush();
            return new Verdict(new Peer(purpose, hello.rank(), hello.rail()), null, bytes.toByteArray());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e); // a byte array does not fail
        }
    }

    /** A refusal of a connector that proved itself but may not in: {@code toPeer} is sent, {@code toLog} kept. */
    public static Verdict refusal(String toPeer, String toLog) {
        try {
            java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream(64);
            DataOutputStream out = new DataOutputStream(bytes);
            out.writeByte(1);
            out.writeUTF(toPeer);
            out.flush();
            return new Verdict(null, toLog, bytes.toByteArray());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * Acceptor side, blocking: returns who connected, or throws {@link HandshakeRejectedException} after telling the
     * connector why it was refused. The caller closes a refused socket. Listeners that many strangers may reach use
     * {@link HandshakeAcceptor} instead, which runs many handshakes at once.
     */
    public Peer accept(Socket socket, int maxRankExclusive, int rails) throws IOException {
        String where = socket.getRemoteSocketAddress().toString();
        try {
            DataInputStream in = new DataInputStream(socket.getInputStream());
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            byte[] myNonce = nonce();
            out.write(acceptorHello(myNonce));
            out.flush();
            ConnectorHello hello = ConnectorHello.read(in, where);
            Verdict v = judge(hello, myNonce, maxRankExclusive, rails);
            out.write(v.reply());
            out.flush();
            if (!v.accepted()) {
                throw new HandshakeRejectedException("refused " + where + ": " + v.refusal());
            }
            return v.peer();
        } catch (SocketTimeoutException e) {
            throw new HandshakeRejectedException("refused " + where + ": handshake timed out", e);
        } catch (EOFException e) {
            throw new HandshakeRejectedException("refused " + where + ": closed during the handshake", e);
        }
    }

    private byte[] mac(char role, byte[] nonce, Purpose purpose, int rank, int rail) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            mac.update((byte) role);
            mac.update(nonce);
            mac.update((byte) purpose.ordinal());
            mac.update(jobId.getBytes(StandardCharsets.UTF_8));
            mac.update(intBytes(rank));
            mac.update(intBytes(rail));
            return mac.doFinal();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 unavailable in this JDK", e);
        }
    }

    private static byte[] intBytes(int v) {
        return new byte[] {(byte) (v >>> 24), (byte) (v >>> 16), (byte) (v >>> 8), (byte) v};
    }

    private static byte[] nonce() {
        byte[] n = new byte[NONCE_BYTES];
        RANDOM.nextBytes(n);
        return n;
    }

    /** A fresh random secret for a new job, as hex. */
    public static String newSecret() {
        byte[] b = new byte[32];
        RANDOM.nextBytes(b);
        return java.util.HexFormat.of().formatHex(b);
    }
}
