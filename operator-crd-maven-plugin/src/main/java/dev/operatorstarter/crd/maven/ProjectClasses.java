package dev.operatorstarter.crd.maven;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.maven.artifact.DependencyResolutionRequiredException;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.project.MavenProject;

/** The project's compiled classes, as the goals read them. */
final class ProjectClasses {

    private ProjectClasses() {
    }

    /**
     * The project's compiled classes and compile dependencies, over this plugin's class loader:
     * the runtime's classes (CustomResource, the annotations, Jackson) come from the plugin, so the
     * generator and the project's classes share them.
     */
    static URLClassLoader loader(MavenProject project) throws MojoExecutionException {
        try {
            List<URL> urls = new ArrayList<>();
            for (String element : project.getCompileClasspathElements()) {
                urls.add(new File(element).toURI().toURL());
            }
            return new URLClassLoader(urls.toArray(URL[]::new), ProjectClasses.class.getClassLoader());
        } catch (DependencyResolutionRequiredException | MalformedURLException e) {
            throw new MojoExecutionException("Cannot build the project's class path: " + e.getMessage(), e);
        }
    }

    /** The names of the classes compiled into {@code classesDirectory}, sorted; none when it does not exist. */
    static List<String> names(Path classesDirectory) {
        if (!Files.isDirectory(classesDirectory)) {
            return List.of();
        }
        try (Stream<Path> files = Files.walk(classesDirectory)) {
            return files.filter(file -> file.getFileName().toString().endsWith(".class"))
                    .map(file -> className(classesDirectory.relativize(file)))
                    .filter(name -> !name.endsWith("module-info") && !name.endsWith("package-info"))
                    .sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the classes in " + classesDirectory, e);
        }
    }

    private static String className(Path relative) {
        String path = relative.toString().replace(relative.getFileSystem().getSeparator(), ".");
        return path.substring(0, path.length() - ".class".length());
    }
}
