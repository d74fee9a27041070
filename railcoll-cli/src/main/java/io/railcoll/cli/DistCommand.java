package io.railcoll.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code railcoll dist}: writes the self-contained distribution archive ({@link Distribution}). */
@Command(name = "dist", mixinStandardHelpOptions = true,
        description = {"Write railcoll-<version>.tar.gz: bin/railcoll, lib/ (every jar) and, with --runtime, a jlink'ed "
                + "Java runtime, so a cluster node needs only the archive: mkdir railcoll && tar -C railcoll -xzf "
                + "railcoll-<version>.tar.gz && railcoll/bin/railcoll run ..."})
final class DistCommand implements Callable<Integer> {
    @Option(names = "--out", paramLabel = "DIR", description = "Directory to write the archive to (default ${DEFAULT-VALUE}).", defaultValue = "dist")
    Path out;

    @Option(names = "--runtime", description = "Include a Java runtime (jlink of this JDK, about 40 MB): the node needs no JDK.")
    boolean runtime;

    @Override
    public Integer call() throws Exception {
        List<Path> classPath = new ArrayList<>();
        for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (!e.isBlank()) {
                classPath.add(Path.of(e));
            }
        }
        Path tarball = Distribution.write(out, classPath, runtime, Path.of(System.getProperty("java.home")));
        System.out.println("railcoll: wrote " + tarball + " (" + Files.size(tarball) / (1 << 20) + " MiB"
                + (runtime ? ", with a Java " + Runtime.version().feature() + " runtime" : ", no runtime: the node needs Java "
                + Runtime.version().feature() + " in JAVA_HOME or on the PATH") + ")");
        return 0;
    }
}
