package mpi;

import io.railcoll.Communicator;
import io.railcoll.Config;
import io.railcoll.Railcoll;
import io.railcoll.bootstrap.JobIdentity;
import io.railcoll.reduce.PredefinedOperator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link RailcollInterop}: the railcoll communicator under an mpi one, and the errors where there is none. */
class RailcollInteropTest {

    @BeforeAll
    static void init() throws MPIException {
        Singleton.init();
    }

    @Test
    void aCommunicatorOnRailcollHandsOutItsRailcollCommunicatorAndBothWork() throws Exception {
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        JobIdentity id = new JobIdentity(0, 1, "interop" + Long.toHexString(System.nanoTime()),
                "secret".getBytes(StandardCharsets.UTF_8), "node0", List.of(InetAddress.getLoopbackAddress()),
                new InetSocketAddress(InetAddress.getLoopbackAddress(), port), true);
        try (Communicator railcoll = Railcoll.init(id, Config.defaults(), new PrintStream(OutputStream.nullOutputStream()))) {
            Intracomm comm = new Intracomm("interop", false);
            comm.bind(new RailcollBackend(railcoll), new int[] {0});
            comm.setErrhandler(MPI.ERRORS_RETURN);
            assertSame(railcoll, RailcollInterop.communicator(comm));

            double[] viaMpi = new double[2];
            comm.allReduce(new double[] {1.5, 2.5}, viaMpi, 2, MPI.DOUBLE, MPI.SUM);
            double[] viaRailcoll = new double[2];
            RailcollInterop.communicator(comm).allreduce(new double[] {1.5, 2.5}, viaRailcoll, PredefinedOperator.SUM);
            assertArrayEquals(viaMpi, viaRailcoll);
        }
    }

    @Test
    void commSelfAndASingletonWorldHaveNone() throws MPIException {
        for (Intracomm comm : List.of(MPI.COMM_SELF, MPI.COMM_WORLD)) {
            MPIException e = assertThrows(MPIException.class, () -> RailcollInterop.communicator(comm));
            assertEquals(MPI.ERR_UNSUPPORTED_OPERATION, e.getErrorClass(), e.getMessage());
            assertTrue(e.getMessage().contains(comm.getName()) && e.getMessage().contains("no railcoll communicator"),
                    e.getMessage());
        }
    }

    @Test
    void aFreedCommunicatorIsAnInvalidCommunicator() throws MPIException {
        Intracomm dup = MPI.COMM_SELF.dup();
        dup.setErrhandler(MPI.ERRORS_RETURN);
        dup.free();
        MPIException e = assertThrows(MPIException.class, () -> RailcollInterop.communicator(dup));
        assertEquals(MPI.ERR_COMM, e.getErrorClass(), e.getMessage());
    }
}
