package io.shellgate.judge.internal.cmd;

import io.shellgate.judge.Span;
import io.shellgate.judge.internal.windows.WindowsChecks;
import io.shellgate.judge.internal.windows.WindowsHost;
import io.shellgate.rules.Tier;
import java.util.List;
import java.util.Locale;

/** What cmd commands read and write: paths that are unknown, wildcarded or secret ask, and so do redirections to files. */
final class CmdReads {

    private final CmdJudge judge;
    private final WindowsHost host;

    CmdReads(CmdJudge judge) {
        this.judge = judge;
        this.host = judge.host;
    }

    /** findstr's files: after the pattern (unless /c: or /g: gave it), and those /f: and /g: name. */
    void findstr(List<String> args, Span span) {
        boolean patternGiven = false;
        boolean first = true;
        for (String a : args) {
            if (a == null) {
                path(null, span, "findstr");
                continue;
            }
            String lower = a.toLowerCase(Locale.ROOT);
            if (lower.startsWith("/c:") || lower.startsWith("/g:")) {
                patternGiven = true;
            }
            if (lower.startsWith("/f:") || lower.startsWith("/g:")) {
                path(a.substring(3), span, "findstr");
            } else if (!CmdCommands.isSwitch(a)) {
                if (first && !patternGiven) {
                    first = false;
                } else {
                    path(a, span, "findstr");
                }
            }
        }
    }

    /** A path a command reads: unknown, wildcarded or secret asks. */
    void path(String path, Span span, String who) {
        if (path == null) {
            host.report(WindowsChecks.DYNAMIC_ARGUMENT, Tier.ASK, who + " reads a path whose value is not known here", span);
            return;
        }
        if (path.indexOf('*') >= 0 || path.indexOf('?') >= 0) {
            String dir = path.contains("\\") || path.contains("/") ? path.substring(0, Math.max(path.lastIndexOf('\\'),
                    path.lastIndexOf('/')) + 1) : "";
            if (who.equals("dir") && dir.indexOf('*') < 0 && dir.indexOf('?') < 0) {
                path = dir.isEmpty() ? "." : dir;
            } else {
                host.report(WindowsChecks.DYNAMIC_ARGUMENT, Tier.ASK, who + " reads the wildcard path " + path
                        + ", which shellgate does not expand", span);
                return;
            }
        }
        if (path.startsWith("\\\\") || path.startsWith("//")) {
            host.report(WindowsChecks.SENSITIVE_PATH, Tier.ASK, who + " reads " + path
                    + " from a network share, which sends the user's credentials to that server", span);
            return;
        }
        List<String> abs = judge.absolute(path);
        if (abs.isEmpty()) {
            host.report(WindowsChecks.DYNAMIC_ARGUMENT, Tier.ASK, who + " reads " + path
                    + " in a working directory that is not known here", span);
        }
        for (String a : abs) {
            String why = host.sensitive(a, false);
            if (why != null) {
                host.report(WindowsChecks.SENSITIVE_PATH, Tier.ASK, who + " reads " + path + ": " + why, span);
                return;
            }
        }
    }

    void redirects(List<CmdToken> redirects) {
        for (CmdToken r : redirects) {
            String t = r.text();
            int op = t.lastIndexOf('>') >= 0 ? t.lastIndexOf('>') : t.lastIndexOf('<');
            String target = t.substring(op + 1);
            if (target.startsWith("&") || target.equalsIgnoreCase("nul") || target.equalsIgnoreCase("nul:")) {
                continue;
            }
            if (t.indexOf('<') >= 0) {
                path(r.known() ? target : null, r.span(), "the redirection <");
            } else {
                host.report(WindowsChecks.WRITES_FILE, Tier.ASK, "the redirection " + t.substring(0, op + 1) + " writes to "
                        + (r.known() ? target : "a file named at run time"), r.span());
            }
        }
    }
}
