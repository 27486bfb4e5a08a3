package dev.operatorstarter.event;

/** The two event types Kubernetes knows. */
public enum EventType {
    NORMAL("Normal"), WARNING("Warning");

    private final String value;

    EventType(String value) {
        this.value = value;
    }

    /** As written in the API: {@code Normal} or {@code Warning}. */
    public String value() {
        return value;
    }
}
