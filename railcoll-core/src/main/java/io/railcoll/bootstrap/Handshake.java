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
        } catch (EOFException e) {
            throw new HandshakeRejectedException(where + " closed the connection during the handshake", e);
        }
    }

    /**
     * Acceptor side: returns who connected, or throws {@link HandshakeRejectedException} after telling the
     * connector why it was refused. The caller closes a refused socket.
     */
    public Peer accept(Socket socket, int maxRankExclusive, int rails) throws IOException {
        String where = socket.getRemoteSocketAddress().toString();
        try {
            DataInputStream in = new DataInputStream(socket.getInputStream());
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            byte[] myNonce = nonce();
            out.writeInt(MAGIC);
            out.writeShort(VERSION);
            out.write(myNonce);
            out.flush();
            int magic = in.readInt();
            if (magic != MAGIC) {
                throw new HandshakeRejectedException("refused " + where + ": not a railcoll peer (bad magic 0x"
                        + Integer.toHexString(magic) + ")");
            }
            int version = in.readUnsignedShort();
            if (version != VERSION) {
                refuse(out, "handshake version " + version + " unsupported, this side speaks " + VERSION);
                throw new HandshakeRejectedException("refused " + where + ": handshake version " + version);
            }
            int purposeCode = in.readUnsignedByte();
            String theirJob = in.readUTF();
            int rank = in.readInt();
            int rail = in.readInt();
            byte[] theirNonce = in.readNBytes(NONCE_BYTES);
            byte[] theirMac = in.readNBytes(32);
            if (purposeCode >= Purpose.values().length) {
                refuse(out, "unknown purpose " + purposeCode);
                throw new HandshakeRejectedException("refused " + where + ": unknown purpose " + purposeCode);
            }
            Purpose purpose = Purpose.values()[purposeCode];
            if (!theirJob.equals(jobId)) {
                refuse(out, "this endpoint belongs to job " + jobId + ", not " + theirJob);
                throw new HandshakeRejectedException("refused " + where + ": it belongs to job " + theirJob + ", this is job " + jobId);
            }
            if (!MessageDigest.isEqual(theirMac, mac('C', myNonce, purpose, rank, rail))) {
                refuse(out, "wrong job secret");
                throw new HandshakeRejectedException("refused " + where + " claiming rank " + rank + ": wrong job secret");
            }
            if (rank < 0 || rank >= maxRankExclusive || rail < 0 || rail >= rails) {
                refuse(out, "rank " + rank + " / rail " + rail + " out of range");
                throw new HandshakeRejectedException("refused " + where + ": rank " + rank + " rail " + rail + " out of range");
            }
            out.writeByte(0);
            out.writeUTF("");
            out.write(mac('A', theirNonce, purpose, rank, rail));
            out.flush();
            return new Peer(purpose, rank, rail);
        } catch (SocketTimeoutException e) {
            throw new HandshakeRejectedException("refused " + where + ": handshake timed out", e);
        } catch (EOFException e) {
            throw new HandshakeRejectedException("refused " + where + ": closed during the handshake", e);
        }
    }

    private static void refuse(DataOutputStream out, String reason) {
        try {
            out.writeByte(1);
            out.writeUTF(reason);
            out.flush();
        } catch (IOException ignored) {
            // the stranger may already be gone; refusing it is all that matters
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
