package dev.operatorstarter.test.local;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A wrapper Go module shipped in this jar (sources under {@code src/main/go}). Each module's
 * {@code go.mod} is the one place its upstream version is pinned: the version is read from the
 * {@code require} line, and the cache key, the version ldflags and {@code /version} all follow it.
 *
 * <p>One module per upstream project rather than per binary: kube-apiserver and
 * kube-controller-manager come from the same {@code k8s.io/kubernetes} module, so sharing one
 * {@code go.mod} keeps their versions from drifting apart and lets the second build reuse the
 * first's compiled packages.
 */
enum GoModule {

    /** Builds kube-apiserver, kube-controller-manager and kube-scheduler. */
    KUBERNETES("kubernetes", "k8s.io/kubernetes", List.of("go.mod", "go.sum")),
    /** Builds etcd. */
    ETCD("etcd", "go.etcd.io/etcd/server/v3", List.of("go.mod", "go.sum")),
    /**
     * Builds KWOK ({@code sigs.k8s.io/kwok}): its controller plays the kubelets of fake nodes. A
     * small main of our own wraps KWOK's command, to hand out the Stages and CRDs KWOK ships.
     */
    KWOK("kwok", "sigs.k8s.io/kwok", List.of("go.mod", "go.sum", "main.go")),
    /** Builds the process supervisor that keeps children from outliving the JVM. */
    SUPERVISOR("supervisor", null, List.of("go.mod", "main.go", "attr_linux.go", "attr_other.go"));

    private static final String RESOURCE_ROOT = "dev/operatorstarter/test/local/go/";

    private final String directory;
    private final String upstream;
    private final List<String> files;

    GoModule(String directory, String upstream, List<String> files) {
        this.directory = directory;
        this.upstream = upstream;
        this.files = files;
    }

    String directory() {
        return directory;
    }

    /** The pinned upstream version, for example {@code v1.37.2}, read from this module's go.mod. */
    String upstreamVersion() {
        if (upstream == null) {
            throw new IllegalStateException(this + " has no upstream module");
        }
        String goMod = new String(read("go.mod"), StandardCharsets.UTF_8);
        Matcher matcher = Pattern.compile("(?m)^\\s*(?:require\\s+)?" + Pattern.quote(upstream) + "\\s+(v\\S+)")
                .matcher(goMod);
        if (!matcher.find()) {
            throw new IllegalStateException(RESOURCE_ROOT + directory + "/go.mod does not require " + upstream);
        }
        return matcher.group(1);
    }

    /** Writes this module's files into {@code target}. */
    void extractTo(Path target) throws IOException {
        Files.createDirectories(target);
        for (String file : files) {
            Files.write(target.resolve(file), read(file));
        }
    }

    /** Feeds every file of this module into {@code digest}, so a changed pin changes the cache key. */
    void digest(MessageDigest digest) {
        for (String file : files) {
            digest.update(file.getBytes(StandardCharsets.UTF_8));
            digest.update(read(file));
        }
    }

    /** A short hex digest over a build recipe and the given modules' files. */
    static String fingerprint(String recipe, GoModule... modules) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            digest.update(recipe.getBytes(StandardCharsets.UTF_8));
            for (GoModule module : modules) {
                module.digest(digest);
            }
            return HexFormat.of().formatHex(digest.digest()).substring(0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private byte[] read(String file) {
        String resource = RESOURCE_ROOT + directory + "/" + file;
        try (InputStream in = GoModule.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + resource + " (is operator-starter-test's jar complete?)");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read resource " + resource, e);
        }
    }
}
