package io.shellgate.judge.internal.analysis.walk;

import io.shellgate.judge.Span;
import io.shellgate.judge.internal.analysis.model.Checks;
import io.shellgate.judge.internal.analysis.model.Field;
import io.shellgate.judge.internal.analysis.model.ShellPaths;
import io.shellgate.judge.internal.syntax.Command;
import io.shellgate.rules.Rule;
import io.shellgate.rules.Tier;
import java.nio.file.Path;
import java.util.List;

/** The built-in detectors that deny and ask rules can name. */
public final class Detectors {

    private Detectors() {}

    /** Detectors that look at one command: kill of every process, writes through tee or cp onto devices. */
    static void simple(Analyzer a, Invocation inv, String program) {
        List<Field> args = inv.argv.subList(1, inv.argv.size());
        switch (program) {
            case "kill" -> killAll(a, inv, args);
            case "tee" -> {
                for (Field f : args) {
                    if (!f.plain().startsWith("-")) {
                        deviceTarget(a, inv, f);
                    }
                }
            }
            case "cp", "install", "mv", "pv", "ddrescue" -> {
                if (args.size() >= 2) {
                    deviceTarget(a, inv, args.getLast());
                }
            }
            default -> {
                // no detector for this program
            }
        }
    }

    private static void deviceTarget(Analyzer a, Invocation inv, Field target) {
        if (target.hasUnknown()) {
            return;
        }
        for (Path cwd : Redirects.cwds(inv.scope)) {
            String path = ShellPaths.canonical(target.plain(), cwd);
            if (Redirects.destructive(a, "device-write", "devices", path, inv.scope, inv.span())
                    || Redirects.destructive(a, "sysrq-write", "sysrq", path, inv.scope, inv.span())) {
                return;
            }
        }
    }

    /** {@code kill -9 -1}: a pid of -1 means every process the user can signal. */
    private static void killAll(Analyzer a, Invocation inv, List<Field> args) {
        boolean signalSeen = false;
        boolean operandsOnly = false;
        for (int i = 0; i < args.size(); i++) {
            String t = args.get(i).plain();
            if (!operandsOnly && t.equals("--")) {
                operandsOnly = true;
            } else if (!operandsOnly && (t.equals("-s") || t.equals("-n"))) {
                signalSeen = true;
                i++;
            } else if (!operandsOnly && (t.equals("-l") || t.equals("-L"))) {
                return;
            } else if (!operandsOnly && t.startsWith("-") && !signalSeen && !t.equals("-1")) {
                signalSeen = true;
            } else if (!operandsOnly && t.equals("-1") && !signalSeen) {
                // "kill -1 PID": the first -1 is SIGHUP
                signalSeen = true;
            } else if (t.equals("-1")) {
                report(a, "kill-all-processes", inv.span(), "kill -1 signals every process");
                return;
            }
        }
    }

    /** A function that calls itself in a pipeline or in the background. */
    static void forkBomb(Analyzer a, Command.FunctionDef f) {
        if (f.name().isEmpty()) {
            return;
        }
        if (callsItself(f.body(), f.name(), false)) {
            report(a, "fork-bomb", f.span(), "the function " + f.name() + " starts copies of itself");
        }
    }

    private static boolean callsItself(Command c, String name, boolean multiplying) {
        return switch (c) {
            case Command.Simple s -> multiplying && !s.words().isEmpty() && name.equals(s.words().getFirst().literal());
            case Command.Pipeline p -> p.stages().stream().anyMatch(x -> callsItself(x, name, true));
            case Command.Background b -> callsItself(b.body(), name, true);
            case Command.Sequence s -> s.items().stream().anyMatch(x -> callsItself(x, name, multiplying));
            case Command.Group g -> callsItself(g.body(), name, multiplying);
            case Command.Subshell s -> callsItself(s.body(), name, multiplying);
            case Command.Negated n -> callsItself(n.body(), name, multiplying);
            case Command.Redirected r -> callsItself(r.body(), name, multiplying);
            case Command.Compound k -> k.bodies().stream().anyMatch(x -> callsItself(x, name, multiplying));
            case Command.FunctionDef d -> false;
            case Command.Opaque o -> false;
        };
    }

    public static void downloadToShell(Analyzer a, Span span, String why) {
        report(a, "download-to-shell", span, why);
    }

    static void report(Analyzer a, String detector, Span span, String why) {
        Rule rule = a.policy.detectors.get(detector);
        if (rule == null) {
            a.add(Checks.DYNAMIC_CODE, Tier.ASK, why, span);
            return;
        }
        a.add(rule.id(), rule.tier(), Rules.message(rule) + " (" + why + ")", span);
    }
}
