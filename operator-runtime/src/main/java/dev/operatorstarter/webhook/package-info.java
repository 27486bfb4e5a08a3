/**
 * Admission and conversion webhooks as plain functions, without a server: a review in, a review
 * out.
 *
 * <ul>
 *   <li>Admission: a {@link dev.operatorstarter.webhook.ValidatingHandler} returns an
 *       {@link dev.operatorstarter.webhook.AdmissionVerdict}; a
 *       {@link dev.operatorstarter.webhook.MutatingHandler} returns the object as it should be
 *       stored ({@link dev.operatorstarter.webhook.Mutation}) and the runtime answers with the
 *       {@link dev.operatorstarter.webhook.JsonPatch} from the object as sent. Both see an
 *       {@link dev.operatorstarter.webhook.Admission} with the object decoded into their class.
 *       {@link dev.operatorstarter.webhook.AdmissionEndpoint} turns either into the function from
 *       an {@code AdmissionReview} to its answer.</li>
 *   <li>Conversion: {@link dev.operatorstarter.webhook.Converter}s between two versions of a
 *       kind, gathered (with an optional hub version) into a
 *       {@link dev.operatorstarter.webhook.ConversionEndpoint} that answers a
 *       {@code ConversionReview}.</li>
 * </ul>
 *
 * <p>Both endpoints are {@link dev.operatorstarter.webhook.WebhookEndpoint}s: JSON bytes in, JSON
 * bytes out, never an exception. Serving them over TLS, certificates and the webhook
 * configurations are the Spring Boot starter's part ({@code operator.webhook.*}); this package
 * uses only the JSON mapper of {@code internal}.
 */
@NullMarked
package dev.operatorstarter.webhook;

import org.jspecify.annotations.NullMarked;
