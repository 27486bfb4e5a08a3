package dev.operatorstarter.cache;

/**
 * An {@link IndexFunction} threw (or returned null) for an object, so the {@link Indexer} could
 * not index it. The store is left exactly as it was before the call that failed; the cause is the
 * function's own exception.
 */
public final class IndexFunctionException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String indexName;
    private final String key;

    IndexFunctionException(String indexName, String key, Throwable cause) {
        super("index " + indexName + " could not compute the values of " + key + ": " + describe(cause), cause);
        this.indexName = indexName;
        this.key = key;
    }

    /** The index whose function failed. */
    public String indexName() {
        return indexName;
    }

    /** The cache key of the object it failed on. */
    public String key() {
        return key;
    }

    private static String describe(Throwable cause) {
        return cause.getMessage() != null ? cause.getMessage() : cause.getClass().getSimpleName();
    }
}
