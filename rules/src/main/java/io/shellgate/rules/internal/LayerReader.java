package io.shellgate.rules.internal;

import static io.shellgate.rules.internal.NodeReader.path;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import com.google.re2j.PatternSyntaxException;
import io.shellgate.rules.Examples;
import io.shellgate.rules.Layer;
import io.shellgate.rules.OptionSpec;
import io.shellgate.rules.PolicyException;
import io.shellgate.rules.PolicySource;
import io.shellgate.rules.Programs;
import io.shellgate.rules.ReadOnlyCommand;
import io.shellgate.rules.Rule;
import io.shellgate.rules.Tier;
import io.shellgate.rules.Wrapper;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/** Reads one policy file into a {@link LayerSpec}, reporting every problem with its location. */
public final class LayerReader {

    static final int FORMAT_VERSION = 1;
    private static final Pattern KEBAB = Pattern.compile("[a-z0-9]+(-[a-z0-9]+)*");
    private static final Set<String> TOP_KEYS = Set.of("version", "disable", "settings", "paths", "environment",
            "shells", "interpreter", "programs", "subcommands", "builtins", "read-only", "wrapper", "rule", "review", "approved",
            "managed", "audit");
    private static final Set<String> DIALECTS = Set.of("bash", "zsh", "sh", "powershell", "cmd");
    /** Built on first use: the default policy is read from its stored tree, without TOML. */
    private static final class Toml {
        static final TomlMapper MAPPER = new TomlMapper();
    }

    private final PolicySource source;
    private final NodeReader in;

    private LayerReader(PolicySource source) {
        this.source = source;
        this.in = new NodeReader(source.name(), new TomlLocator(source.text()));
    }

    /** Parses and checks one policy file. */
    static LayerSpec read(PolicySource source) throws PolicyException {
        JsonNode root = source.layer() == Layer.DEFAULT ? DefaultPolicyTree.forText(source.text()) : null;
        try {
            if (root == null) {
                root = Toml.MAPPER.readTree(source.text());
            }
        } catch (JacksonException e) {
            JsonLocation at = e.getLocation();
            String where = at == null ? source.name() : source.name() + ":" + at.getLineNr() + ":" + at.getColumnNr();
            throw new PolicyException(where + ": not valid TOML: " + e.getOriginalMessage()
                    + " (see the policy format in the README; strings need quotes, lists are written [\"a\", \"b\"])");
        }
        if (root == null || !root.isObject()) {
            root = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        }
        LayerReader reader = new LayerReader(source);
        LayerSpec spec = reader.read(root);
        if (!reader.in.problems().isEmpty()) {
            throw new PolicyException(reader.in.problems());
        }
        return spec;
    }

    private LayerSpec read(JsonNode root) {
        List<Object> top = List.of();
        in.checkKeys(root, top, TOP_KEYS);
        Integer version = in.integer(root, top, "version", 0, Integer.MAX_VALUE);
        if (version != null && version != FORMAT_VERSION) {
            in.problem(path(top, "version"), "this shellgate reads policy format version " + FORMAT_VERSION + "; write version = " + FORMAT_VERSION);
        }
        JsonNode settings = in.table(root, top, "settings");
        List<Object> sp = List.of("settings");
        Integer maxInput = null;
        Integer maxDepth = null;
        Integer budget = null;
        List<String> trusted = List.of();
        List<String> untrusted = List.of();
        List<String> projects = List.of();
        String shell = null;
        if (settings != null) {
            in.checkKeys(settings, sp, Set.of("max-input-bytes", "max-depth", "time-budget-ms", "trusted-dirs",
                    "untrusted-dirs", "trusted-projects", "shell"));
            shell = in.string(settings, sp, "shell", false);
            if (shell != null && (shell.isBlank() || shell.indexOf('\0') >= 0)) {
                in.problem(path(sp, "shell"), "names the real shell: a path such as \"/bin/bash\" or a name such as \"zsh\"");
                shell = null;
            }
            maxInput = in.integer(settings, sp, "max-input-bytes", 16, 16 * 1024 * 1024);
            maxDepth = in.integer(settings, sp, "max-depth", 1, 64);
            budget = in.integer(settings, sp, "time-budget-ms", 1, 60_000);
            trusted = absolutePaths(settings, sp, "trusted-dirs");
            untrusted = absolutePaths(settings, sp, "untrusted-dirs");
            projects = absolutePaths(settings, sp, "trusted-projects");
        }
        List<String> disable = in.strings(root, top, "disable", false);
        JsonNode env = in.table(root, top, "environment");
        List<String> safe = List.of();
        List<String> dangerous = List.of();
        List<String> secret = List.of();
        if (env != null) {
            List<Object> ep = List.of("environment");
            in.checkKeys(env, ep, Set.of("safe", "dangerous", "secret"));
            safe = in.strings(env, ep, "safe", false);
            dangerous = in.strings(env, ep, "dangerous", false);
            secret = in.strings(env, ep, "secret", false);
        }
        JsonNode programs = in.table(root, top, "programs");
        List<String> downloaders = List.of();
        List<String> dataCommands = List.of();
        if (programs != null) {
            List<Object> pp = List.of("programs");
            in.checkKeys(programs, pp, Set.of("downloaders", "data-commands"));
            downloaders = in.strings(programs, pp, "downloaders", false);
            dataCommands = in.strings(programs, pp, "data-commands", false);
        }
        Map<String, List<String>> builtins = in.stringLists(root, top, "builtins");
        for (String dialect : builtins.keySet()) {
            if (!DIALECTS.contains(dialect)) {
                in.problem(List.of("builtins", dialect), "unknown dialect; use one of " + String.join(", ", DIALECTS));
            }
        }
        ReviewReader review = new ReviewReader(in, source.layer());
        return new LayerSpec(source, maxInput, maxDepth, budget, trusted, untrusted, projects, shell, disable,
                in.location(List.of("disable")), in.stringLists(root, top, "paths"), safe, dangerous, secret, shells(root),
                interpreters(root), downloaders, dataCommands, subcommands(root), builtins, readOnly(root),
                wrappers(root), rules(root), review.personTimeout(root), review.rememberDays(root), review.agentAllowRules(root),
                review.agentDialog(root),
                review.llm(root), review.approvals(root),
                auditRequired(root), new FleetReader(in, source.layer()).read(root));
    }

