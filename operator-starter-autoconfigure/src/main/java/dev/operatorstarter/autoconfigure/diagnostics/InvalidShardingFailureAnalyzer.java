package dev.operatorstarter.autoconfigure.diagnostics;

import dev.operatorstarter.autoconfigure.InvalidShardingException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Sharding settings that cannot work: names the property or controller, and the fix. */
final class InvalidShardingFailureAnalyzer extends AbstractFailureAnalyzer<InvalidShardingException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, InvalidShardingException cause) {
        return new FailureAnalysis("The operator's sharding (operator.sharding.enabled=true) cannot start: "
                + cause.getMessage() + ".", cause.fix() + " (docs/sharding.md), or set operator.sharding.enabled=false.",
                cause);
    }
}
