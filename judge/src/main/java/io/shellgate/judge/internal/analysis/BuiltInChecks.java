package io.shellgate.judge.internal.analysis;

import java.util.Map;

/**
 * The one registry of the checks a read-only entry can name with {@code checker}, of the commands
 * that run code and of the judge of other dialects: what {@link Analyzer} calls above the walk.
 * A new program grammar is a class in this package and one line here.
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
