package io.shellgate.judge.internal.treesitter;

import io.github.treesitter.jtreesitter.NativeLibraryLookup;
import java.lang.foreign.Arena;
import java.lang.foreign.SymbolLookup;

/** Hands jtreesitter the tree-sitter runtime that came from Maven Central (a service provider). */
public final class RuntimeLibraryLookup implements NativeLibraryLookup {

    @Override
    public SymbolLookup get(Arena arena) {
        return SymbolLookup.libraryLookup(NativeLibraries.runtime(), arena);
    }
}
