package dev.operatorstarter.test.local;

import dev.operatorstarter.test.internal.Folders;
import dev.operatorstarter.test.internal.OwnerOnly;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The temporary folder of one run of the local API server: readable by its owner only, and marked
 * with the process id of the JVM that made it, so that a later start can delete the folders of JVMs
 * that were killed before they could clean up.
 */
final class RunFolder {

    private static final Logger log = LoggerFactory.getLogger(RunFolder.class);
    private static final String RUN_PREFIX = "operator-starter-apiserver-";
    private static final String OWNER_FILE = "owner.pid";

    private RunFolder() {
    }

    /** Creates a new run folder owned by this JVM, then sweeps the abandoned ones beside it. */
    static Path create() throws IOException {
        Path run = Files.createTempDirectory(RUN_PREFIX);
        OwnerOnly.restrict(run);
        Files.writeString(run.resolve(OWNER_FILE), Long.toString(ProcessHandle.current().pid()));
        sweepAbandoned(run.getParent());
        return run;
    }

    /**
     * Deletes the run folders of JVMs that are gone (killed before they could clean up), so that
     * data folders do not pile up in the temporary directory.
     */
    static void sweepAbandoned(Path temporaryDirectory) {
        try (DirectoryStream<Path> runs = Files.newDirectoryStream(temporaryDirectory, RUN_PREFIX + "*")) {
            for (Path run : runs) {
                Path owner = run.resolve(OWNER_FILE);
                if (!Files.isRegularFile(owner)) {
                    continue; // not ours to judge
                }
                long pid;
                try {
                    pid = Long.parseLong(Files.readString(owner).trim());
                } catch (IOException | NumberFormatException e) {
                    continue;
                }
                if (ProcessHandle.of(pid).isEmpty()) {
                    log.info("Deleting {}, left by process {} which no longer runs", run, pid);
                    Folders.deleteQuietly(run);
                }
            }
        } catch (IOException | RuntimeException e) {
            log.debug("Could not sweep abandoned run folders in {}: {}", temporaryDirectory, e.toString());
        }
    }
}
