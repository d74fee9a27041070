package io.railcoll.launcher.testbed;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Absolute paths of the system programs the testbed drives. Looked up on {@code PATH} and then in the sbin
 * directories, because root's tools live there and a non-login {@code PATH} (CI, sudo) may lack them.
 *
 * @param ip     iproute2's {@code ip}
 * @param tc     iproute2's {@code tc}
 * @param sysctl procps' {@code sysctl}, run inside a namespace to switch IPv6 off there
 * @param nft    nftables' {@code nft}, or {@code null} if it is not installed: only needed to emulate a rail
 *               impairment on a kernel without netem ({@link #requireNft()})
 */
record Tools(String ip, String tc, String sysctl, String nft) {
    /** What to tell a user who asked for an impairment on a machine without nft. */
    static final String NEEDS_NFT = "this kernel has no netem qdisc, so the rail impairment is emulated with nftables, "
            + "and nft is not installed: apt-get install nftables (or drop --rail-netem)";

    private static final List<String> EXTRA_DIRS = List.of("/usr/sbin", "/sbin", "/usr/bin", "/bin");

    /** The tools, or a message naming the missing ones and the package that has them. */
    static Tools find() {
        Optional<String> ip = locate("ip");
        Optional<String> tc = locate("tc");
        Optional<String> sysctl = locate("sysctl");
        List<String> missing = new ArrayList<>();
        if (ip.isEmpty() || tc.isEmpty()) {
            missing.add("ip and tc (apt-get install iproute2)");
        }
        if (sysctl.isEmpty()) {
            missing.add("sysctl (apt-get install procps)");
        }
        if (!missing.isEmpty()) {
            throw new TestbedException("the namespace testbed needs " + String.join(" and ", missing));
        }
        return new Tools(ip.get(), tc.get(), sysctl.get(), locate("nft").orElse(null));
    }

    /** The path of {@code nft}, or a {@link TestbedException} naming the package that has it. */
    String requireNft() {
        if (nft == null) {
            throw new TestbedException(NEEDS_NFT);
        }
        return nft;
    }

    private static Optional<String> locate(String name) {
        List<String> dirs = new ArrayList<>();
        String path = System.getenv("PATH");
        if (path != null) {
            dirs.addAll(List.of(path.split(File.pathSeparator)));
        }
        dirs.addAll(EXTRA_DIRS);
        for (String dir : dirs) {
            if (dir.isEmpty()) {
                continue;
            }
            Path candidate = Path.of(dir, name);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return Optional.of(candidate.toString());
            }
        }
        return Optional.empty();
    }
}
