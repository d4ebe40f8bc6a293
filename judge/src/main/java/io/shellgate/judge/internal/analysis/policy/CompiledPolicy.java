package io.shellgate.judge.internal.analysis.policy;

import com.google.re2j.Pattern;
import io.shellgate.judge.Dialect;
import io.shellgate.judge.internal.analysis.host.TrustedDirectories;
import io.shellgate.judge.internal.analysis.language.RequiredText;
import io.shellgate.judge.internal.analysis.options.OptionParser;
import io.shellgate.rules.Policy;
import io.shellgate.rules.PolicyException;
import io.shellgate.rules.Programs;
import io.shellgate.rules.ReadOnlyCommand;
import io.shellgate.rules.Rule;
import io.shellgate.rules.Wrapper;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** A policy turned into the lookups the judge needs on every command. */
public final class CompiledPolicy {

    /** The detectors this judge has; a rule naming another one is refused at load. */
    static final Set<String> DETECTORS = Set.of("device-write", "sysrq-write", "fork-bomb", "download-to-shell",
            "kill-all-processes");

    public final Policy policy;
    public final Map<String, List<ReadOnlyCommand>> readOnly = new HashMap<>();
    /** By identity: an entry is a large record, and hashing it for every command was a cost of its own. */
    public final Map<ReadOnlyCommand, OptionParser> readOnlyParsers = new IdentityHashMap<>();
    public final Map<String, Wrapper> wrappers = new HashMap<>();
    public final Map<Wrapper, OptionParser> wrapperParsers = new IdentityHashMap<>();
    public final List<CommandRule> commandRules = new ArrayList<>();
    public final Map<String, Rule> detectors = new HashMap<>();
    public final List<RawRule> rawRules = new ArrayList<>();
    final Map<String, PathSet> pathSets = new LinkedHashMap<>();
    public final NameSet envSafe;
    public final NameSet envDangerous;
    /** Upper-cased: secret names are matched ignoring case. */
    private final NameSet envSecret;
    private final java.util.concurrent.ConcurrentHashMap<String, Boolean> secretNames = new java.util.concurrent.ConcurrentHashMap<>();
    public final Map<String, String> shells;
    final List<InterpreterSpec> interpreters = new ArrayList<>();
    public final NameSet downloaders;
    public final Set<String> dataCommands;
    public final Map<String, OptionParser> globalOptions = new HashMap<>();
    public final Map<String, Set<String>> readOnlyGlobalOptions = new HashMap<>();
    final Map<Dialect, Set<String>> builtins = new HashMap<>();
    public final TrustedDirectories trust;

    /** A rule's raw-text expression, with the words a match cannot lack ({@link RequiredText}; null: always run). */
    public record RawRule(Rule rule, Pattern pattern, List<String> words) {}

    public record InterpreterSpec(Programs.Interpreter interpreter, NameSet names, OptionParser codeOptions) {}

