package dev.operatorstarter.crd.maven;

import java.nio.file.Files;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.ResolutionScope;

/**
 * Writes the RBAC rules the code declares into a Helm chart, after the classes are compiled: the
 * named templates of {@code templates/_rbac-generated.tpl}, from every {@code @Reconciler} (its
 * resources, finalizer and status), its {@code @Permission}s, Events, leader election, sharding
 * and webhook CA injection. A file already current is left untouched; a project without a chart
 * in {@code chartDirectory} gets none.
 */
@Mojo(name = "rbac", defaultPhase = LifecyclePhase.PROCESS_CLASSES,
        requiresDependencyResolution = ResolutionScope.COMPILE, threadSafe = true)
public class RbacMojo extends AbstractRbacMojo {

    @Override
    public void execute() throws MojoExecutionException, MojoFailureException {
        if (nothingToDo()) {
            return;
        }
        if (!Files.isRegularFile(chartDirectory.toPath().resolve("Chart.yaml"))) {
            getLog().info("No Helm chart in " + chartDirectory + " (no Chart.yaml): no RBAC rules written; set "
                    + "chartDirectory (operator.rbac.chartDirectory) to write them into a chart");
            return;
        }
        RbacTemplate template = render();
        boolean written = template.write(templates());
        getLog().info((written ? "Wrote " : "Current: ") + templates().resolve(RbacTemplate.FILE_NAME) + " ("
                + template.sources().size() + " reconcilers)");
    }
}
