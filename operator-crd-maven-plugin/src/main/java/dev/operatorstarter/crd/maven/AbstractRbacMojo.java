package dev.operatorstarter.crd.maven;

import dev.operatorstarter.rbac.AccessRules;
import java.io.File;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.project.MavenProject;
import org.jspecify.annotations.Nullable;

/**
 * What {@code rbac} and {@code check-rbac} share: the chart, and the rules read from the
 * project's compiled classes by the starter's own reading of {@code @Reconciler} (so the build and
 * the running operator agree on what a declaration needs).
 */
abstract class AbstractRbacMojo extends AbstractMojo {

    private static final String CODE_PERMISSIONS = "dev.operatorstarter.autoconfigure.wiring.CodePermissions";

    @Parameter(defaultValue = "${project}", readonly = true, required = true)
    MavenProject project;

    /** The Helm chart: the folder of its {@code Chart.yaml}. The file goes into its {@code templates}. */
    @Parameter(property = "operator.rbac.chartDirectory", defaultValue = "${project.basedir}/chart")
    File chartDirectory;

    /** The prefix of the named templates; default the chart's name. */
    @Parameter(property = "operator.rbac.templatePrefix")
    @Nullable String templatePrefix;

    /** Skips the goal. */
    @Parameter(property = "operator.rbac.skip", defaultValue = "false")
    boolean skip;

    boolean nothingToDo() {
        if (skip) {
            getLog().info("Skipping the RBAC rules (operator.rbac.skip)");
            return true;
        }
        if ("pom".equals(project.getPackaging())) {
            getLog().debug("No classes in a project of packaging pom: no RBAC rules");
            return true;
        }
        return false;
    }

    Path templates() {
        return chartDirectory.toPath().toAbsolutePath().normalize().resolve("templates");
    }

    /** The template of the project's rules; fails the build naming what cannot be read. */
    RbacTemplate render() throws MojoExecutionException, MojoFailureException {
        Path chart = chartDirectory.toPath().toAbsolutePath().normalize();
        String prefix;
        try {
            prefix = templatePrefix == null || templatePrefix.isBlank() ? RbacTemplate.chartName(chart) : templatePrefix;
        } catch (IllegalArgumentException e) {
            throw new MojoFailureException(e.getMessage(), e);
        }
        ClassLoader previous = Thread.currentThread().getContextClassLoader();
        try (URLClassLoader loader = ProjectClasses.loader(project)) {
            Thread.currentThread().setContextClassLoader(loader);
            Class<?> reader;
            try {
                reader = Class.forName(CODE_PERMISSIONS, true, loader);
            } catch (ClassNotFoundException | LinkageError e) {
                throw new MojoFailureException("The rbac goals read @Reconciler classes as the starter does, and "
                        + CODE_PERMISSIONS + " is not on the project's compile classpath (" + e + "): depend on "
                        + "dev.operatorstarter:operator-starter of this plugin's version", e);
            }
            List<Class<?>> classes = new ArrayList<>();
            for (String name : ProjectClasses.names(Path.of(project.getBuild().getOutputDirectory()))) {
                try {
                    Class<?> type = Class.forName(name, false, loader);
                    type.getDeclaredMethods(); // links the signatures now: a class that cannot is not read
                    classes.add(type);
                } catch (ClassNotFoundException | LinkageError e) {
                    getLog().debug("Not reading " + name + ": " + e);
                }
            }
            Object permissions = call(reader.getMethod("of", java.util.Collection.class), null, classes);
            @SuppressWarnings("unchecked")
            List<String> sources = (List<String>) call(reader.getMethod("reconcilers"), permissions);
            if (sources.isEmpty()) {
                getLog().warn("No @Reconciler class or @Bean method found in " + project.getBuild().getOutputDirectory()
                        + ": the RBAC rules hold no controller's needs");
            }
            return new RbacTemplate(prefix, sources, (AccessRules) call(reader.getMethod("reconcile"), permissions),
                    (AccessRules) call(reader.getMethod("sharded"), permissions),
                    (AccessRules) call(reader.getMethod("caInjection", String.class), permissions,
                            RbacTemplate.CONFIGURATION));
        } catch (IOException e) {
            throw new MojoExecutionException("Cannot read the project's classes: " + e.getMessage(), e);
        } catch (NoSuchMethodException e) {
            throw new MojoExecutionException(CODE_PERMISSIONS + " of the project's operator-starter is not the one "
                    + "this plugin reads (" + e.getMessage() + "): use the plugin of the starter's version", e);
        } finally {
            Thread.currentThread().setContextClassLoader(previous);
        }
    }

    private static Object call(Method method, @Nullable Object target, Object... arguments)
            throws MojoFailureException, MojoExecutionException {
        try {
            return method.invoke(target, arguments);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            throw new MojoFailureException("Cannot derive the RBAC rules from the code: " + cause.getMessage(), cause);
        } catch (IllegalAccessException e) {
            throw new MojoExecutionException("Cannot call " + method + ": " + e.getMessage(), e);
        }
    }
}
