package io.shellgate.judge.internal.treesitter;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.ConcurrentHashMap;

/** Field names are static strings of the grammar: each address is read once. */
final class FieldNames {

    private static final ConcurrentHashMap<Long, String> NAMES = new ConcurrentHashMap<>();

    private FieldNames() {}

    static String of(MemorySegment name) {
        long address = name.address();
        if (address == 0) {
            return null;
        }
        return NAMES.computeIfAbsent(address, a -> name.reinterpret(256).getString(0));
    }
}
