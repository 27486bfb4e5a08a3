package dev.operatorstarter.webhook;

import dev.operatorstarter.internal.Json;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GroupVersionKind;
import io.fabric8.kubernetes.api.model.GroupVersionResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.authentication.UserInfo;
import java.util.Locale;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * Decodes an admission request's objects into one class, after checking that the request is for
 * that class's group, version and kind (when the class names them).
 */
final class AdmissionDecoder<T extends HasMetadata> {

    private final Class<T> type;
    private final @Nullable GroupVersionKind expected;

    AdmissionDecoder(Class<T> type) {
        this.type = Objects.requireNonNull(type, "type");
        this.expected = expectedKind(type);
    }

    Class<T> type() {
        return type;
    }

    /** Why the request cannot be decoded into the class; thrown as a message for a 400 denial. */
    static final class Undecodable extends Exception {
        private static final long serialVersionUID = 1L;

        Undecodable(String message) {
            super(message, null, false, false);
        }
    }

    Admission<T> decode(AdmissionRequest request, @Nullable JsonNode object, @Nullable JsonNode oldObject)
            throws Undecodable {
        GroupVersionKind kind = request.getKind();
        if (kind == null || request.getOperation() == null) {
            throw new Undecodable("the AdmissionReview's request has no " + (kind == null ? "kind" : "operation"));
        }
        if (expected != null && !(Objects.equals(blank(kind.getGroup()), expected.getGroup())
                && Objects.equals(kind.getVersion(), expected.getVersion())
                && Objects.equals(kind.getKind(), expected.getKind()))) {
            throw new Undecodable("this webhook decodes " + describe(expected) + " (" + type.getName()
                    + "), not " + describe(kind) + ": check the webhook configuration's rules and matchPolicy");
        }
        Admission.Operation operation;
        try {
            operation = Admission.Operation.valueOf(request.getOperation().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new Undecodable("the request's operation '" + request.getOperation() + "' is not one of "
                    + java.util.Arrays.toString(Admission.Operation.values()));
        }
        return new Admission<>(request.getUid() == null ? "" : request.getUid(), operation, read(object, "object"),
                read(oldObject, "oldObject"), Boolean.TRUE.equals(request.getDryRun()),
                request.getUserInfo() == null ? new UserInfo() : request.getUserInfo(), kind,
                request.getResource() == null ? new GroupVersionResource() : request.getResource(),
                blankToNull(request.getSubResource()), blankToNull(request.getNamespace()),
                blankToNull(request.getName()), request);
    }

    /** The JSON of {@code object} as the client's mapper writes it. */
    static JsonNode json(Object object) {
        return Json.MAPPER.valueToTree(object);
    }

    private @Nullable T read(@Nullable JsonNode node, String field) throws Undecodable {
        if (node == null) {
            return null;
        }
        try {
            return Json.MAPPER.treeToValue(node, type);
        } catch (JacksonException | IllegalArgumentException e) {
            throw new Undecodable("the request's " + field + " cannot be decoded into " + type.getName() + ": "
                    + (e instanceof JacksonException jackson ? jackson.getOriginalMessage() : e.getMessage()));
        }
    }

    private static @Nullable GroupVersionKind expectedKind(Class<?> type) {
        if (GenericKubernetesResource.class.isAssignableFrom(type)) {
            return null;
        }
        String version = HasMetadata.getVersion(type);
        if (version == null) {
            return null;
        }
        return new GroupVersionKind(blank(HasMetadata.getGroup(type)), HasMetadata.getKind(type), version);
    }

    private static String describe(GroupVersionKind kind) {
        String group = blank(kind.getGroup());
        return (group.isEmpty() ? "" : group + "/") + kind.getVersion() + " " + kind.getKind();
    }

    private static String blank(@Nullable String value) {
        return value == null ? "" : value;
    }

    private static @Nullable String blankToNull(@Nullable String value) {
        return value == null || value.isEmpty() ? null : value;
    }
}
