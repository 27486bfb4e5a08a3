package dev.operatorstarter.manager;

import dev.operatorstarter.cache.SharedInformerFactory;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** The manager's extension points, as plugins see them while it is built. */
final class PluginExtensions implements ManagerPlugin.Extensions {

    private final SharedInformerFactory informers;
    private final boolean electsLeader;
    private final Map<RunnableGroup, Runnables> groups;
    @Nullable MemberTerms memberTerms;

    PluginExtensions(SharedInformerFactory informers, boolean electsLeader, Map<RunnableGroup, Runnables> groups) {
        this.informers = informers;
        this.electsLeader = electsLeader;
        this.groups = groups;
    }

    @Override
    public SharedInformerFactory informers() {
        return informers;
    }

    @Override
    public boolean electsLeader() {
        return electsLeader;
    }

    @Override
    public void add(ManagedRunnable runnable, RunnableGroup group) {
        groups.get(group).add(Objects.requireNonNull(runnable, "runnable"));
    }

    @Override
    public void memberTerms(MemberTerms terms) {
        if (memberTerms != null) {
            throw new IllegalStateException("another plugin gives the member terms already");
        }
        memberTerms = Objects.requireNonNull(terms, "terms");
    }
}
