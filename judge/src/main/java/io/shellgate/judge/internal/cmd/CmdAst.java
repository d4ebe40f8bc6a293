package io.shellgate.judge.internal.cmd;

import io.shellgate.judge.Span;
import java.util.List;

/** What a cmd line is made of. */
final class CmdAst {

    private CmdAst() {}

    sealed interface Node permits Simple, Pipeline, Sequence, Group, If, For {

        Span span();
    }

    /** A command: its words, its redirections, and the raw text after its name (what cmd hands a program). */
    record Simple(List<CmdToken> words, List<CmdToken> redirects, String rest, Span span) implements Node {}

    record Pipeline(List<Node> stages, Span span) implements Node {}

    /** Commands joined by {@code &}, {@code &&}, {@code ||} or newlines: every one may run. */
    record Sequence(List<Node> items, Span span) implements Node {}

    /** {@code ( ... )}. */
    record Group(Node body, List<CmdToken> redirects, Span span) implements Node {}

    /** {@code if [/i] [not] CONDITION command [else command]}. */
    record If(List<CmdToken> condition, Node then, Node otherwise, Span span) implements Node {}

    /**
     * {@code for [/f "options"] %x in (set) do command}.
     *
     * @param variable the loop variable as written ({@code %x} or {@code %%x})
     * @param set the raw text between the parentheses
     */
    record For(List<String> options, String variable, String set, Span setSpan, Node body, Span span) implements Node {}
}
