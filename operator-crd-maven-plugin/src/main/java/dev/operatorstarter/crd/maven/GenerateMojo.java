package dev.operatorstarter.crd.maven;

import java.nio.file.Path;
import java.util.List;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.ResolutionScope;

/**
 * Writes the CRD of each custom resource of the project into {@code outputDirectory}, after the
 * classes are compiled. A file already current is left untouched.
 */
@Mojo(name = "generate", defaultPhase = LifecyclePhase.PROCESS_CLASSES,
        requiresDependencyResolution = ResolutionScope.COMPILE, threadSafe = true)
public class GenerateMojo extends AbstractCrdMojo {

    @Override
    public void execute() throws MojoExecutionException, MojoFailureException {
        if (nothingToDo()) {
            return;
        }
        CrdFiles files = render();
        List<Path> written = files.write(outputDirectory.toPath().toAbsolutePath().normalize());
        for (CrdFiles.CrdFile file : files.files()) {
            Path path = outputDirectory.toPath().toAbsolutePath().normalize().resolve(file.fileName());
            getLog().info((written.contains(path) ? "Wrote " : "Current: ") + path + " (" + String.join(", ",
                    file.classes()) + ")");
        }
    }
}