    /** {@code [audit] required}, or null when the file does not set it. */
    private Boolean auditRequired(JsonNode root) {
        JsonNode audit = in.table(root, List.of(), "audit");
        if (audit == null) {
            return null;
        }
        // [audit.otlp] is read by FleetReader
        in.checkKeys(audit, List.of("audit"), Set.of("required", "otlp"));
        return in.bool(audit, List.of("audit"), "required");
    }

    private List<String> absolutePaths(JsonNode table, List<Object> path, String key) {
        List<String> dirs = in.strings(table, path, key, false);
        for (int i = 0; i < dirs.size(); i++) {
            String dir = dirs.get(i);
            if (!dir.startsWith("/") && !dir.startsWith("~/") && !dir.matches("[A-Za-z]:[\\\\/].*")) {
                in.problem(path(path, key, i), "'" + dir + "' must be an absolute path (or start with ~/)");
            }
        }
        return dirs;
    }

    private Map<String, String> shells(JsonNode root) {
        Map<String, String> out = new LinkedHashMap<>();
        JsonNode table = in.table(root, List.of(), "shells");
        if (table == null) {
            return out;
        }
        for (Iterator<String> names = table.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            String dialect = in.string(table, List.of("shells"), name, true);
            if (dialect != null && !dialect.equals("other") && !DIALECTS.contains(dialect)) {
                in.problem(List.of("shells", name), "'" + dialect + "' is not a dialect; use bash, zsh, sh, powershell, cmd or other");
            } else if (dialect != null) {
                out.put(name, dialect);
            }
        }
        return out;
    }

    private List<Programs.Interpreter> interpreters(JsonNode root) {
        List<Programs.Interpreter> out = new ArrayList<>();
        List<JsonNode> tables = in.tables(root, List.of(), "interpreter");
        for (int i = 0; i < tables.size(); i++) {
            JsonNode t = tables.get(i);
            if (t == null) {
                continue;
            }
            List<Object> p = List.of("interpreter", i);
            in.checkKeys(t, p, Set.of("id", "names", "code-options"));
            String id = id(t, p);
            List<String> names = in.strings(t, p, "names", true);
            if (names.isEmpty()) {
                in.problem(p, "'names' must list at least one program name");
            }
            out.add(new Programs.Interpreter(id, names, options(t, p, "code-options")));
        }
        return out;
    }

    private Map<String, Programs.SubcommandProgram> subcommands(JsonNode root) {
        Map<String, Programs.SubcommandProgram> out = new LinkedHashMap<>();
        JsonNode table = in.table(root, List.of(), "subcommands");
        if (table == null) {
            return out;
        }
        for (Iterator<String> names = table.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            JsonNode t = in.table(table, List.of("subcommands"), name);
            if (t == null) {
                continue;
            }
            List<Object> p = List.of("subcommands", name);
            in.checkKeys(t, p, Set.of("global-options", "read-only-global-options"));
            out.put(name, new Programs.SubcommandProgram(options(t, p, "global-options"),
                    options(t, p, "read-only-global-options")));
        }
        return out;
    }

