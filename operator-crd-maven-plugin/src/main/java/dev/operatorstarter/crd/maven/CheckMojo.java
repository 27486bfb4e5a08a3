package dev.operatorstarter.crd.maven;

import java.util.List;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.ResolutionScope;

/**
 * Fails the build when a CRD file in {@code outputDirectory} is missing or is not what the classes
 * give, naming the file and the first line that differs: for a CRD kept under version control (a
 * Helm chart's), so that a change to the classes cannot land without the CRD that goes with it.
 * Writes nothing.
 */
@Mojo(name = "check", defaultPhase = LifecyclePhase.PROCESS_CLASSES,
        requiresDependencyResolution = ResolutionScope.COMPILE, threadSafe = true)
public class CheckMojo extends AbstractCrdMojo {

    @Override
    public void execute() throws MojoExecutionException, MojoFailureException {
        if (nothingToDo()) {
            return;
        }
        List<String> stale = render().stale(outputDirectory.toPath().toAbsolutePath().normalize());
        if (!stale.isEmpty()) {
            throw new MojoFailureException("The CRD files are not current:\n  " + String.join("\n  ", stale)
                    + "\nWrite them again with this plugin's generate goal, configured as this check is, and commit "
                    + "them (the header of a generated file may say how).");
        }
        getLog().info("The CRD files in " + outputDirectory.toPath().toAbsolutePath().normalize() + " are current");
    }
}
