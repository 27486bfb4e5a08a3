package dev.operatorstarter.crd.maven;

import dev.operatorstarter.client.CustomResource;
import dev.operatorstarter.crd.generator.CrdGenerationException;
import dev.operatorstarter.crd.generator.CrdOptions;
import java.io.File;
import java.io.IOException;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.project.MavenProject;
import org.jspecify.annotations.Nullable;

/** What {@code generate} and {@code check} share: which classes, the CRDs' extra metadata, rendering. */
abstract class AbstractCrdMojo extends AbstractMojo {

    @Parameter(defaultValue = "${project}", readonly = true, required = true)
    MavenProject project;

    /**
     * The custom resource classes, by fully qualified name; several classes of one group and kind
     * are the versions of one CRD. Default: every concrete {@code CustomResource} subclass compiled
     * into the project's output directory.
     */
    @Parameter
    List<String> classes = new ArrayList<>();

    /**
     * Where the CRD files are: one {@code <plural>.<group>.yaml} per resource. Default
     * {@code target/classes/crds}, so the CRDs are on the classpath as {@code crds/*.yaml}, where
     * {@code @KubernetesTest(crds = ...)} and {@code LocalKubernetes} find them. A Helm chart's
     * {@code crds/} folder is the other usual place.
     */
    @Parameter(property = "operator.crd.outputDirectory", defaultValue = "${project.build.outputDirectory}/crds")
    File outputDirectory;

    /**
     * Metadata annotations of every CRD, for example {@code helm.sh/resource-policy: keep}, as
     * {@code <property><name>helm.sh/resource-policy</name><value>keep</value></property>} (an XML
     * element cannot be named with a {@code /}). Default none.
     */
    @Parameter
    Properties annotations = new Properties();

    /** Metadata labels of every CRD, as {@code <property>} elements like the annotations. Default none. */
    @Parameter
    Properties labels = new Properties();

    /**
     * A comment written above each CRD, one {@code #} line per line. Default: that the file is
     * generated, from which classes, and not to edit it.
     */
    @Parameter
    @Nullable String header;

    /** Skips the goal. */
    @Parameter(property = "operator.crd.skip", defaultValue = "false")
    boolean skip;

    /** Whether the goal has nothing to do here: skipped, or a project without classes (a parent pom). */
    boolean nothingToDo() {
        if (skip) {
            getLog().info("Skipping the CRDs (operator.crd.skip)");
            return true;
        }
        if ("pom".equals(project.getPackaging())) {
            getLog().debug("No classes in a project of packaging pom: no CRDs");
            return true;
        }
        return false;
    }

    /** Renders the CRDs of the project's classes; fails the build, naming the class, if one cannot be described. */
    CrdFiles render() throws MojoExecutionException, MojoFailureException {
        try (URLClassLoader loader = ProjectClasses.loader(project)) {
            List<Class<? extends CustomResource<?, ?>>> found = classes.isEmpty()
                    ? CustomResourceClasses.scan(new File(project.getBuild().getOutputDirectory()).toPath(), loader)
                    : CustomResourceClasses.named(classes, loader);
            if (found.isEmpty()) {
                getLog().info("No custom resource class found in " + project.getBuild().getOutputDirectory()
                        + " (concrete subclasses of " + CustomResource.class.getName() + "); no CRD written");
            }
            CrdOptions.Builder options = CrdOptions.builder();
            annotations.stringPropertyNames().forEach(name -> options.annotation(name, annotations.getProperty(name)));
            labels.stringPropertyNames().forEach(name -> options.label(name, labels.getProperty(name)));
            return CrdFiles.render(found, options.header(header == null ? "" : header).build());
        } catch (CrdGenerationException | IllegalArgumentException e) {
            throw new MojoFailureException("Cannot generate the CRDs: " + e.getMessage(), e);
        } catch (IOException e) {
            throw new MojoExecutionException("Cannot read the project's classes: " + e.getMessage(), e);
        }
    }
}
