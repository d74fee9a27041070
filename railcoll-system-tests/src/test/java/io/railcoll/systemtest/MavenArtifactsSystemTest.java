package io.railcoll.systemtest;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * railcoll's artifacts install into a Maven repository under {@code io.railcoll}, as a program (or a later railcoll
 * module) depends on them: Maven's own install plugin puts the parent pom and every module's pom and jar into a
 * temporary repository ({@code -DlocalRepositoryPath}, so {@code ~/.m2} is not touched), and the installed
 * {@code railcoll-core} pom, with its parent's, declares no dependency a consumer would get at run time (test scope
 * only), and {@code railcoll-mpi}'s declares {@code railcoll-core} alone. Needs {@code mvn} and the modules' jars of this build ({@code mvn package} or later).
 */
class MavenArtifactsSystemTest {
    private static final String INSTALL_FILE = "org.apache.maven.plugins:maven-install-plugin:3.1.4:install-file";
    private static final List<String> MODULES = List.of("railcoll-core", "railcoll-mpi", "railcoll-launcher", "railcoll-bench",
            "railcoll-cli");

    @Test
    void artifactsInstallIntoARepositoryAndTheCoreHasNoRuntimeDependency(@TempDir Path repo) throws Exception {
        Path root = Path.of("").toAbsolutePath().getParent();
        Path mvn = which("mvn");
        assumeTrue(mvn != null, "no mvn on the PATH: Maven installs the artifacts");
        String version = projectVersion(root.resolve("pom.xml"));
        for (String m : MODULES) {
            Path jar = jarOf(root, m, version);
            assumeTrue(Files.isRegularFile(jar), jar + " is not built (mvn package first)");
        }
        install(mvn, root.resolve("pom.xml"), root.resolve("pom.xml"), "pom", repo);
        for (String m : MODULES) {
            install(mvn, jarOf(root, m, version), root.resolve(m).resolve("pom.xml"), "jar", repo);
        }
        Path group = repo.resolve("io/railcoll");
        for (String m : MODULES) {
            Path dir = group.resolve(m).resolve(version);
            assertTrue(Files.isRegularFile(dir.resolve(m + "-" + version + ".jar")), "not installed: " + dir);
            assertTrue(Files.isRegularFile(dir.resolve(m + "-" + version + ".pom")), "not installed: " + dir);
        }
        Path parentPom = group.resolve("railcoll-parent").resolve(version).resolve("railcoll-parent-" + version + ".pom");
        Path corePom = group.resolve("railcoll-core").resolve(version).resolve("railcoll-core-" + version + ".pom");
        assertEquals(List.of(), runtimeDependencies(corePom), "railcoll-core's own dependencies");
        assertEquals(List.of(), runtimeDependencies(parentPom), "dependencies railcoll-core inherits from railcoll-parent");
        // railcoll-mpi (package mpi) brings railcoll-core and nothing else.
        assertEquals(List.of("io.railcoll:railcoll-core"), runtimeDependencies(group.resolve("railcoll-mpi").resolve(version)
                .resolve("railcoll-mpi-" + version + ".pom")), "railcoll-mpi's own dependencies");
        // And the check can fail: the launcher does depend on the core.
        assertTrue(runtimeDependencies(group.resolve("railcoll-launcher").resolve(version)
                .resolve("railcoll-launcher-" + version + ".pom")).contains("io.railcoll:railcoll-core"));
    }

    private static Path jarOf(Path root, String module, String version) {
        String name = module.equals("railcoll-cli") ? "railcoll-cli.jar" : module + "-" + version + ".jar";
        return root.resolve(module).resolve("target").resolve(name);
    }

    private static void install(Path mvn, Path file, Path pom, String packaging, Path repo) throws Exception {
        // From the repository (not the project) directory, so Maven reads no reactor; offline: the plugin is cached.
        List<String> cmd = new ArrayList<>(List.of(mvn.toString(), "-o", "-q", "-B", INSTALL_FILE, "-Dfile=" + file,
                "-DpomFile=" + pom, "-Dpackaging=" + packaging, "-DlocalRepositoryPath=" + repo));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(repo.toFile()).redirectErrorStream(true);
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        pb.environment().put("MAVEN_OPTS", "--sun-misc-unsafe-memory-access=allow");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(5, java.util.concurrent.TimeUnit.MINUTES), "mvn install-file did not finish");
        assumeTrue(!out.contains("in offline mode"), "maven-install-plugin 3.1.4 is not in the local Maven repository: " + out);
        assertEquals(0, p.exitValue(), String.join(" ", cmd) + ":\n" + out);
    }

    /** groupId:artifactId of every dependency a consumer gets at run time (scope compile or runtime, not optional). */
    static List<String> runtimeDependencies(Path pom) throws Exception {
        Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(pom.toFile());
        List<String> out = new ArrayList<>();
        for (Element deps : children(doc.getDocumentElement(), "dependencies")) {
            for (Element d : children(deps, "dependency")) {
                String scope = text(d, "scope", "compile");
                boolean optional = text(d, "optional", "false").equals("true");
                if ((scope.equals("compile") || scope.equals("runtime")) && !optional) {
                    out.add(text(d, "groupId", "") + ":" + text(d, "artifactId", ""));
                }
            }
        }
        return out;
    }

    private static List<Element> children(Element parent, String name) {
        List<Element> out = new ArrayList<>();
        NodeList nodes = parent.getChildNodes();
        for (int i = 0; i < nodes.getLength(); i++) {
            Node n = nodes.item(i);
            if (n instanceof Element e && e.getTagName().equals(name)) {
                out.add(e);
            }
        }
        return out;
    }

    private static String text(Element parent, String name, String otherwise) {
        List<Element> e = children(parent, name);
        return e.isEmpty() ? otherwise : e.getFirst().getTextContent().strip();
    }

    private static String projectVersion(Path pom) throws Exception {
        Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(pom.toFile());
        return text(doc.getDocumentElement(), "version", "");
    }

    private static Path which(String program) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path p = Path.of(dir, program);
            if (!dir.isEmpty() && Files.isExecutable(p)) {
                return p;
            }
        }
        return null;
    }
}
