package io.shellgate.judge.internal.treesitter;

import io.github.treesitter.jtreesitter.InputEncoding;
import io.github.treesitter.jtreesitter.Language;
import io.github.treesitter.jtreesitter.Node;
import io.github.treesitter.jtreesitter.Parser;
import io.github.treesitter.jtreesitter.Tree;
import io.shellgate.judge.internal.syntax.Script;
import io.shellgate.judge.internal.syntax.ShellParser;
import java.lang.foreign.Arena;
import java.lang.foreign.SymbolLookup;

/**
 * Parses through jtreesitter, tree-sitter's official Java binding. It is the reference the fast
 * {@link TreeSitterBashParser} is compared against, and what {@code explain} uses to show the
 * parse tree. It has no time budget: use it only on text the fast parser has already accepted.
 */
public final class JtreesitterBashParser implements ShellParser {

    private static final Language BASH = Language.load(
            SymbolLookup.libraryLookup(NativeLibraries.bash(), Arena.global()), "tree_sitter_bash");

    private final ThreadLocal<Parser> parsers = ThreadLocal.withInitial(() -> new Parser(BASH));

    @Override
    public Script parse(String text, Limits limits) {
        try (Tree tree = parsers.get().parse(text, InputEncoding.UTF_16LE).orElseThrow()) {
            return new CstConverter(text).convert(new JtsNode(tree.getRootNode()));
        }
    }

    /** The tree as an S-expression, for people reading {@code explain} output. */
    public String sexp(String text) {
        try (Tree tree = parsers.get().parse(text, InputEncoding.UTF_16LE).orElseThrow()) {
            return tree.getRootNode().toSexp();
        }
    }

    /** jtreesitter reports byte offsets of the UTF-16 text: halve them. */
    private record JtsNode(Node node) implements CstNode {

        @Override
        public String type() {
            return node.getType();
        }

        @Override
        public boolean isNamed() {
            return node.isNamed();
        }

        @Override
        public boolean isError() {
            return node.isError();
        }

        @Override
        public boolean isMissing() {
            return node.isMissing();
        }

        @Override
        public boolean hasError() {
            return node.hasError();
        }

        @Override
        public int start() {
            return node.getStartByte() >>> 1;
        }

        @Override
        public int end() {
            return node.getEndByte() >>> 1;
        }

        @Override
        public int childCount() {
            return node.getChildCount();
        }

        @Override
        public CstNode child(int index) {
            return new JtsNode(node.getChild(index).orElseThrow());
        }

        @Override
        public String fieldName(int index) {
            return node.getFieldNameForChild(index);
        }
    }
}
