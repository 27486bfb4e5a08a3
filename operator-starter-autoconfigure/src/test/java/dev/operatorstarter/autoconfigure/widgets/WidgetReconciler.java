package dev.operatorstarter.autoconfigure.widgets;

import dev.operatorstarter.autoconfigure.Reconciler;
import dev.operatorstarter.autoconfigure.Widget;
import dev.operatorstarter.cache.Lister;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.rest.PatchType;
import dev.operatorstarter.controller.Cleaner;
import dev.operatorstarter.controller.OwnerReferences;
import dev.operatorstarter.controller.ReconcileHandler;
import dev.operatorstarter.controller.ReconcileRequest;
import dev.operatorstarter.controller.ReconcileResult;
import dev.operatorstarter.controller.Writes;
import dev.operatorstarter.event.EventRecorder;
import dev.operatorstarter.event.EventType;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Keeps a ConfigMap {@code <widget>-colour} holding the Widget's colour (and whether a Secret of
 * the same name exists), sets the Widget's status, records an Event, and, through a finalizer,
 * notes each deleted Widget before it goes.
 */
@Reconciler(owns = ConfigMap.class, watches = SecretsToWidgets.class, finalizer = WidgetReconciler.FINALIZER,
        generationChanged = true)
public class WidgetReconciler implements ReconcileHandler<Widget>, Cleaner<Widget> {

    public static final String FINALIZER = "starter.operatorstarter.dev/cleanup";

    private final Lister<Widget> widgets;
    private final Lister<Secret> secrets;
    private final KubernetesClient client;
    private final EventRecorder events;
    /** namespace/name of every Widget cleaned up, in order. */
    public final List<String> cleaned = new CopyOnWriteArrayList<>();

    public WidgetReconciler(Lister<Widget> widgets, Lister<Secret> secrets, KubernetesClient client,
            EventRecorder events) {
        this.widgets = widgets;
        this.secrets = secrets;
        this.client = client;
        this.events = events;
    }

    @Override
    public ReconcileResult reconcile(ReconcileRequest request) {
        Optional<Widget> found = widgets.namespace(request.namespace()).get(request.name());
        if (found.isEmpty()) {
            return ReconcileResult.done();
        }
        Widget widget = found.get();
        String colour = String.valueOf(widget.getSpec().get("colour"));
        boolean tinted = secrets.namespace(request.namespace()).get(request.name()).isPresent();
        ConfigMap desired = new ConfigMapBuilder().withNewMetadata().withNamespace(request.namespace())
                .withName(request.name() + "-colour").endMetadata()
                .addToData("colour", colour).addToData("tinted", String.valueOf(tinted)).build();
        OwnerReferences.setController(widget, desired);
        Writes.createOrPatch(client.coreV1().configMaps().inNamespace(request.namespace()), desired, "widget-operator");
        client.resources(Widget.class).inNamespace(request.namespace()).patchStatus(request.name(), PatchType.MERGE,
                Map.of("status", Map.of("observedGeneration", widget.getMetadata().getGeneration(), "phase", "Ready")),
                dev.operatorstarter.client.PatchOptions.none());
        events.event(widget, EventType.NORMAL, "Reconciled", "Reconcile", "colour " + colour);
        return ReconcileResult.done();
    }

    @Override
    public void cleanup(Widget widget) {
        cleaned.add(widget.getMetadata().getNamespace() + "/" + widget.getMetadata().getName());
    }
}
