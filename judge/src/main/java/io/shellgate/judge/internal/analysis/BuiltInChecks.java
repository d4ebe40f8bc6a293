package io.shellgate.judge.internal.analysis;

import io.shellgate.judge.internal.analysis.builtins.ShellState;
import io.shellgate.judge.internal.analysis.nested.Special;
import io.shellgate.judge.internal.analysis.nested.WindowsBridge;
import io.shellgate.judge.internal.analysis.programs.AwkCheck;
import io.shellgate.judge.internal.analysis.programs.BatchOnlyCheck;
import io.shellgate.judge.internal.analysis.programs.CdCheck;
import io.shellgate.judge.internal.analysis.programs.DateCheck;
import io.shellgate.judge.internal.analysis.programs.FindCheck;
import io.shellgate.judge.internal.analysis.programs.GitCheck;
import io.shellgate.judge.internal.analysis.programs.IpCheck;
import io.shellgate.judge.internal.analysis.programs.JqCheck;
import io.shellgate.judge.internal.analysis.programs.NpmViewCheck;
import io.shellgate.judge.internal.analysis.programs.ProjectConfigCheck;
import io.shellgate.judge.internal.analysis.programs.PsCheck;
import io.shellgate.judge.internal.analysis.programs.ResponseFilesCheck;
import io.shellgate.judge.internal.analysis.programs.SedCheck;
import io.shellgate.judge.internal.analysis.programs.SsFilterCheck;
import io.shellgate.judge.internal.analysis.programs.TarCheck;
import io.shellgate.judge.internal.analysis.programs.UnzipCheck;
import io.shellgate.judge.internal.analysis.programs.XargsCheck;
import io.shellgate.judge.internal.analysis.programs.XxdCheck;
import io.shellgate.judge.internal.analysis.walk.Extensions;
import java.util.Map;

/**
 * The one registry of the checks a read-only entry can name with {@code checker}, of the commands
 * that run code and of the judge of other dialects: what the walk calls above itself. A new
 * program grammar is a {@link io.shellgate.judge.internal.analysis.walk.ProgramCheck} in the {@code programs} package and one line here;
 * its name is then one a policy may give ({@link Extensions#checkerNames}).
 */
final class BuiltInChecks {

    private BuiltInChecks() {}

    /** Every check, handler and dialect judge there is. */
    static final Extensions ALL = new Extensions(
            Map.ofEntries(
                    Map.entry("awk", new AwkCheck()),
                    Map.entry("batch-only", new BatchOnlyCheck()),
                    Map.entry("cd", new CdCheck()),
                    Map.entry("date", new DateCheck()),
                    Map.entry("find", new FindCheck()),
                    Map.entry("git", new GitCheck()),
                    Map.entry("ip", new IpCheck()),
                    Map.entry("jq", new JqCheck()),
                    Map.entry("maven-config", ProjectConfigCheck.MAVEN),
                    Map.entry("npm-view", new NpmViewCheck()),
                    Map.entry("ps", new PsCheck()),
                    Map.entry("response-files", new ResponseFilesCheck()),
                    Map.entry("sed", new SedCheck()),
                    Map.entry("ss-filter", new SsFilterCheck()),
                    Map.entry("tar", new TarCheck()),
                    Map.entry("toolchain-config", ProjectConfigCheck.TOOLCHAIN),
                    Map.entry("unzip", new UnzipCheck()),
                    Map.entry("version-manager", ProjectConfigCheck.VERSION_MANAGER),
                    Map.entry("xargs", new XargsCheck()),
                    Map.entry("xxd", new XxdCheck())),
            Map.of("shell-state", ShellState::check),
            Special::handle,
            WindowsBridge::judgeScript);
}