    private List<ReadOnlyCommand> readOnly(JsonNode root) {
        List<ReadOnlyCommand> out = new ArrayList<>();
        List<JsonNode> tables = in.tables(root, List.of(), "read-only");
        for (int i = 0; i < tables.size(); i++) {
            JsonNode t = tables.get(i);
            if (t == null) {
                continue;
            }
            List<Object> p = List.of("read-only", i);
            in.checkKeys(t, p, Set.of("id", "command", "reason", "options", "style", "operands", "max-operands",
                    "min-arguments", "pattern-options", "recursive-options", "hidden-options", "checker", "match", "not-match"));
            String id = id(t, p);
            List<String> commands = commandNames(t, p, "command", true);
            String reason = reason(t, p);
            String style = in.string(t, p, "style", false);
            ReadOnlyCommand.Style parsedStyle = ReadOnlyCommand.Style.GNU;
            if ("words".equals(style)) {
                parsedStyle = ReadOnlyCommand.Style.WORDS;
            } else if ("posix".equals(style)) {
                parsedStyle = ReadOnlyCommand.Style.POSIX;
            } else if ("git".equals(style)) {
                parsedStyle = ReadOnlyCommand.Style.GIT;
            } else if (style != null && !style.equals("gnu")) {
                in.problem(path(p, "style"), "'" + style + "' is not a style; use \"gnu\", \"posix\", \"words\" or \"git\"");
            }
            String operands = in.string(t, p, "operands", false);
            ReadOnlyCommand.Operands parsedOperands = ReadOnlyCommand.Operands.FILES;
            if (operands != null) {
                try {
                    parsedOperands = ReadOnlyCommand.Operands.valueOf(operands.toUpperCase(java.util.Locale.ROOT).replace('-', '_'));
                } catch (IllegalArgumentException e) {
                    in.problem(path(p, "operands"), "'" + operands + "' is not an operand kind; use \"files\", \"pattern-files\", \"text\" or \"none\"");
                }
            }
            Integer max = in.integer(t, p, "max-operands", 0, 1000);
            Integer min = in.integer(t, p, "min-arguments", 0, 1000);
            String checker = in.string(t, p, "checker", false);
            out.add(new ReadOnlyCommand(id, commands, reason, options(t, p, "options"), parsedStyle, parsedOperands,
                    max == null ? -1 : max, min == null ? 0 : min, in.strings(t, p, "pattern-options", false),
                    in.strings(t, p, "recursive-options", false), in.strings(t, p, "hidden-options", false),
                    checker == null ? "" : checker,
                    examples(t, p), in.location(p), source.layer()));
        }
        return out;
    }

    private List<Wrapper> wrappers(JsonNode root) {
        List<Wrapper> out = new ArrayList<>();
        List<JsonNode> tables = in.tables(root, List.of(), "wrapper");
        for (int i = 0; i < tables.size(); i++) {
            JsonNode t = tables.get(i);
            if (t == null) {
                continue;
            }
            List<Object> p = List.of("wrapper", i);
            in.checkKeys(t, p, Set.of("id", "names", "tier", "reason", "options", "operands", "assignments", "match", "not-match"));
            String id = id(t, p);
            Tier tier = tier(t, p, Set.of(Tier.ALLOW, Tier.ASK));
            Integer operands = in.integer(t, p, "operands", 0, 8);
            Boolean assignments = in.bool(t, p, "assignments");
            out.add(new Wrapper(id, commandNames(t, p, "names", false), tier, reason(t, p), options(t, p, "options"),
                    operands == null ? 0 : operands, assignments != null && assignments, examples(t, p), in.location(p),
                    source.layer()));
        }
        return out;
    }

