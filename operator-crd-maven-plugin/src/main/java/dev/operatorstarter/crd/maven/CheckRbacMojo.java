package dev.operatorstarter.crd.maven;

import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.ResolutionScope;

/**
 * Fails the build when the chart's {@code templates/_rbac-generated.tpl} is missing or is not what
 * the code gives, naming the first line that differs: for a chart kept under version control, so
 * that a reconciler that needs one more permission cannot land without it. Writes nothing.
 */
@Mojo(name = "check-rbac", defaultPhase = LifecyclePhase.PROCESS_CLASSES,
        requiresDependencyResolution = ResolutionScope.COMPILE, threadSafe = true)
public class CheckRbacMojo extends AbstractRbacMojo {

    @Override
    public void execute() throws MojoExecutionException, MojoFailureException {
        if (nothingToDo()) {
            return;
        }
        String stale = render().stale(templates());
        if (stale != null) {
            throw new MojoFailureException("The chart's RBAC rules are not current: " + stale + "\nWrite them again "
                    + "with this plugin's rbac goal, configured as this check is, and commit the file.");
        }
        getLog().info("The RBAC rules in " + templates().resolve(RbacTemplate.FILE_NAME) + " are current");
    }
}
