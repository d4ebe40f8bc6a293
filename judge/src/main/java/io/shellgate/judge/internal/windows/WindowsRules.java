package io.shellgate.judge.internal.windows;

import io.shellgate.judge.Dialect;
import io.shellgate.rules.Rule;
import java.util.List;

/**
 * Runs the policy's command rules for PowerShell and cmd on one canonical command. Names and
 * options compare without case; operands are matched as Windows paths against path sets
 * ({@code @windows-critical}) from the working directory {@code cwd} (null when unknown: relative
 * paths then match nothing); {@code args-any} globs run on arguments with forward slashes.
 */
public final class WindowsRules {

    private WindowsRules() {}

    public static void check(WindowsHost host, Dialect dialect, WindowsCommand c, String cwd) {
        for (Rule rule : host.rules(dialect)) {
            if (rule.matcher() instanceof Rule.CommandMatcher m && matches(host, m, c, cwd)) {
                host.report(rule.id(), rule.tier(), message(rule), c.span());
            }
        }
    }

    public static String message(Rule rule) {
        return rule.instead().isEmpty() ? rule.reason() : rule.reason() + "; instead: " + rule.instead();
    }

    static boolean matches(WindowsHost host, Rule.CommandMatcher m, WindowsCommand c, String cwd) {
        for (String command : m.commands()) {
            String[] words = command.split(" ");
            if (!WindowsGlob.of(List.of(words[0]), null).matches(c.name())) {
                continue;
            }
            List<String> operands = c.operands();
            if (words.length > 1) {
                if (operands.isEmpty() || operands.getFirst() == null || !operands.getFirst().equalsIgnoreCase(words[1])) {
                    continue;
                }
                operands = operands.subList(1, operands.size());
            }
            if (arguments(host, m, c, operands, cwd)) {
                return true;
            }
        }
        return false;
    }

    private static boolean arguments(WindowsHost host, Rule.CommandMatcher m, WindowsCommand c, List<String> operands, String cwd) {
        for (List<String> group : m.options()) {
            if (group.stream().noneMatch(c::has)) {
                return false;
            }
        }
        if (!m.optionsAny().isEmpty() && m.optionsAny().stream().noneMatch(c::has)) {
            return false;
        }
        if (m.optionsNone().stream().anyMatch(c::has)) {
            return false;
        }
        if (!m.operandsAny().isEmpty() && operands.stream().noneMatch(o -> o != null && inPaths(host, m.operandsAny(), o, cwd))) {
            return false;
        }
        if (!m.argsAny().isEmpty()) {
            WindowsGlob glob = WindowsGlob.of(m.argsAny(), null);
            return operands.stream().anyMatch(o -> o != null && glob.matches(trimSlashes(o.replace('\\', '/'))));
        }
        return true;
    }

    private static String trimSlashes(String s) {
        int end = s.length();
        while (end > 1 && s.charAt(end - 1) == '/') {
            end--;
        }
        return s.substring(0, end);
    }

    private static boolean inPaths(WindowsHost host, List<String> patterns, String operand, String cwd) {
        for (String p : patterns) {
            List<String> globs = p.startsWith("@") ? host.pathSet(p.substring(1)) : List.of(p);
            WindowsGlob glob = WindowsGlob.of(globs, host.home());
            for (String candidate : WindowsPaths.absolute(operand, cwd, host.home())) {
                if (glob.matches(candidate)) {
                    return true;
                }
            }
        }
        return false;
    }
}
