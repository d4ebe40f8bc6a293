package io.shellgate.judge.internal.treesitter;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BOOLEAN;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * Direct bindings to the few functions of tree-sitter's C API that parsing and walking need.
 *
 * <p>jtreesitter's {@code Parser.parse} opens and closes two shared arenas per call; closing a
 * shared arena is a thread handshake that costs about 70 µs here, more than the parse itself.
 * The judge's hot path therefore calls the C API through these handles with a confined arena per
 * parse, and jtreesitter stays the reference binding ({@link JtreesitterBashParser}) that a test
 * compares against on every corpus line.
 */
final class TreeSitterNative {

    /** {@code TSNode}: {@code uint32_t context[4]; const void *id; const TSTree *tree;}. */
    static final StructLayout NODE = MemoryLayout.structLayout(
            MemoryLayout.sequenceLayout(4, JAVA_INT).withName("context"), ADDRESS.withName("id"), ADDRESS.withName("tree"));
    static final StructLayout POINT = MemoryLayout.structLayout(JAVA_INT.withName("row"), JAVA_INT.withName("column"));
    /** {@code TSInput}: payload, read callback, encoding, decode callback. */
    static final StructLayout INPUT = MemoryLayout.structLayout(
            ADDRESS.withName("payload"), ADDRESS.withName("read"), JAVA_INT.withName("encoding"),
            MemoryLayout.paddingLayout(4), ADDRESS.withName("decode"));
    /** {@code TSParseOptions}: payload, progress callback. */
    static final StructLayout PARSE_OPTIONS = MemoryLayout.structLayout(ADDRESS.withName("payload"), ADDRESS.withName("progress"));
    static final int ENCODING_UTF16LE = 1;

    static final MethodHandle PARSER_NEW;
    static final MethodHandle PARSER_SET_LANGUAGE;
    static final MethodHandle PARSER_PARSE_WITH_OPTIONS;
    static final MethodHandle PARSER_RESET;
    static final MethodHandle TREE_DELETE;
    static final MethodHandle TREE_ROOT_NODE;
    static final MethodHandle NODE_CHILD_COUNT;
    static final MethodHandle NODE_CHILD;
    static final MethodHandle NODE_SYMBOL;
    static final MethodHandle NODE_START_BYTE;
    static final MethodHandle NODE_END_BYTE;
    static final MethodHandle NODE_IS_ERROR;
    static final MethodHandle NODE_IS_MISSING;
    static final MethodHandle NODE_HAS_ERROR;
    static final MethodHandle NODE_FIELD_NAME_FOR_CHILD;
    static final MemorySegment LANGUAGE;
    static final String[] SYMBOL_NAMES;
    static final boolean[] SYMBOL_NAMED;
    static final int ABI_VERSION;

    static {
        Linker linker = Linker.nativeLinker();
        SymbolLookup runtime = SymbolLookup.libraryLookup(NativeLibraries.runtime(), Arena.global());
        SymbolLookup grammar = SymbolLookup.libraryLookup(NativeLibraries.bash(), Arena.global());
        PARSER_NEW = handle(linker, runtime, "ts_parser_new", FunctionDescriptor.of(ADDRESS));
        PARSER_SET_LANGUAGE = handle(linker, runtime, "ts_parser_set_language", FunctionDescriptor.of(JAVA_BOOLEAN, ADDRESS, ADDRESS));
        PARSER_PARSE_WITH_OPTIONS = handle(linker, runtime, "ts_parser_parse_with_options",
                FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS, INPUT, PARSE_OPTIONS));
        PARSER_RESET = handle(linker, runtime, "ts_parser_reset", FunctionDescriptor.ofVoid(ADDRESS));
        TREE_DELETE = handle(linker, runtime, "ts_tree_delete", FunctionDescriptor.ofVoid(ADDRESS));
        TREE_ROOT_NODE = handle(linker, runtime, "ts_tree_root_node", FunctionDescriptor.of(NODE, ADDRESS));
        NODE_CHILD_COUNT = handle(linker, runtime, "ts_node_child_count", FunctionDescriptor.of(JAVA_INT, NODE));
        NODE_CHILD = handle(linker, runtime, "ts_node_child", FunctionDescriptor.of(NODE, NODE, JAVA_INT));
        NODE_SYMBOL = handle(linker, runtime, "ts_node_symbol", FunctionDescriptor.of(JAVA_SHORT, NODE));
        NODE_START_BYTE = handle(linker, runtime, "ts_node_start_byte", FunctionDescriptor.of(JAVA_INT, NODE));
        NODE_END_BYTE = handle(linker, runtime, "ts_node_end_byte", FunctionDescriptor.of(JAVA_INT, NODE));
        NODE_IS_ERROR = handle(linker, runtime, "ts_node_is_error", FunctionDescriptor.of(JAVA_BOOLEAN, NODE));
        NODE_IS_MISSING = handle(linker, runtime, "ts_node_is_missing", FunctionDescriptor.of(JAVA_BOOLEAN, NODE));
        NODE_HAS_ERROR = handle(linker, runtime, "ts_node_has_error", FunctionDescriptor.of(JAVA_BOOLEAN, NODE));
        NODE_FIELD_NAME_FOR_CHILD = handle(linker, runtime, "ts_node_field_name_for_child",
                FunctionDescriptor.of(ADDRESS, NODE, JAVA_INT));
        MethodHandle symbolCount = handle(linker, runtime, "ts_language_symbol_count", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        MethodHandle symbolName = handle(linker, runtime, "ts_language_symbol_name", FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_SHORT));
        MethodHandle symbolType = handle(linker, runtime, "ts_language_symbol_type", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_SHORT));
        MethodHandle abi = handle(linker, runtime, "ts_language_abi_version", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        MethodHandle bash = handle(linker, grammar, "tree_sitter_bash", FunctionDescriptor.of(ADDRESS));
        try {
            LANGUAGE = (MemorySegment) bash.invokeExact();
            ABI_VERSION = (int) abi.invokeExact(LANGUAGE);
            int count = (int) symbolCount.invokeExact(LANGUAGE);
            SYMBOL_NAMES = new String[count];
            SYMBOL_NAMED = new boolean[count];
            for (int i = 0; i < count; i++) {
                MemorySegment name = (MemorySegment) symbolName.invokeExact(LANGUAGE, (short) i);
                SYMBOL_NAMES[i] = name.equals(MemorySegment.NULL) ? "" : name.reinterpret(4096).getString(0);
                SYMBOL_NAMED[i] = (int) symbolType.invokeExact(LANGUAGE, (short) i) == 0;
            }
        } catch (Throwable t) {
            throw new ExceptionInInitializerError(t);
        }
    }

    private TreeSitterNative() {}

    private static MethodHandle handle(Linker linker, SymbolLookup lookup, String name, FunctionDescriptor descriptor) {
        MemorySegment symbol = lookup.find(name)
                .orElseThrow(() -> new IllegalStateException("tree-sitter library has no symbol " + name));
        return linker.downcallHandle(symbol, descriptor);
    }

    /** An upcall stub for a static method of {@code owner}, alive for the whole JVM. */
    static MemorySegment upcall(Class<?> owner, String method, MethodType type, FunctionDescriptor descriptor) {
        try {
            MethodHandle target = MethodHandles.lookup().findStatic(owner, method, type);
            return Linker.nativeLinker().upcallStub(target, descriptor, Arena.global());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }
}
