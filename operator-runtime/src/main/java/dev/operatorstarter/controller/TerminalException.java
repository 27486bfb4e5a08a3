package dev.operatorstarter.controller;

/**
 * A failure that retrying cannot fix (invalid spec, missing permission that needs a human): the
 * controller records it, counts it in {@code controller_runtime_terminal_reconcile_errors_total},
 * and does not retry until the object changes again. It is terminal wherever it is in the thrown
 * exception's cause chain: thrown directly, or wrapped by {@code CompletableFuture.join()}
 * ({@code CompletionException}), {@code Future.get()} ({@code ExecutionException}) or the
 * caller's own exception.
 */
public class TerminalException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public TerminalException(String message) {
        super(message);
    }

    public TerminalException(String message, Throwable cause) {
        super(message, cause);
    }
}
