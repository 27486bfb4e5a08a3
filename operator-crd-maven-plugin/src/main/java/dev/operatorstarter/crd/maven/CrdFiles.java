package dev.operatorstarter.crd.maven;

import dev.operatorstarter.client.CustomResource;
import dev.operatorstarter.crd.generator.CrdGenerator;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * The CRD files of a set of custom resource classes: one file per resource, named after the CRD
 * ({@code <plural>.<group>.yaml}), holding every version of it (the classes that share group and
 * kind). What {@code generate} writes and {@code check} compares; plain Java, so it is tested
 * without Maven.
 */
final class CrdFiles {

    /** One CRD file: its name, its YAML, and the classes it came from. */
    record CrdFile(String fileName, String yaml, List<String> classes) {
    }

    private final List<CrdFile> files;

    private CrdFiles(List<CrdFile> files) {
        this.files = files;
    }

    /** Renders the CRDs of {@code classes}, grouped by group and kind, in file-name order. */
    static CrdFiles render(List<Class<? extends CustomResource<?, ?>>> classes, CrdGenerator generator) {
        Map<String, List<Class<? extends CustomResource<?, ?>>>> byResource = new TreeMap<>();
        for (Class<? extends CustomResource<?, ?>> type : classes) {
            byResource.computeIfAbsent(HasMetadata.getGroup(type) + "/" + HasMetadata.getKind(type),
                    key -> new ArrayList<>()).add(type);
        }
        List<CrdFile> files = new ArrayList<>();
        for (List<Class<? extends CustomResource<?, ?>>> versions : byResource.values()) {
            CustomResourceDefinition crd = generator.generate(versions);
            files.add(new CrdFile(crd.getMetadata().getName() + ".yaml", generator.toYaml(crd),
                    versions.stream().map(Class::getName).sorted().toList()));
        }
        files.sort((a, b) -> a.fileName().compareTo(b.fileName()));
        return new CrdFiles(List.copyOf(files));
    }

    List<CrdFile> files() {
        return files;
    }

    /**
     * Writes each file into {@code directory} where its content differs from what is there (a file
     * already current is not touched, so its modification time says when it last changed).
     *
     * @return the files written
     */
    List<Path> write(Path directory) {
        List<Path> written = new ArrayList<>();
        try {
            Files.createDirectories(directory);
            for (CrdFile file : files) {
                Path target = directory.resolve(file.fileName());
                if (!file.yaml().equals(read(target))) {
                    Files.writeString(target, file.yaml(), StandardCharsets.UTF_8);
                    written.add(target);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the CRDs into " + directory + ": " + e.getMessage(), e);
        }
        return written;
    }

    /**
     * What is not current in {@code directory}: for each file missing or different, a line that
     * names it and, for a difference, the first line that differs. Empty when every file is current.
     */
    List<String> stale(Path directory) {
        List<String> problems = new ArrayList<>();
        for (CrdFile file : files) {
            Path target = directory.resolve(file.fileName());
            String current = read(target);
            if (current == null) {
                problems.add(target + " is missing (the CRD of " + String.join(", ", file.classes()) + ")");
            } else if (!current.equals(file.yaml())) {
                problems.add(target + " is not what " + String.join(", ", file.classes()) + " give: "
                        + firstDifference(current, file.yaml()));
            }
        }
        return problems;
    }

    private static String firstDifference(String current, String expected) {
        String[] have = current.split("\n", -1);
        String[] want = expected.split("\n", -1);
        for (int i = 0; i < Math.max(have.length, want.length); i++) {
            String a = i < have.length ? have[i] : "<end of file>";
            String b = i < want.length ? want[i] : "<end of file>";
            if (!a.equals(b)) {
                return "line " + (i + 1) + " is '" + a.strip() + "', the classes give '" + b.strip() + "'";
            }
        }
        return "they differ in line endings";
    }

    private static @Nullable String read(Path file) {
        try {
            return Files.isRegularFile(file) ? Files.readString(file, StandardCharsets.UTF_8) : null;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }
}
