package dev.operatorstarter.client.rest;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import org.junit.jupiter.api.Test;

class UnpooledHeapAllocatorTest {

    private final UnpooledHeapAllocator allocator = UnpooledHeapAllocator.INSTANCE;

    @Test
    void heapBuffersArePlainArraysOfItsOwnThatNoPoolKeeps() {
        ByteBuf buffer = allocator.heapBuffer(512 * 1024);
        try {
            assertThat(buffer.isDirect()).isFalse();
            assertThat(buffer.hasArray()).isTrue();
            assertThat(buffer.array()).hasSize(512 * 1024); // the whole array is this buffer's, not a slice of a chunk
            assertThat(buffer.arrayOffset()).isZero();
            assertThat(buffer.alloc()).isSameAs(allocator);
        } finally {
            assertThat(buffer.release()).isTrue();
        }
    }

    @Test
    void aHeapBufferGrowsLikeAnyOther() {
        ByteBuf buffer = allocator.heapBuffer(4);
        try {
            buffer.writeBytes(new byte[100]);
            assertThat(buffer.readableBytes()).isEqualTo(100);
            assertThat(buffer.isDirect()).isFalse();
        } finally {
            buffer.release();
        }
    }

    @Test
    void directBuffersAndSocketReadsComeFromNettysPool() {
        ByteBuf direct = allocator.directBuffer(1024);
        ByteBuf io = allocator.ioBuffer(1024);
        try {
            assertThat(direct.isDirect()).isTrue();
            assertThat(io.isDirect()).isTrue();
            assertThat(direct.alloc()).isSameAs(ByteBufAllocator.DEFAULT);
            assertThat(allocator.isDirectBufferPooled()).isEqualTo(ByteBufAllocator.DEFAULT.isDirectBufferPooled());
        } finally {
            direct.release();
            io.release();
        }
    }
}
