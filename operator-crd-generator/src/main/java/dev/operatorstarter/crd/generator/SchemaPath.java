package dev.operatorstarter.crd.generator;

/**
 * Where in a resource's schema the generator is: the resource class and a path of JSON property
 * names, {@code []} for a list's items and {@code {}} for a map's values
 * ({@code spec.backends[].labels{}}). Errors made here name both.
 *
 * @param resource the custom resource class being described
 * @param path the path from the object's root, empty at the root
 */
record SchemaPath(Class<?> resource, String path) {

    static SchemaPath root(Class<?> resource) {
        return new SchemaPath(resource, "");
    }

    SchemaPath property(String name) {
        return new SchemaPath(resource, path.isEmpty() ? name : path + "." + name);
    }

    SchemaPath items() {
        return new SchemaPath(resource, path + "[]");
    }

    SchemaPath values() {
        return new SchemaPath(resource, path + "{}");
    }

    /** An error that names the class and this path, then {@code problem}. */
    CrdGenerationException error(String problem) {
        return new CrdGenerationException(this + ": " + problem);
    }

    @Override
    public String toString() {
        return resource.getName() + (path.isEmpty() ? " (the object)" : " " + path);
    }
}
