package dev.operatorstarter.client.rest;

import io.netty.buffer.AbstractByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.UnpooledHeapByteBuf;

/**
 * The client's Netty allocator: heap buffers unpooled, direct buffers from Netty's default pool.
 *
 * <p>Over TLS the JDK's engine decrypts into heap buffers, so a list response's pages arrive in heap
 * buffers, and a list is held whole until it is decoded. Netty's pooling allocator grows its chunks
 * to hold them (up to 512 KiB each) and keeps them once released, for reuse that never comes: an
 * informer lists once and then watches. That was some 2 MiB of heap retained by every client that
 * had synced an informer, whatever the number of objects. Unpooled, those buffers are ordinary
 * arrays the garbage collector takes back once decoded. Direct buffers (the socket's reads, a few
 * KiB to 64 KiB each) stay pooled: they are small, reused on every read, and freeing them is
 * costlier than freeing an array.
 */
final class UnpooledHeapAllocator extends AbstractByteBufAllocator {

    /** The one instance every client shares: it holds no state of its own. */
    static final UnpooledHeapAllocator INSTANCE = new UnpooledHeapAllocator();

    private final ByteBufAllocator direct = ByteBufAllocator.DEFAULT;

    private UnpooledHeapAllocator() {
        super(true);
    }

    @Override
    protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
        return new UnpooledHeapByteBuf(this, initialCapacity, maxCapacity);
    }

    /** Straight from the pool, which tracks leaks itself: wrapping its buffer again would track each twice. */
    @Override
    public ByteBuf directBuffer(int initialCapacity, int maxCapacity) {
        return direct.directBuffer(initialCapacity, maxCapacity);
    }

    @Override
    protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
        return direct.directBuffer(initialCapacity, maxCapacity);
    }

    @Override
    public boolean isDirectBufferPooled() {
        return direct.isDirectBufferPooled();
    }
}
