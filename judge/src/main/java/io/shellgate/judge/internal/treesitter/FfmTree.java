package io.shellgate.judge.internal.treesitter;

import static io.shellgate.judge.internal.treesitter.TreeSitterNative.NODE;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;

/**
 * A parsed tree reached through {@link TreeSitterNative}. Node structs are carved out of chunks of
 * one confined arena, so walking allocates no Java heap per node and closing frees everything.
 */
final class FfmTree implements AutoCloseable {

    private static final long CHUNK = 32 * 1024;

    private final Arena arena;
    private final MemorySegment tree;
    private final SegmentAllocator allocator;

    FfmTree(Arena arena, MemorySegment tree) {
        this.arena = arena;
        this.tree = tree;
        this.allocator = new ChunkAllocator(arena);
    }

    CstNode root() {
        try {
            return new Node((MemorySegment) TreeSitterNative.TREE_ROOT_NODE.invokeExact(allocator, tree));
        } catch (Throwable t) {
            throw new IllegalStateException("tree-sitter: cannot read the root node", t);
        }
    }

    @Override
    public void close() {
        try {
            TreeSitterNative.TREE_DELETE.invokeExact(tree);
        } catch (Throwable t) {
            throw new IllegalStateException("tree-sitter: cannot free a tree", t);
        } finally {
            arena.close();
        }
    }

    /** Slices allocations out of 32 KiB chunks; larger requests get their own segment. */
    private static final class ChunkAllocator implements SegmentAllocator {
        private final Arena arena;
        private MemorySegment chunk;
        private long used;

        ChunkAllocator(Arena arena) {
            this.arena = arena;
        }

        @Override
        public MemorySegment allocate(long size, long alignment) {
            long offset = chunk == null ? 0 : (used + alignment - 1) & -alignment;
            if (chunk == null || offset + size > chunk.byteSize()) {
                if (size > CHUNK / 4) {
                    return arena.allocate(size, alignment);
                }
                chunk = arena.allocate(CHUNK, 16);
                offset = 0;
            }
            used = offset + size;
            return chunk.asSlice(offset, size);
        }
    }

    private final class Node implements CstNode {
        private final MemorySegment node;
        private int childCount = -1;

        Node(MemorySegment node) {
            this.node = node;
        }

        @Override
        public String type() {
            int symbol = symbol();
            // ts_builtin_sym_error is (TSSymbol) -1, outside the grammar's symbol table
            return symbol < TreeSitterNative.SYMBOL_NAMES.length ? TreeSitterNative.SYMBOL_NAMES[symbol] : "ERROR";
        }

        @Override
        public boolean isNamed() {
            int symbol = symbol();
            return symbol >= TreeSitterNative.SYMBOL_NAMED.length || TreeSitterNative.SYMBOL_NAMED[symbol];
        }

        private int symbol() {
            try {
                return Short.toUnsignedInt((short) TreeSitterNative.NODE_SYMBOL.invokeExact(node));
            } catch (Throwable t) {
                throw new IllegalStateException(t);
            }
        }

        @Override
        public boolean isError() {
            try {
                return (boolean) TreeSitterNative.NODE_IS_ERROR.invokeExact(node);
            } catch (Throwable t) {
                throw new IllegalStateException(t);
            }
        }

        @Override
        public boolean isMissing() {
            try {
                return (boolean) TreeSitterNative.NODE_IS_MISSING.invokeExact(node);
            } catch (Throwable t) {
                throw new IllegalStateException(t);
            }
        }

        @Override
        public boolean hasError() {
            try {
                return (boolean) TreeSitterNative.NODE_HAS_ERROR.invokeExact(node);
            } catch (Throwable t) {
                throw new IllegalStateException(t);
            }
        }

        @Override
        public int start() {
            try {
                // UTF-16 input: byte offsets are twice the character index
                return ((int) TreeSitterNative.NODE_START_BYTE.invokeExact(node)) >>> 1;
            } catch (Throwable t) {
                throw new IllegalStateException(t);
            }
        }

        @Override
        public int end() {
            try {
                return ((int) TreeSitterNative.NODE_END_BYTE.invokeExact(node)) >>> 1;
            } catch (Throwable t) {
                throw new IllegalStateException(t);
            }
        }

        @Override
        public int childCount() {
            if (childCount < 0) {
                try {
                    childCount = (int) TreeSitterNative.NODE_CHILD_COUNT.invokeExact(node);
                } catch (Throwable t) {
                    throw new IllegalStateException(t);
                }
            }
            return childCount;
        }

        @Override
        public CstNode child(int index) {
            try {
                return new Node((MemorySegment) TreeSitterNative.NODE_CHILD.invokeExact(allocator, node, index));
            } catch (Throwable t) {
                throw new IllegalStateException(t);
            }
        }

        @Override
        public String fieldName(int index) {
            try {
                MemorySegment name = (MemorySegment) TreeSitterNative.NODE_FIELD_NAME_FOR_CHILD.invokeExact(node, index);
                return FieldNames.of(name);
            } catch (Throwable t) {
                throw new IllegalStateException(t);
            }
        }
    }

    static {
        // the node struct must match what the native library returns
        assert NODE.byteSize() == 32;
    }
}
