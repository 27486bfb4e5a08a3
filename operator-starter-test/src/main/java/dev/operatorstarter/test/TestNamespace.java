package dev.operatorstarter.test;

import java.util.Objects;

/**
 * A namespace created for one test scope and deleted when the scope ends (deletion is requested,
 * not awaited). It exists, and has its {@code default} service account, before the test sees it.
 *
 * @param name the namespace's name, unique per scope ({@code generateName} from the test class)
 */
public record TestNamespace(String name) {

    public TestNamespace {
        Objects.requireNonNull(name, "name");
    }

    @Override
    public String toString() {
        return name;
    }
}
