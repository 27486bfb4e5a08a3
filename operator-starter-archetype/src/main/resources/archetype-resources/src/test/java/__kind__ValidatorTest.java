package ${package};

import static org.assertj.core.api.Assertions.assertThat;

import dev.operatorstarter.webhook.Admission;
import dev.operatorstarter.webhook.AdmissionVerdict;
import io.fabric8.kubernetes.api.model.GroupVersionKind;
import io.fabric8.kubernetes.api.model.GroupVersionResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.authentication.UserInfo;
import org.junit.jupiter.api.Test;

/**
 * The validator as a plain function, no server: what it refuses and what it lets through.
 * ${kind}ChartIT has the API server call it through the chart's webhook configuration.
 */
class ${kind}ValidatorTest {

    private final ${kind}Validator validator = new ${kind}Validator();

    @Test
    void aBlankMessageIsRefusedOnCreateAndUpdate() {
        AdmissionVerdict created = validator.validate(admission(Admission.Operation.CREATE, ${kind}.of("hello", "  "), null));
        AdmissionVerdict updated = validator.validate(admission(Admission.Operation.UPDATE, ${kind}.of("hello", ""),
                ${kind}.of("hello", "Hello")));

        assertThat(created.allowed()).isFalse();
        assertThat(created.code()).isEqualTo(403);
        assertThat(created.message()).contains("must not be blank");
        assertThat(updated.allowed()).isFalse();
    }

    @Test
    void aMessageIsAllowedAndSoIsADelete() {
        assertThat(validator.validate(admission(Admission.Operation.CREATE, ${kind}.of("hello", "Hello"), null)).allowed())
                .isTrue();
        assertThat(validator.validate(admission(Admission.Operation.DELETE, null, ${kind}.of("hello", " "))).allowed())
                .isTrue();
    }

    /** A review of {@code operation} as the API server sends it, decoded. */
    private static Admission<${kind}> admission(Admission.Operation operation, ${kind} object, ${kind} old) {
        ${kind} subject = object != null ? object : old;
        return new Admission<>("uid", operation, object, old, false, new UserInfo(),
                new GroupVersionKind(${kind}.GROUP, HasMetadata.getKind(${kind}.class), ${kind}.VERSION),
                new GroupVersionResource(${kind}.GROUP, HasMetadata.getPlural(${kind}.class), ${kind}.VERSION), null,
                "default", subject.getMetadata().getName(), new AdmissionRequest());
    }
}
