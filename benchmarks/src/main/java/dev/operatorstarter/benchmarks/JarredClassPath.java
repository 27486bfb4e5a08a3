package dev.operatorstarter.benchmarks;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * A class path whose directories are packed into jars: a class-data archive (AppCDS, the AOT cache)
 * holds only classes loaded from jars, and a JVM refuses to write one while a non-empty directory is
 * on its class path. Under {@code exec:exec} this module's own classes come from
 * {@code target/classes}; every other entry is a jar already and stays as it is.
 */
final class JarredClassPath {

    private JarredClassPath() {
    }

    /** {@code classPath} with each directory replaced by a jar of it written under {@code folder}. */
    static String of(String classPath, Path folder) throws IOException {
        Files.createDirectories(folder);
        List<String> entries = new ArrayList<>();
        int directories = 0;
        for (String entry : classPath.split(File.pathSeparator)) {
            if (entry.isEmpty()) {
                continue;
            }
            Path path = Path.of(entry);
            if (Files.isDirectory(path)) {
                Path jar = folder.resolve("classes-" + ++directories + ".jar").toAbsolutePath();
                write(path, jar);
                entries.add(jar.toString());
            } else {
                entries.add(entry);
            }
        }
        return String.join(File.pathSeparator, entries);
    }

    private static void write(Path directory, Path jar) throws IOException {
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file);
                Stream<Path> files = Files.walk(directory)) {
            for (Path path : (Iterable<Path>) files.sorted()::iterator) {
                if (path.equals(directory)) {
                    continue;
                }
                String name = directory.relativize(path).toString().replace(File.separatorChar, '/');
                boolean folder = Files.isDirectory(path);
                JarEntry entry = new JarEntry(folder ? name + "/" : name);
                entry.setTime(Files.getLastModifiedTime(path).toMillis());
                out.putNextEntry(entry);
                if (!folder) {
                    Files.copy(path, out);
                }
                out.closeEntry();
            }
        }
    }
}
