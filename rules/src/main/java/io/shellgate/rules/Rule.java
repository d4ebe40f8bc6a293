package io.shellgate.rules;

import java.util.List;
import java.util.Optional;

/**
 * A deny or ask rule: what it matches, and the regular expression that also runs on the raw
 * text of every command line, so that a parser mistake cannot turn a match into an allow.
 *
 * @param instead what would be allowed instead, shown with a refusal; may be empty
 * @param raw an RE2 regular expression for the raw text, or empty
 * @param dialects the dialects the rule applies to; empty means all
 */
public record Rule(
        String id,
        Tier tier,
        String reason,
        String instead,
        Matcher matcher,
        Optional<String> raw,
        List<String> dialects,
        Examples examples,
        SourceLocation location,
        Layer layer) implements RuleInfo {

    public Rule {
        dialects = List.copyOf(dialects);
    }

    /** What a rule looks at. */
    public sealed interface Matcher permits CommandMatcher, DetectorMatcher, RawMatcher {}

    /**
     * Matches one simple command after wrappers are stripped.
     *
     * @param commands program names ({@code rm}, globs such as {@code mkfs*}) or program and
     *     subcommand ({@code git push})
     * @param options option groups that must all be present; each group lists alternatives
     *     ({@code -r|-R|--recursive})
     * @param optionsAny options of which at least one must be present (empty: no condition)
     * @param optionsNone options none of which may be present ({@code find -name} narrows a
     *     {@code -delete})
     * @param operandsAny paths or path sets ({@code @critical}) of which some operand must be one
     * @param argsAny glob patterns of which some argument must match ({@code of=/dev/sd*}); a
     *     backslash makes the next character literal ({@code \*} is an asterisk)
     */
    public record CommandMatcher(
            List<String> commands,
            List<List<String>> options,
            List<String> optionsAny,
            List<String> optionsNone,
            List<String> operandsAny,
            List<String> argsAny) implements Matcher {

        public CommandMatcher {
            commands = List.copyOf(commands);
            options = options.stream().map(List::copyOf).toList();
            optionsAny = List.copyOf(optionsAny);
            optionsNone = List.copyOf(optionsNone);
            operandsAny = List.copyOf(operandsAny);
            argsAny = List.copyOf(argsAny);
        }
    }

    /** A built-in detector for what one command cannot show (a pipe into a shell, a fork bomb). */
    public record DetectorMatcher(String detector) implements Matcher {}

    /** A rule that only has its raw-text regular expression. */
    public record RawMatcher() implements Matcher {}
}
