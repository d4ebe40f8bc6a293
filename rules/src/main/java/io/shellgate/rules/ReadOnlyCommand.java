package io.shellgate.rules;

import java.util.List;

/**
 * A command that runs without asking when every option it is given is on its permitted list.
 *
 * @param id stable kebab-case id
 * @param commands the command names this entry covers; a two-word name ({@code git log}) is a
 *     program and its subcommand
 * @param reason why the command is safe to run unasked
 * @param options the permitted options; anything else means ask
 * @param style how options are written: {@code gnu} (bundled short flags, {@code --long},
 *     anywhere), {@code posix} (the same, but only before the first operand), {@code words}
 *     (single-dash words, as {@code find} has) or {@code git} (as gnu, with {@code --no-} forms)
 * @param operands what the non-option arguments are
 * @param maxOperands the most operands allowed, or -1 for no limit
 * @param minArguments the fewest arguments (options and operands) it must have: {@code python3}
 *     alone is an interactive interpreter, {@code python3 --version} is not
 * @param patternOptions for {@link Operands#PATTERN_FILES}: options that give the pattern, so
 *     that the first operand is a file too ({@code grep -e PATTERN FILE})
 * @param recursiveOptions options that make the command read directories recursively; {@code *}
 *     means it always does; {@code -d=recurse} is an option with that value
 * @param hiddenOptions for a command that reads recursively but skips hidden files and
 *     directories unless told otherwise ({@code rg}), the options that tell it otherwise; empty
 *     when it reads hidden files too
 * @param checker a built-in check of the command's own language ({@code sed}, {@code awk},
 *     {@code find}, {@code xargs}, {@code git}), or empty
 */
public record ReadOnlyCommand(
        String id,
        List<String> commands,
        String reason,
        List<OptionSpec> options,
        Style style,
        Operands operands,
        int maxOperands,
        int minArguments,
        List<String> patternOptions,
        List<String> recursiveOptions,
        List<String> hiddenOptions,
        String checker,
        Examples examples,
        SourceLocation location,
        Layer layer) implements RuleInfo {

    public ReadOnlyCommand {
        commands = List.copyOf(commands);
        options = List.copyOf(options);
        patternOptions = List.copyOf(patternOptions);
        recursiveOptions = List.copyOf(recursiveOptions);
        hiddenOptions = List.copyOf(hiddenOptions);
    }

    @Override
    public Tier tier() {
        return Tier.ALLOW;
    }

    /** How a command writes its options. */
    public enum Style {
        GNU,
        WORDS,
        /** Options only before the first operand, as POSIX utilities and builtins take them ({@code printf}). */
        POSIX,
        /** git's parse-options: as GNU, and {@code --no-NAME} negates every long option listed. */
        GIT
    }

    /** What a command's operands are, which decides the checks they get. */
    public enum Operands {
        /** Files or directories the command reads: checked against sensitive paths. */
        FILES,
        /** A pattern (or program) first, unless a pattern option gave it, then files read. */
        PATTERN_FILES,
        /** Text the command prints or compares: not paths. */
        TEXT,
        /** The command takes no operands. */
        NONE
    }
}
