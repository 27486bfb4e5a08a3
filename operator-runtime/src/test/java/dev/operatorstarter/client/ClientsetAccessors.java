package dev.operatorstarter.client;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Every typed accessor of the {@link Clientset}, found by reflection rather than listed, so a test
 * over them covers an accessor added later without being told: each {@link KubernetesClient}
 * method that answers a group version interface, and each of that interface's methods that answers
 * a {@link ResourceClient}.
 */
final class ClientsetAccessors {

    /**
     * One accessor.
     *
     * @param groupVersion the {@code KubernetesClient} method, for example {@code storageV1}
     * @param groupVersionInterface the interface it answers, for example {@code StorageV1}
     * @param resource the interface's method, for example {@code csiDrivers}
     * @param type what the accessor's client resolved
     */
    record Accessor(String groupVersion, Class<?> groupVersionInterface, String resource, ResourceType<?> type) {

        @Override
        public String toString() {
            return groupVersion + "()." + resource + "()";
        }
    }

    private ClientsetAccessors() {
    }

    /** The group version interfaces nested in {@link Clientset}. */
    static List<Class<?>> groupVersionInterfaces() {
        return Arrays.stream(Clientset.class.getDeclaredClasses()).filter(Class::isInterface)
                .sorted(Comparator.comparing(Class::getSimpleName)).toList();
    }

    /** The {@link KubernetesClient} methods that answer a group version interface. */
    static List<Method> groupVersionMethods() {
        return Arrays.stream(KubernetesClient.class.getMethods())
                .filter(method -> method.getParameterCount() == 0)
                .filter(method -> method.getReturnType().getEnclosingClass() == Clientset.class)
                .sorted(Comparator.comparing(Method::getName)).toList();
    }

    /** Every resource accessor of {@code client}, in the order of group version and then name. */
    static List<Accessor> of(KubernetesClient client) {
        List<Accessor> accessors = new ArrayList<>();
        for (Method groupVersion : groupVersionMethods()) {
            Object clients = invoke(groupVersion, client);
            Arrays.stream(groupVersion.getReturnType().getMethods())
                    .filter(method -> method.getParameterCount() == 0 && method.getReturnType() == ResourceClient.class)
                    .sorted(Comparator.comparing(Method::getName))
                    .forEach(resource -> accessors.add(new Accessor(groupVersion.getName(), groupVersion.getReturnType(),
                            resource.getName(), ((ResourceClient<?>) invoke(resource, clients)).type())));
        }
        return accessors;
    }

    private static Object invoke(Method method, Object target) {
        try {
            return method.invoke(target);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        } catch (InvocationTargetException e) {
            throw new AssertionError(method.getDeclaringClass().getSimpleName() + "." + method.getName()
                    + "() failed: " + e.getCause(), e.getCause());
        }
    }
}
