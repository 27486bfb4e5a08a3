/**
 * Annotations that a custom resource class and its spec and status types carry for the CRD
 * generator ({@code operator-crd-generator}, {@code dev.operatorstarter.crd.generator}), which
 * turns the classes into a CustomResourceDefinition. Annotations only: nothing here runs, and the
 * runtime itself never reads them. See {@code docs/crds.md} for the whole mapping.
 *
 * <p>What comes from elsewhere: group, version (served, storage, deprecation), kind, plural,
 * singular and short names from fabric8's {@code io.fabric8.kubernetes.model.annotation}
 * annotations; the scope from {@code Namespaced}; property names, descriptions
 * ({@code @JsonPropertyDescription}, {@code @JsonClassDescription}) and required properties
 * ({@code @JsonProperty(required = true)}) from Jackson; bounds, sizes, patterns and more required
 * properties from Jakarta Validation ({@code @Min}, {@code @Size}, {@code @Pattern},
 * {@code @NotNull}...).
 *
 * <p>What these add, each documented with the schema it produces:
 * <ul>
 *   <li>on the custom resource class: {@link dev.operatorstarter.crd.Categories},
 *       {@link dev.operatorstarter.crd.PrinterColumn} (repeatable),
 *       {@link dev.operatorstarter.crd.ScaleSubresource};</li>
 *   <li>on a property: {@link dev.operatorstarter.crd.Default},
 *       {@link dev.operatorstarter.crd.NullAllowed}, {@link dev.operatorstarter.crd.ListType},
 *       {@link dev.operatorstarter.crd.ListMapKeys}, {@link dev.operatorstarter.crd.MapType},
 *       {@link dev.operatorstarter.crd.EmbeddedResource};</li>
 *   <li>on a property or a class: {@link dev.operatorstarter.crd.ValidationRule} (CEL,
 *       repeatable), {@link dev.operatorstarter.crd.PreserveUnknownFields},
 *       {@link dev.operatorstarter.crd.SchemaFrom}.</li>
 * </ul>
 *
 * <p>A property annotation may sit wherever Jackson finds the property: a record component, a
 * field, a getter, a setter or a creator parameter. All are retained at run time.
 */
package dev.operatorstarter.crd;
