package dev.operatorstarter.crd.maven;

import dev.operatorstarter.client.CustomResource;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Finds the custom resource classes of a project: the concrete {@link CustomResource} subclasses
 * among the compiled classes of a folder, or the classes named. Classes are loaded without being
 * initialised, so no static initialiser of the project runs.
 */
final class CustomResourceClasses {

    private CustomResourceClasses() {
    }

    /**
     * The classes named, each checked to be a concrete custom resource class.
     *
     * @throws IllegalArgumentException naming the class that is missing or is not one
     */
    static List<Class<? extends CustomResource<?, ?>>> named(List<String> names, ClassLoader loader) {
        List<Class<? extends CustomResource<?, ?>>> found = new ArrayList<>();
        for (String name : names) {
            Class<?> type;
            try {
                type = Class.forName(name.trim(), false, loader);
            } catch (ClassNotFoundException | LinkageError e) {
                throw new IllegalArgumentException("custom resource class " + name + " is not on the project's "
                        + "compile classpath (" + e + ")", e);
            }
            if (!isCustomResource(type)) {
                throw new IllegalArgumentException(name + " is not a concrete subclass of " + CustomResource.class.getName());
            }
            found.add(cast(type));
        }
        return found;
    }

    /** Every concrete custom resource class compiled into {@code classesDirectory}, sorted by name. */
    static List<Class<? extends CustomResource<?, ?>>> scan(Path classesDirectory, ClassLoader loader) {
        List<String> names = ProjectClasses.names(classesDirectory);
        List<Class<? extends CustomResource<?, ?>>> found = new ArrayList<>();
        for (String name : names) {
            try {
                Class<?> type = Class.forName(name, false, loader);
                if (isCustomResource(type)) {
                    found.add(cast(type));
                }
            } catch (ClassNotFoundException | LinkageError e) {
                // a class whose dependencies are not all on the compile classpath: not one of ours
            }
        }
        return found;
    }

    private static boolean isCustomResource(Class<?> type) {
        return CustomResource.class.isAssignableFrom(type) && type != CustomResource.class
                && !Modifier.isAbstract(type.getModifiers()) && !type.isAnonymousClass() && !type.isLocalClass();
    }

    @SuppressWarnings("unchecked")
    private static Class<? extends CustomResource<?, ?>> cast(Class<?> type) {
        return (Class<? extends CustomResource<?, ?>>) type;
    }
}
