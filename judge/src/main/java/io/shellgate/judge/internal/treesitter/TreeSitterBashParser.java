package io.shellgate.judge.internal.treesitter;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BOOLEAN;
import static java.lang.foreign.ValueLayout.JAVA_CHAR_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.shellgate.judge.internal.syntax.Script;
import io.shellgate.judge.internal.syntax.ShellParser;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodType;
import java.nio.ByteOrder;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Parses bash, zsh and sh command lines with tree-sitter-bash through direct FFM calls.
 *
 * <p>The text is handed to tree-sitter as UTF-16, so node offsets map straight to Java string
 * indices. A progress callback abandons a parse that runs past its time budget. Native parsers are
 * pooled: a parser is used by one thread at a time.
 */
public final class TreeSitterBashParser implements ShellParser {

    /**
     * Payload layout: text address, text length in bytes, deadline in nanoTime units, progress
     * calls so far, progress calls allowed. tree-sitter calls the progress callback once every
     * hundred parser operations, so the count measures work the same way on any machine.
     */
    private static final long PAYLOAD_SIZE = 40;
    private static final MemorySegment READ = TreeSitterNative.upcall(TreeSitterBashParser.class, "read",
            MethodType.methodType(MemorySegment.class, MemorySegment.class, int.class, MemorySegment.class, MemorySegment.class),
            FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_INT, TreeSitterNative.POINT, ADDRESS));
    private static final MemorySegment PROGRESS = TreeSitterNative.upcall(TreeSitterBashParser.class, "progress",
            MethodType.methodType(boolean.class, MemorySegment.class),
            FunctionDescriptor.of(JAVA_BOOLEAN, ADDRESS));

    private final ConcurrentLinkedQueue<MemorySegment> parsers = new ConcurrentLinkedQueue<>();

    @Override
    public Script parse(String text, Limits limits) {
        MemorySegment parser = acquire();
        boolean healthy = false;
        Arena arena = Arena.ofConfined();
        try {
            long bytes = (long) text.length() * 2;
            MemorySegment source = arena.allocate(Math.max(bytes, 2), 2);
            MemorySegment.copy(text.toCharArray(), 0, source, JAVA_CHAR_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), 0, text.length());
            MemorySegment payload = arena.allocate(PAYLOAD_SIZE, 8);
            payload.set(ADDRESS, 0, source);
            payload.set(JAVA_LONG, 8, bytes);
            payload.set(JAVA_LONG, 16, limits.deadlineNanos());
            payload.set(JAVA_LONG, 24, 0L);
            payload.set(JAVA_LONG, 32, limits.maxSteps());
            MemorySegment input = arena.allocate(TreeSitterNative.INPUT);
            input.set(ADDRESS, 0, payload);
            input.set(ADDRESS, 8, READ);
            input.set(JAVA_INT, 16, TreeSitterNative.ENCODING_UTF16LE);
            input.set(ADDRESS, 24, MemorySegment.NULL);
            MemorySegment options = arena.allocate(TreeSitterNative.PARSE_OPTIONS);
            options.set(ADDRESS, 0, payload);
            options.set(ADDRESS, 8, PROGRESS);
            MemorySegment tree = (MemorySegment) TreeSitterNative.PARSER_PARSE_WITH_OPTIONS.invokeExact(
                    parser, MemorySegment.NULL, input, options);
            if (tree.equals(MemorySegment.NULL)) {
                TreeSitterNative.PARSER_RESET.invokeExact(parser);
                healthy = true;
                throw new ParseBudgetException(payload.get(JAVA_LONG, 24) > limits.maxSteps()
                        ? "parsing needs more than " + limits.maxSteps() + " hundred parser steps"
                        : "parsing took longer than the time guard");
            }
            healthy = true;
            try (FfmTree parsed = new FfmTree(arena, tree)) {
                arena = null;
                return new CstConverter(text).convert(parsed.root());
            }
        } catch (ParseBudgetException | StackOverflowError e) {
            // a tree too deep to convert is the judge's "nested too deeply", not a parser failure
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("tree-sitter failed to parse: " + t, t);
        } finally {
            if (arena != null) {
                arena.close();
            }
            if (healthy) {
                parsers.offer(parser);
            }
        }
    }

    private MemorySegment acquire() {
        MemorySegment parser = parsers.poll();
        if (parser != null) {
            return parser;
        }
        try {
            parser = (MemorySegment) TreeSitterNative.PARSER_NEW.invokeExact();
            if (!(boolean) TreeSitterNative.PARSER_SET_LANGUAGE.invokeExact(parser, TreeSitterNative.LANGUAGE)) {
                throw new IllegalStateException("tree-sitter refused the bash grammar (ABI " + TreeSitterNative.ABI_VERSION + ")");
            }
            return parser;
        } catch (RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** tree-sitter's read callback: the rest of the text from {@code byteIndex}. */
    static MemorySegment read(MemorySegment payload, int byteIndex, MemorySegment point, MemorySegment bytesRead) {
        MemorySegment p = payload.reinterpret(PAYLOAD_SIZE);
        MemorySegment source = p.get(ADDRESS, 0);
        long length = p.get(JAVA_LONG, 8);
        long index = Integer.toUnsignedLong(byteIndex);
        MemorySegment count = bytesRead.reinterpret(4);
        if (index >= length) {
            count.set(JAVA_INT, 0, 0);
            return MemorySegment.ofAddress(source.address() + length);
        }
        count.set(JAVA_INT, 0, (int) (length - index));
        return MemorySegment.ofAddress(source.address() + index);
    }

    /** tree-sitter's progress callback: true stops the parse. */
    static boolean progress(MemorySegment state) {
        MemorySegment payload = state.reinterpret(16).get(ADDRESS, 0).reinterpret(PAYLOAD_SIZE);
        long calls = payload.get(JAVA_LONG, 24) + 1;
        payload.set(JAVA_LONG, 24, calls);
        return calls > payload.get(JAVA_LONG, 32) || System.nanoTime() - payload.get(JAVA_LONG, 16) > 0;
    }
}