    /**
     * Compiles the policy for lookup.
     *
     * @param checkers the checks a read-only entry may name; an entry naming another one is refused, since an
     *        unknown name would otherwise run no check at all
     */
    public CompiledPolicy(Policy policy, Set<String> checkers) throws PolicyException {
        this.policy = policy;
        List<String> problems = new ArrayList<>();
        policy.paths().sets().forEach((name, patterns) -> pathSets.put(name, new PathSet(name, patterns)));
        for (ReadOnlyCommand r : policy.readOnly()) {
            for (String command : r.commands()) {
                readOnly.computeIfAbsent(command.split(" ")[0], k -> new ArrayList<>()).add(r);
            }
            readOnlyParsers.put(r, new OptionParser(r.options(), r.style()));
            if (!r.checker().isEmpty() && !checkers.contains(r.checker())) {
                problems.add(r.location() + ": read-only entry " + r.id() + " names the checker '" + r.checker()
                        + "', which does not exist; the checkers are " + String.join(", ", checkers.stream().sorted().toList()));
            }
        }
        for (Wrapper w : policy.wrappers()) {
            for (String name : w.names()) {
                wrappers.put(name, w);
            }
            wrapperParsers.put(w, new OptionParser(w.options(), ReadOnlyCommand.Style.GNU));
        }
        for (Rule rule : policy.rules()) {
            switch (rule.matcher()) {
                case Rule.CommandMatcher m -> {
                    for (String ref : refs(m)) {
                        if (!pathSets.containsKey(ref)) {
                            problems.add(rule.location() + ": rule " + rule.id() + " refers to the path set @" + ref
                                    + ", which no [paths] table defines");
                        }
                    }
                    commandRules.add(new CommandRule(rule, m, pathSets));
                }
                case Rule.DetectorMatcher d -> {
                    if (!DETECTORS.contains(d.detector())) {
                        problems.add(rule.location() + ": rule " + rule.id() + " names the detector '" + d.detector()
                                + "', which does not exist; the detectors are " + String.join(", ", DETECTORS.stream().sorted().toList()));
                    }
                    detectors.put(d.detector(), rule);
                }
                case Rule.RawMatcher r -> {
                    // only its raw pattern
                }
            }
            rule.raw().ifPresent(raw -> rawRules.add(new RawRule(rule, Pattern.compile(raw), RequiredText.of(raw))));
        }
        envSafe = new NameSet(policy.environment().safe());
        envDangerous = new NameSet(policy.environment().dangerous());
        envSecret = new NameSet(policy.environment().secret().stream().map(s -> s.toUpperCase(java.util.Locale.ROOT)).toList());
        shells = Map.copyOf(policy.programs().shells());
        for (Programs.Interpreter i : policy.programs().interpreters()) {
            interpreters.add(new InterpreterSpec(i, new NameSet(i.names()), new OptionParser(i.codeOptions(), ReadOnlyCommand.Style.GNU)));
        }
        downloaders = new NameSet(policy.programs().downloaders());
        dataCommands = Set.copyOf(policy.programs().dataCommands());
        policy.programs().subcommands().forEach((name, program) -> {
            globalOptions.put(name, new OptionParser(program.globalOptions(), ReadOnlyCommand.Style.GNU));
            Set<String> ro = new HashSet<>();
            program.readOnlyGlobalOptions().forEach(o -> ro.add(o.name()));
            readOnlyGlobalOptions.put(name, ro);
        });
        policy.programs().builtins().forEach((dialect, names) -> {
            Dialect d = Dialect.parse(dialect);
            if (d != null) {
                builtins.put(d, Set.copyOf(names));
            }
        });
        List<Path> trusted = policy.settings().trustedDirs().stream().map(CompiledPolicy::expandHome).toList();
        List<Path> untrusted = policy.settings().untrustedDirs().stream().map(CompiledPolicy::expandHome).toList();
        trust = new TrustedDirectories(trusted, untrusted);
        if (!problems.isEmpty()) {
            throw new PolicyException(problems);
        }
    }

    private static Path expandHome(String p) {
        String home = System.getProperty("user.home");
        return Path.of(p.startsWith("~/") && home != null ? home + p.substring(1) : p);
    }

    private static List<String> refs(Rule.CommandMatcher m) {
        List<String> out = new ArrayList<>();
        for (String s : m.operandsAny()) {
            if (s.startsWith("@")) {
                out.add(s.substring(1));
            }
        }
        for (String s : m.argsAny()) {
            int at = s.indexOf('@');
            if (at >= 0) {
                out.add(s.substring(at + 1));
            }
        }
        return out;
    }

    /** Whether a variable's name marks it as holding a secret ({@code GITHUB_TOKEN}, {@code db_password}). */
    public boolean isSecretVariable(String name) {
        Boolean known = secretNames.get(name);
        if (known != null) {
            return known;
        }
        boolean secret = envSecret.contains(name.toUpperCase(java.util.Locale.ROOT));
        // every expansion asks this: the few names a session uses are remembered (a bounded number)
        if (secretNames.size() < 4096) {
            secretNames.put(name, secret);
        }
        return secret;
    }

    public PathSet paths(String name) {
        return pathSets.getOrDefault(name, new PathSet(name, List.of()));
    }

    public boolean isBuiltin(Dialect dialect, String name) {
        Set<String> names = builtins.get(dialect == Dialect.SH ? Dialect.SH : dialect);
        return names != null && names.contains(name);
    }

    public InterpreterSpec interpreter(String name) {
        for (InterpreterSpec i : interpreters) {
            if (i.names.contains(name)) {
                return i;
            }
        }
        return null;
    }

    public List<CommandRule> rulesFor(String program) {
        List<CommandRule> out = new ArrayList<>();
        for (CommandRule r : commandRules) {
            if (r.appliesTo(program)) {
                out.add(r);
            }
        }
        return out;
    }
}