    private List<Rule> rules(JsonNode root) {
        List<Rule> out = new ArrayList<>();
        List<JsonNode> tables = in.tables(root, List.of(), "rule");
        for (int i = 0; i < tables.size(); i++) {
            JsonNode t = tables.get(i);
            if (t == null) {
                continue;
            }
            List<Object> p = List.of("rule", i);
            in.checkKeys(t, p, Set.of("id", "tier", "reason", "instead", "command", "options", "options-any",
                    "options-none", "operands-any", "args-any", "detector", "raw", "dialects", "match", "not-match"));
            String id = id(t, p);
            Tier tier = tier(t, p, Set.of(Tier.ASK, Tier.DENY));
            String instead = in.string(t, p, "instead", false);
            String raw = in.string(t, p, "raw", false);
            if (raw != null) {
                try {
                    com.google.re2j.Pattern.compile(raw);
                } catch (PatternSyntaxException e) {
                    in.problem(path(p, "raw"), "not a valid RE2 regular expression: " + e.getDescription()
                            + " (RE2 has no look-around or back-references)");
                }
            }
            List<String> dialects = in.strings(t, p, "dialects", false);
            for (String d : dialects) {
                if (!DIALECTS.contains(d)) {
                    in.problem(path(p, "dialects"), "'" + d + "' is not a dialect; use " + String.join(", ", DIALECTS));
                }
            }
            Rule.Matcher matcher = matcher(t, p, raw != null);
            out.add(new Rule(id, tier, reason(t, p), instead == null ? "" : instead, matcher, Optional.ofNullable(raw),
                    dialects, examples(t, p), in.location(p), source.layer()));
        }
        return out;
    }

    private Rule.Matcher matcher(JsonNode t, List<Object> p, boolean hasRaw) {
        String detector = in.string(t, p, "detector", false);
        boolean hasCommand = t.has("command");
        if (detector != null && hasCommand) {
            in.problem(p, "a rule has either 'command' or 'detector', not both");
        }
        if (detector != null) {
            for (String key : List.of("options", "options-any", "options-none", "operands-any", "args-any")) {
                if (t.has(key)) {
                    in.problem(path(p, key), "only rules with 'command' take '" + key + "'");
                }
            }
            return new Rule.DetectorMatcher(detector);
        }
        if (!hasCommand) {
            if (!hasRaw) {
                in.problem(p, "a rule needs 'command', 'detector' or 'raw' to say what it matches");
            }
            return new Rule.RawMatcher();
        }
        List<List<String>> groups = new ArrayList<>();
        for (String group : in.strings(t, p, "options", false)) {
            groups.add(List.of(group.split("\\|")));
        }
        return new Rule.CommandMatcher(commandNames(t, p, "command", true), groups,
                in.strings(t, p, "options-any", false), in.strings(t, p, "options-none", false),
                in.strings(t, p, "operands-any", false),
                in.strings(t, p, "args-any", false));
    }

    private String id(JsonNode t, List<Object> p) {
        String id = in.string(t, p, "id", true);
        if (id != null && !KEBAB.matcher(id).matches()) {
            in.problem(path(p, "id"), "'" + id + "' is not a kebab-case id; use lower-case letters, digits and single dashes");
        }
        return id == null ? "" : id;
    }

    private String reason(JsonNode t, List<Object> p) {
        String reason = in.string(t, p, "reason", true);
        if (reason != null && reason.isBlank()) {
            in.problem(path(p, "reason"), "must say, in a sentence, why the rule exists");
        }
        return reason == null ? "" : reason;
    }

    private Tier tier(JsonNode t, List<Object> p, Set<Tier> allowed) {
        String text = in.string(t, p, "tier", true);
        Tier tier = text == null ? null : Tier.parse(text);
        if (text != null && (tier == null || !allowed.contains(tier))) {
            in.problem(path(p, "tier"), "'" + text + "' is not allowed here; use "
                    + String.join(" or ", allowed.stream().sorted().map(Tier::id).toList()));
        }
        return tier == null ? allowed.stream().max(Enum::compareTo).orElseThrow() : tier;
    }

    private List<String> commandNames(JsonNode t, List<Object> p, String key, boolean subcommands) {
        List<String> names = in.strings(t, p, key, true);
        if (names.isEmpty() && t.has(key)) {
            in.problem(path(p, key), "must name at least one command");
        }
        for (String name : names) {
            String[] words = name.trim().split("\\s+");
            if (name.isBlank() || words.length > (subcommands ? 2 : 1)) {
                in.problem(path(p, key), "'" + name + "' must be a program name" + (subcommands ? " or a program and a subcommand" : ""));
            }
        }
        return names.stream().map(n -> n.trim().replaceAll("\\s+", " ")).toList();
    }

    private List<OptionSpec> options(JsonNode t, List<Object> p, String key) {
        List<OptionSpec> out = new ArrayList<>();
        List<String> specs = in.strings(t, p, key, false);
        for (int i = 0; i < specs.size(); i++) {
            try {
                out.add(OptionSpec.parse(specs.get(i)));
            } catch (IllegalArgumentException e) {
                in.problem(path(p, key, i), e.getMessage());
            }
        }
        return out;
    }

    private Examples examples(JsonNode t, List<Object> p) {
        return new Examples(in.strings(t, p, "match", false), in.strings(t, p, "not-match", false));
    }
}
