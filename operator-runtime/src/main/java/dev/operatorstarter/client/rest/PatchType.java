package dev.operatorstarter.client.rest;

/** The patch formats the API server accepts, with their content types. */
public enum PatchType {
    /** RFC 6902 JSON Patch: a list of operations. */
    JSON("application/json-patch+json"),
    /** RFC 7386 JSON Merge Patch: lists are replaced whole. */
    MERGE("application/merge-patch+json"),
    /** Kubernetes strategic merge patch: lists merge by key; built-in types only, not CRDs. */
    STRATEGIC_MERGE("application/strategic-merge-patch+json"),
    /** Server-side apply: needs a field manager (see {@link PatchOptions}). */
    APPLY("application/apply-patch+yaml");

    private final String contentType;

    PatchType(String contentType) {
        this.contentType = contentType;
    }

    public String contentType() {
        return contentType;
    }
}
