package io.shellgate.judge.internal.treesitter;

/**
 * A node of tree-sitter's concrete syntax tree, whichever binding produced it. Offsets are UTF-16
 * code unit indices into the parsed text.
 */
interface CstNode {

    String type();

    boolean isNamed();

    boolean isError();

    boolean isMissing();

    /** Whether this node or a descendant is an error or a missing node. */
    boolean hasError();

    int start();

    int end();

    int childCount();

    CstNode child(int index);

    /** The field name of child {@code index} ({@code name}, {@code argument}...), or null. */
    String fieldName(int index);
}
