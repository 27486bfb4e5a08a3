package dev.operatorstarter.client.pod;

import dev.operatorstarter.internal.Json;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusCause;
import java.util.List;
import tools.jackson.core.JacksonException;

/**
 * The exit code in the status channel's {@code metav1.Status} (the {@code v4} and {@code v5}
 * protocols): {@code Success} is 0; {@code Failure} with reason {@code NonZeroExitCode} carries the
 * code in the cause of reason {@code ExitCode}; any other failure is an {@link ExecException}
 * with the server's message.
 */
final class ExitStatus {

    private ExitStatus() {
    }

    /**
     * The exit code in {@code json}.
     *
     * @param what the session, for messages (verb, Pod, container)
     * @throws ExecException for a failure that is not an exit code, or a malformed status
     */
    static int exitCode(byte[] json, String what) {
        Status status;
        try {
            status = Json.MAPPER.readValue(json, Status.class);
        } catch (JacksonException e) {
            // never quote the body: a command's output has no place in a message
            throw new ExecException(what + " ended with a malformed status (" + json.length + " bytes, not a Status: "
                    + e.getOriginalMessage() + ")", e);
        }
        if ("Success".equals(status.getStatus())) {
            return 0;
        }
        if (!"Failure".equals(status.getStatus())) {
            throw new ExecException(what + " ended with a status that is neither Success nor Failure: "
                    + status.getStatus());
        }
        if ("NonZeroExitCode".equals(status.getReason())) {
            List<StatusCause> causes = status.getDetails() == null || status.getDetails().getCauses() == null
                    ? List.of() : status.getDetails().getCauses();
            for (StatusCause cause : causes) {
                if ("ExitCode".equals(cause.getReason())) {
                    try {
                        return Integer.parseInt(String.valueOf(cause.getMessage()).trim());
                    } catch (NumberFormatException e) {
                        throw new ExecException(what + " ended with exit code '" + cause.getMessage()
                                + "', which is not a number", e);
                    }
                }
            }
            throw new ExecException(what + " exited non-zero but its status has no ExitCode cause: "
                    + status.getMessage());
        }
        throw new ExecException(what + " failed: " + status.getMessage()
                + (status.getReason() == null ? "" : " (" + status.getReason() + ")"));
    }
}
