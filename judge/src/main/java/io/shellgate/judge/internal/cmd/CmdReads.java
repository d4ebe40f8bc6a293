package io.shellgate.judge.internal.cmd;

import io.shellgate.judge.Span;
import io.shellgate.judge.internal.windows.WindowsChecks;
import io.shellgate.judge.internal.windows.WindowsHost;
import io.shellgate.judge.internal.windows.WindowsReads;
import io.shellgate.judge.internal.windows.Wildcards;
import io.shellgate.rules.Tier;
import java.util.List;

/** What cmd commands read and write: paths that are unknown, on a share or secret ask, and so do redirections to files. */
final class CmdReads {

    private final CmdJudge judge;
    private final WindowsHost host;

    CmdReads(CmdJudge judge) {
        this.judge = judge;
        this.host = judge.host;
    }

    /** A path a command reads: unknown, on a share, or secret (after wildcards, short names and links) asks. */
    void path(String path, Span span, String who) {
        if (path != null && who.equals("dir") && Wildcards.has(path, false)) {
            // dir lists the names a pattern matches: the directory it looks in is what it reads
            String dir = path.substring(0, Math.max(path.lastIndexOf('\\'), path.lastIndexOf('/')) + 1);
            path = dir.isEmpty() ? "." : dir;
        }
        WindowsReads.check(host, path, judge.cwd, new WindowsReads.Read(who, WindowsReads.Use.READ, false, true, span));
    }

    /** A path a command only looks up ({@code cd}, {@code if exist}): a share or a device asks. */
    void resolve(String path, Span span, String who) {
        WindowsReads.check(host, path, judge.cwd, new WindowsReads.Read(who, WindowsReads.Use.RESOLVE, false, false, span));
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
