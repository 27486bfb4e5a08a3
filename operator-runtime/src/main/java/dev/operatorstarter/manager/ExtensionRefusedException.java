package dev.operatorstarter.manager;

/**
 * A {@link ControllerExtension} refused the controller a {@link ManagedControllerBuilder} was
 * building (the sharding refuses a controller that owns and watches one resource, say); the
 * message names the controller, and the cause is the extension's own refusal.
 */
public final class ExtensionRefusedException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    ExtensionRefusedException(String controller, IllegalArgumentException refusal) {
        super("controller " + controller + " cannot be extended: " + refusal.getMessage(), refusal);
    }
}
