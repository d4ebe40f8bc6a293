package io.shellgate.rules;

import java.util.List;
import java.util.Map;

/**
 * What the judge needs to know about programs beyond the read-only list.
 *
 * @param shells shell names and the dialect their scripts are judged in ({@code bash},
 *     {@code zsh}, {@code sh}, or {@code other} for shells whose language is not judged)
 * @param interpreters language interpreters and the options that take inline code
 * @param downloaders programs whose output may be content from the network
 * @param dataCommands programs whose quoted arguments are data, not code (for the raw-text check)
 * @param subcommands programs with subcommands and the options that may come before one
 * @param builtins per dialect, the shell builtins (not looked up in {@code PATH})
 */
public record Programs(
        Map<String, String> shells,
        List<Interpreter> interpreters,
        List<String> downloaders,
        List<String> dataCommands,
        Map<String, SubcommandProgram> subcommands,
        Map<String, List<String>> builtins) {

    public Programs {
        shells = Map.copyOf(shells);
        interpreters = List.copyOf(interpreters);
        downloaders = List.copyOf(downloaders);
        dataCommands = List.copyOf(dataCommands);
        subcommands = Map.copyOf(subcommands);
        builtins = Map.copyOf(builtins);
    }

    /**
     * A language interpreter.
     *
     * @param names program names or globs ({@code python3*})
     * @param codeOptions options whose value is code to run ({@code -c}, {@code -e})
     */
    public record Interpreter(String id, List<String> names, List<OptionSpec> codeOptions) {

        public Interpreter {
            names = List.copyOf(names);
            codeOptions = List.copyOf(codeOptions);
        }
    }

    /**
     * A program with subcommands.
     *
     * @param globalOptions every option that may come before the subcommand, with its arity, so
     *     that the subcommand can be found
     * @param readOnlyGlobalOptions the ones among them that a read-only subcommand may have
     */
    public record SubcommandProgram(List<OptionSpec> globalOptions, List<OptionSpec> readOnlyGlobalOptions) {

        public SubcommandProgram {
            globalOptions = List.copyOf(globalOptions);
            readOnlyGlobalOptions = List.copyOf(readOnlyGlobalOptions);
        }
    }
}
