package dev.operatorstarter.client.rest;

import io.fabric8.kubernetes.api.model.Status;
import java.util.Map;

/**
 * One event of a watch. {@code ADDED}, {@code MODIFIED} and {@code DELETED} carry the object;
 * {@code BOOKMARK} carries only the resourceVersion the watch has reached (and, for a streaming
 * list, the {@code k8s.io/initial-events-end} annotation); {@code ERROR} carries the server's
 * {@link Status}, typically 410 Expired when the resourceVersion is too old.
 */
public sealed interface WatchEvent<T> {

    /** The event's type as the server names it: ADDED, MODIFIED, DELETED, BOOKMARK or ERROR. */
    String type();

    /** An object was created (or, at the start of a watch, existed). */
    record Added<T>(T object) implements WatchEvent<T> {

        @Override
        public String type() {
            return "ADDED";
        }
    }

    /** An object changed. */
    record Modified<T>(T object) implements WatchEvent<T> {

        @Override
        public String type() {
            return "MODIFIED";
        }
    }

    /** An object was deleted; this is its last state. */
    record Deleted<T>(T object) implements WatchEvent<T> {

        @Override
        public String type() {
            return "DELETED";
        }
    }

    /** The watch has seen everything up to {@code resourceVersion}. */
    record Bookmark<T>(String resourceVersion, Map<String, String> annotations) implements WatchEvent<T> {

        public Bookmark {
            annotations = Map.copyOf(annotations);
        }

        @Override
        public String type() {
            return "BOOKMARK";
        }

        /** The bookmark that ends the initial events of a streaming list ({@code sendInitialEvents=true}). */
        public boolean endsInitialEvents() {
            return "true".equals(annotations.get("k8s.io/initial-events-end"));
        }
    }

    /** The server ended the watch with an error. */
    record Error<T>(Status status) implements WatchEvent<T> {

        @Override
        public String type() {
            return "ERROR";
        }

        /** The error as the exception a request with this status would have thrown. */
        public ApiException toException(String request) {
            return ApiException.fromStatus(status, request);
        }
    }
}
