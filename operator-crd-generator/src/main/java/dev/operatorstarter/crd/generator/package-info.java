/**
 * The CRD generator: {@link dev.operatorstarter.crd.generator.CrdGenerator} turns custom resource
 * classes ({@code CustomResource<Spec, Status>} subclasses, records or classes) into a
 * CustomResourceDefinition and deterministic YAML. Plain Java: no Spring, no build plugin (a Maven
 * goal that runs it comes later).
 *
 * <p>Public API: {@link dev.operatorstarter.crd.generator.CrdGenerator} (the entry point),
 * {@link dev.operatorstarter.crd.generator.CrdOptions} (what it adds around the CRD) and
 * {@link dev.operatorstarter.crd.generator.CrdGenerationException}. Everything else is
 * package-private: {@code IntrospectingCrdGenerator} assembles the CRD from the classes'
 * {@code VersionFacts}; {@code TypeSchemas} maps Java types to schemas through Jackson's bean
 * introspection, helped by {@code WellKnownTypes}, {@code SerializerFormat},
 * {@code JakartaConstraints} and {@code KubernetesExtensions}; {@code CrdYaml} writes the YAML.
 *
 * <p>The annotations it reads are in {@code dev.operatorstarter.crd} (module
 * {@code operator-runtime}, so model classes need no dependency on this module); the full mapping
 * is in {@code docs/crds.md}.
 */
@NullMarked
package dev.operatorstarter.crd.generator;

import org.jspecify.annotations.NullMarked;
