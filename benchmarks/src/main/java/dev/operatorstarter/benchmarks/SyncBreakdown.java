package dev.operatorstarter.benchmarks;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

/**
 * What one {@link SyncProfile} run measured, and where its cold sync's CPU went: each JFR
 * execution sample in the cold sync's window is put in the category of the first frame, from the
 * top of its stack, that belongs to one (so a HashMap put inside the transform counts for the
 * transform, and a class loaded while decoding counts as class loading).
 */
record SyncBreakdown(long coldMillis, long warmMillis, long firstByteMillis, long bytesMillis, long bytes,
        long classLoadingMillis, long classesLoaded, Map<Category, Integer> samples, Duration gcPauses,
        Duration compilation) {

    /** Where a sample's time went, tested in this order from the top of its stack. */
    enum Category {
        /*
         * Linkage only: method handles and reflection that merely run (Jackson's property setters,
         * the transform's Field.get) are passed over and count for their caller; spinning a lambda
         * form or an accessor class counts here.
         */
        CLASS_LOADING("class loading and linking (Java side)", "java.lang.ClassLoader.", "jdk.internal.loader.",
                "java.lang.invoke.InvokerBytecodeGenerator", "java.lang.invoke.LambdaForm.", "java.lang.invoke.LambdaFormEditor",
                "java.lang.invoke.MethodHandleNatives.", "java.lang.invoke.InnerClassLambdaMetafactory",
                "java.lang.invoke.ClassSpecializer", "java.lang.invoke.MethodType", "java.lang.invoke.StringConcatFactory",
                "java.lang.invoke.MethodHandles$Lookup", "jdk.internal.classfile.", "jdk.internal.org.objectweb.asm.",
                "java.util.zip.", "java.util.jar.", "jdk.internal.reflect.MethodAccessorGenerator",
                "jdk.internal.reflect.ReflectionFactory", "jdk.internal.reflect.ClassDefiner", "sun.reflect."),
        TRANSFORM("transform (managedFields, compaction)", "dev.operatorstarter.cache.Transforms",
                "dev.operatorstarter.cache.Compaction", "dev.operatorstarter.cache.Interner",
                "dev.operatorstarter.cache.Compact"),
        DECODE("decode (JSON to objects)", "tools.jackson.", "dev.operatorstarter.client.rest.WatchDecoding",
                "io.fabric8.kubernetes.api.model."),
        STORE("queue and indexing", "dev.operatorstarter.cache.DeltaFifo", "dev.operatorstarter.cache.LockingIndexer",
                "dev.operatorstarter.cache.Keys", "dev.operatorstarter.cache.Indexer"),
        DELIVERY("handler delivery", "dev.operatorstarter.cache.Listener", "dev.operatorstarter.cache.SharedIndexInformer"),
        NETWORK("network and TLS", "io.netty.", "reactor.netty.", "sun.security.", "javax.net.ssl.", "sun.nio.",
                "java.security.", "javax.crypto.", "com.sun.crypto."),
        REACTIVE("Reactor and WebClient plumbing", "reactor.core.", "org.springframework."),
        CLIENT_SETUP("client and informer set-up", "dev.operatorstarter."),
        OTHER("other", "");

        private final String title;
        private final String[] prefixes;

        Category(String title, String... prefixes) {
            this.title = title;
            this.prefixes = prefixes;
        }

        String title() {
            return title;
        }

        /** The category of the first frame, from the top, that one claims; frames of no category's are passed over. */
        static Category of(List<String> frames) {
            for (String frame : frames) {
                for (Category category : values()) {
                    if (category == OTHER) {
                        continue;
                    }
                    for (String prefix : category.prefixes) {
                        if (frame.startsWith(prefix)) {
                            return category;
                        }
                    }
                }
            }
            return OTHER;
        }
    }

    /** Reads {@code result} (SyncProfile's RESULT fields) and the recording it wrote. */
    static SyncBreakdown read(String[] result, Path recording) throws IOException {
        long[] numbers = new long[result.length];
        for (int i = 0; i < result.length; i++) {
            numbers[i] = Long.parseLong(result[i]);
        }
        Instant coldStart = instant(numbers[7]);
        Instant coldEnd = instant(numbers[8]);
        Map<Category, Integer> samples = new EnumMap<>(Category.class);
        Duration gc = Duration.ZERO;
        Duration compilation = Duration.ZERO;
        for (RecordedEvent event : RecordingFile.readAllEvents(recording)) {
            if (event.getStartTime().isBefore(coldStart) || event.getStartTime().isAfter(coldEnd)) {
                continue;
            }
            switch (event.getEventType().getName()) {
                case "jdk.ExecutionSample" -> samples.merge(Category.of(frames(event.getStackTrace())), 1, Integer::sum);
                case "jdk.GarbageCollection" -> gc = gc.plus(event.getDuration("sumOfPauses"));
                case "jdk.Compilation" -> compilation = compilation.plus(event.getDuration());
                default -> {
                    // not counted
                }
            }
        }
        return new SyncBreakdown(numbers[0], numbers[1], numbers[2], numbers[3], numbers[4], numbers[5], numbers[6],
                samples, gc, compilation);
    }

    private static Instant instant(long micros) {
        return Instant.ofEpochSecond(micros / 1_000_000, (micros % 1_000_000) * 1_000);
    }

    private static List<String> frames(RecordedStackTrace stack) {
        if (stack == null) {
            return List.of();
        }
        return stack.getFrames().stream().map(SyncBreakdown::name).toList();
    }

    private static String name(RecordedFrame frame) {
        return frame.getMethod().getType().getName() + "." + frame.getMethod().getName();
    }

    int totalSamples() {
        return samples.values().stream().mapToInt(Integer::intValue).sum();
    }

    /** The share of the cold sync's samples in {@code category}, in percent. */
    double percent(Category category) {
        int total = totalSamples();
        return total == 0 ? 0 : 100.0 * samples.getOrDefault(category, 0) / total;
    }
}
