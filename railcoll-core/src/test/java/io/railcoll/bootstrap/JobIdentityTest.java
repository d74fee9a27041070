package io.railcoll.bootstrap;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Ranks started by railcoll's launcher, Open MPI's mpirun or Slurm's srun all find out who they are. */
class JobIdentityTest {

    private static Map<String, String> base() {
        Map<String, String> env = new HashMap<>();
        env.put("RAILCOLL_RENDEZVOUS", "127.0.0.1:29500");
        env.put("RAILCOLL_SECRET", "s3cret");
        return env;
    }

    @Test
    void railcollVariablesWinOverTheOthers() {
        Map<String, String> env = base();
        env.put("RAILCOLL_RANK", "3");
        env.put("RAILCOLL_SIZE", "8");
        env.put("OMPI_COMM_WORLD_RANK", "5");
        env.put("OMPI_COMM_WORLD_SIZE", "9");
        env.put("RAILCOLL_NODE", "node1");
        env.put("RAILCOLL_RAILS", "127.0.1.2,127.0.2.2");
        JobIdentity id = JobIdentity.fromEnvironment(env);
        assertEquals(3, id.rank());
        assertEquals(8, id.size());
        assertEquals("node1", id.nodeKey());
        assertEquals(2, id.railAddresses().size());
        assertEquals("127.0.2.2", id.railAddresses().get(1).getHostAddress());
        assertFalse(id.servesRendezvous());
    }

    @Test
    void openMpisVariablesAreRead() {
        Map<String, String> env = base();
        env.put("OMPI_COMM_WORLD_RANK", "0");
        env.put("OMPI_COMM_WORLD_SIZE", "4");
        env.put("OMPI_COMM_WORLD_LOCAL_RANK", "0");
        env.put("RAILCOLL_RENDEZVOUS_SERVER", "rank0");
        JobIdentity id = JobIdentity.fromEnvironment(env);
        assertEquals(0, id.rank());
        assertEquals(4, id.size());
        assertTrue(id.servesRendezvous());
        assertTrue(id.railAddresses().isEmpty(), "rails default to the address that reaches the rendezvous");
    }

    @Test
    void slurmsVariablesAreRead() {
        Map<String, String> env = base();
        env.put("SLURM_PROCID", "6");
        env.put("SLURM_NTASKS", "7");
        JobIdentity id = JobIdentity.fromEnvironment(env);
        assertEquals(6, id.rank());
        assertEquals(7, id.size());
    }

    @Test
    void missingPiecesAreNamed() {
        Map<String, String> env = base();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> JobIdentity.fromEnvironment(env));
        assertTrue(e.getMessage().contains("RAILCOLL_RANK") && e.getMessage().contains("OMPI_COMM_WORLD_RANK"), e.getMessage());
        env.put("RAILCOLL_RANK", "0");
        env.put("RAILCOLL_SIZE", "2");
        env.remove("RAILCOLL_SECRET");
        e = assertThrows(IllegalArgumentException.class, () -> JobIdentity.fromEnvironment(env));
        assertTrue(e.getMessage().contains("RAILCOLL_SECRET"), e.getMessage());
        env.put("RAILCOLL_SECRET", "x");
        env.put("RAILCOLL_RANK", "2");
        e = assertThrows(IllegalArgumentException.class, () -> JobIdentity.fromEnvironment(env));
        assertTrue(e.getMessage().contains("rank 2 of 2"), e.getMessage());
    }
}
