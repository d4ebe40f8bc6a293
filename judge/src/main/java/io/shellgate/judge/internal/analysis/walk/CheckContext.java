package io.shellgate.judge.internal.analysis.walk;

import io.shellgate.judge.Dialect;
import io.shellgate.judge.Span;
import io.shellgate.judge.internal.analysis.host.HostView;
import io.shellgate.judge.internal.analysis.model.Field;
import io.shellgate.judge.internal.analysis.model.Scope;
import io.shellgate.judge.internal.analysis.options.OptionParser;
import io.shellgate.judge.internal.analysis.policy.CompiledPolicy;
import io.shellgate.judge.internal.syntax.Word;
import io.shellgate.rules.Tier;
import java.util.List;
import java.util.function.Predicate;

/**
 * What a {@link ProgramCheck} may do with the judgement it runs in: report, read the policy and the
 * host, judge what the program runs (an argument vector, code, a file it reads or writes).
 */
public interface CheckContext {

    /** Adds a finding. */
    void add(String rule, Tier tier, String message, Span span);

    /** The policy the line is judged by. */
    CompiledPolicy policy();

    /** The machine the judge asks about files, directories and repositories. */
    HostView host();

    /** Judges an argument vector the program runs ({@code xargs CMD}, {@code find -exec CMD}) as a simple command. */
    void judgeArgv(Invocation parent, List<Field> argv);

    /** Judges text the program runs as shell code; unknown code asks, downloaded code is refused. */
    void nestedCode(Invocation inv, Field text, Dialect dialect, Scope scope, String what);

    /** Whether content from the network may flow into this field. */
    boolean downloads(Field f);

    /** Marks a span of the line as data (a script's text, a pattern), not as code to highlight. */
    void data(Span span);

    /** Expands a word that stays one field. */
    Field single(Word word, Scope scope);

    /** Asks when the program reading {@code operand} reads a sensitive path; returns whether it did. */
    boolean checkRead(Field operand, Scope scope, Span span, String verb);

    /**
     * Asks when reading {@code operand} recursively reaches sensitive paths whose names pass {@code names};
     * returns whether it did.
     *
     * @param skipHidden the reader skips hidden files and directories
     * @param follow the reader opens the links it meets
     */
    boolean checkRecursive(Field operand, Scope scope, Span span, Predicate<String> names, boolean skipHidden,
            boolean follow);

    /** Asks when reading {@code operand} recursively reaches sensitive paths. */
    default boolean checkRecursive(Field operand, Scope scope, Span span) {
        return checkRecursive(operand, scope, span, name -> true, false, false);
    }

    /** Judges a file the program writes. */
    void write(Field target, Scope scope, Span span);

    /** Checks an option's value by its kind: files read or written, code. */
    void optionValue(Invocation inv, OptionParser.Opt o);

    /** Keeps the values of options that run commands, judged as code once the entries are done. */
    void optionCode(Invocation inv, OptionParser.Parsed parsed);
}
