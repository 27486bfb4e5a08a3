package dev.operatorstarter.webhook;

import io.fabric8.kubernetes.api.model.GroupVersionKind;
import io.fabric8.kubernetes.api.model.GroupVersionResource;
import io.fabric8.kubernetes.api.model.authentication.UserInfo;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One admission request, with the object decoded into the handler's class.
 *
 * <p>For {@code CREATE}, {@code object} is the new object and {@code oldObject} is null; for
 * {@code UPDATE} both are set; for {@code DELETE}, {@code object} is null and {@code oldObject} is
 * the object being deleted; for {@code CONNECT} both are usually null ({@code options} in the
 * request says what connects). The objects are the handler's own copies, decoded for this call:
 * a mutating handler may change {@link #object()} in place and return it.
 *
 * @param uid the request's identifier, echoed in the response
 * @param operation what the request does
 * @param object the object as it will be stored (null for DELETE, and usually for CONNECT)
 * @param oldObject the stored object (UPDATE and DELETE), else null
 * @param dryRun whether the request is a dry run: the handler must have no side effects then
 * @param userInfo who sent the request: user name, groups, extra
 * @param kind the group, version and kind of {@code object}
 * @param resource the group, version and resource the request addresses
 * @param subResource the subresource ({@code status}, {@code scale}...), or null
 * @param namespace the namespace, or null for a cluster-scoped resource
 * @param name the object's name, or null when the server generates it on create
 * @param request the request as the API server sent it, for anything else (options, requestKind...)
 * @param <T> the handler's class
 */
public record Admission<T>(String uid, Operation operation, @Nullable T object, @Nullable T oldObject,
        boolean dryRun, UserInfo userInfo, GroupVersionKind kind, GroupVersionResource resource,
        @Nullable String subResource, @Nullable String namespace, @Nullable String name, AdmissionRequest request) {

    public Admission {
        Objects.requireNonNull(uid, "uid");
        Objects.requireNonNull(operation, "operation");
        Objects.requireNonNull(userInfo, "userInfo");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(resource, "resource");
        Objects.requireNonNull(request, "request");
    }

    /** What an admission request does. */
    public enum Operation {
        CREATE,
        UPDATE,
        DELETE,
        CONNECT
    }

    /**
     * The object the request is about: {@link #object()}, or for a DELETE {@link #oldObject()}.
     *
     * @throws IllegalStateException when the request carries neither (a CONNECT)
     */
    public T subject() {
        T subject = object != null ? object : oldObject;
        if (subject == null) {
            throw new IllegalStateException("the " + operation + " request " + uid + " carries no object");
        }
        return subject;
    }
}
