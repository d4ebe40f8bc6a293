package io.shellgate.judge.internal.analysis.programs;

import io.shellgate.judge.internal.analysis.model.Field;
import io.shellgate.judge.internal.analysis.walk.CheckContext;
import io.shellgate.judge.internal.analysis.walk.Invocation;
import io.shellgate.judge.internal.analysis.walk.ProgramCheck;
import io.shellgate.rules.ReadOnlyCommand;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * {@code ip [OPTIONS] OBJECT [COMMAND [ARGS]]} as iproute2 reads it: options and objects are
 * taken by prefix, the first one in ip's own order that the word begins ({@code ip a} is
 * {@code ip address}, {@code -b} is {@code -batch}). Only showing addresses, routes, links,
 * neighbours and rules is read-only, and the command must be written in full: ip takes commands
 * by prefix too, and which command a prefix means changes from object to object ({@code ip l s}
 * is {@code ip link set}).
 */
public final class IpCheck implements ProgramCheck {

    /** ip's options in the order it tries them; the ones marked with a value take the next word. */
    private static final List<String> OPTIONS = List.of("-loops=", "-family=", "-4", "-6", "-0", "-M", "-B", "-human",
            "-human-readable", "-iec", "-stats", "-statistics", "-details", "-resolve", "-oneline", "-timestamp",
            "-tshort", "-Version", "-force", "-batch=", "-brief", "-json", "-pretty", "-rcvbuf=", "-color", "-help",
            "-netns=", "-Numeric", "-all", "-echo");
    private static final Set<String> READ_ONLY_OPTIONS = Set.of("-family=", "-4", "-6", "-0", "-M", "-B", "-human",
            "-human-readable", "-iec", "-stats", "-statistics", "-details", "-resolve", "-oneline", "-timestamp",
            "-tshort", "-Version", "-brief", "-json", "-pretty", "-color", "-help", "-Numeric", "-all");
    private static final List<String> OBJECTS = List.of("address", "addrlabel", "maddress", "route", "rule", "neighbor",
            "neighbour", "ntable", "ntbl", "link", "l2tp", "fou", "ila", "macsec", "tunnel", "tunl", "tuntap", "tap",
            "token", "tcpmetrics", "tcp_metrics", "monitor", "xfrm", "mroute", "mrule", "netns", "netconf", "vrf", "sr",
            "nexthop", "mptcp", "ioam", "help", "stats");
    private static final Set<String> SHOWN = Set.of("address", "route", "rule", "neighbor", "neighbour", "link");
    private static final Set<String> SHOW = Set.of("show", "list", "lst");

    @Override
    public List<String> custom(CheckContext c, Invocation inv, ReadOnlyCommand entry, String sub, List<Field> before,
            List<Field> args) {
        return check(args);
    }

    static List<String> check(List<Field> args) {
        List<String> problems = new ArrayList<>();
        int i = 0;
        for (; i < args.size(); i++) {
            Field f = args.get(i);
            if (!f.isLiteral()) {
                problems.add("the argument " + f.display() + " is computed at run time");
                return problems;
            }
            String t = f.plain();
            if (t.equals("--")) {
                i++;
                break;
            }
            if (!t.startsWith("-")) {
                break;
            }
            String opt = t.startsWith("--") ? t.substring(1) : t;
            String matched = null;
            for (String o : OPTIONS) {
                String name = o.endsWith("=") ? o.substring(0, o.length() - 1) : o;
                boolean exact = name.equals("-4") || name.equals("-6") || name.equals("-0") || name.equals("-M")
                        || name.equals("-B");
                if (exact ? opt.equals(name) : name.equals("-color") ? opt.startsWith("-c") && color(opt)
                        : opt.length() > 1 && name.startsWith(opt)) {
                    matched = o;
                    break;
                }
            }
            if (matched == null || !READ_ONLY_OPTIONS.contains(matched)) {
                problems.add("ip's option " + t + (matched == null ? " is not known" : " (" + matched.replace("=", "")
                        + ") is not read-only"));
                return problems;
            }
            if (matched.endsWith("=")) {
                i++;
            }
        }
        if (i >= args.size()) {
            problems.add("ip without an object prints its usage");
            return problems;
        }
        String word = args.get(i).plain();
        String object = null;
        for (String o : OBJECTS) {
            if (!word.isEmpty() && o.startsWith(word)) {
                object = o;
                break;
            }
        }
        if (object == null || !SHOWN.contains(object)) {
            problems.add("ip " + word + (object == null ? " is not an object ip knows" : " (" + object + ") is not read-only"));
            return problems;
        }
        if (i + 1 < args.size()) {
            Field command = args.get(i + 1);
            String c = command.plain();
            boolean get = c.equals("get") && (object.equals("route") || object.startsWith("neigh"));
            if (!command.isLiteral() || !(SHOW.contains(c) || get)) {
                problems.add("ip " + object + " " + command.display() + " is not one of its show commands"
                        + " (ip reads commands by prefix: write show, list or lst in full)");
                return problems;
            }
        }
        return problems;
    }

    /** {@code -c}, {@code -color}, {@code -color=auto}: ip's colour option and its optional value. */
    private static boolean color(String opt) {
        String name = opt.contains("=") ? opt.substring(0, opt.indexOf('=')) : opt;
        return "-color".startsWith(name) && name.length() > 1;
    }
}
