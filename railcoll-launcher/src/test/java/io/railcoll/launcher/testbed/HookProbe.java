package io.railcoll.launcher.testbed;

/**
 * Starts a 1-node, 1-rail testbed, prints its tag and waits, never closing it: the test then stops this JVM
 * with SIGTERM and checks that the shutdown hook removed the namespaces.
 */
public final class HookProbe {
    public static void main(String[] args) throws Exception {
        NetnsTestbed testbed = NetnsTestbed.start(TestbedSpec.of(1, 1));
        System.out.println("tag " + testbed.tag());
        System.out.flush();
        Thread.sleep(60_000);
    }
}
