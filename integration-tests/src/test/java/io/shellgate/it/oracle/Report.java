package io.shellgate.it.oracle;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes what a run found: {@code findings.jsonl} (one object per line with findings) and
 * {@code summary.txt} (counts, the findings grouped by class and program, the slowest lines).
 */
final class Report {

    private final World world;

    Report(World world) {
        this.world = world;
    }

    /** A finding's detail with the world's temporary paths written as {@code ~} and {@code <world>}. */
    String detail(Finding f) {
        return f.detail().replace(world.home.toString(), "~").replace(world.root.toString(), "<world>");
    }

    void write(Oracle.Run run, Path dir, long generateMillis) throws IOException {
        Files.createDirectories(dir);
        ObjectMapper mapper = new ObjectMapper();
        StringBuilder jsonl = new StringBuilder();
        for (Oracle.Result r : run.withFindings()) {
            ObjectNode o = mapper.createObjectNode();
            o.put("dialect", r.candidate().dialect().id());
            o.put("line", r.candidate().line());
            o.put("origin", r.candidate().origin());
            o.put("timedOut", r.timedOut());
            ArrayNode fs = o.putArray("findings");
            for (Finding f : r.findings()) {
                fs.addObject().put("kind", f.kind().id()).put("detail", detail(f));
            }
            jsonl.append(mapper.writeValueAsString(o)).append('\n');
        }
        Files.writeString(dir.resolve("findings.jsonl"), jsonl.toString(), StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("summary.txt"), summary(run, generateMillis), StandardCharsets.UTF_8);
    }

    String summary(Oracle.Run run, long generateMillis) {
        long allowed = run.results().size();
        StringBuilder sb = new StringBuilder();
        sb.append("execution oracle: ").append(run.judged().size()).append(" candidate lines, ").append(allowed)
                .append(" allowed and run, ").append(run.withFindings().size()).append(" with findings, ")
                .append(run.results().stream().filter(Oracle.Result::timedOut).count()).append(" ran into the ")
                .append(SandboxRun.LIMIT_SECONDS).append(" s limit\n");
        sb.append("time: generating ").append(generateMillis / 1000.0).append(" s, judging ").append(run.judgeMillis() / 1000.0)
                .append(" s, running ").append(run.runMillis() / 1000.0).append(" s (the sandboxes used ")
                .append(Math.round(run.cpuSeconds())).append(" s of processor time)\n\n");
        // class -> program -> lines
        Map<Finding.Kind, Map<String, List<Oracle.Result>>> groups = new TreeMap<>();
        for (Oracle.Result r : run.withFindings()) {
            for (Finding.Kind k : r.findings().stream().map(Finding::kind).distinct().toList()) {
                groups.computeIfAbsent(k, x -> new TreeMap<>()).computeIfAbsent(program(r.candidate().display()),
                        x -> new ArrayList<>()).add(r);
            }
        }
        groups.forEach((kind, byProgram) -> {
            sb.append("== ").append(kind.id()).append(" (").append(byProgram.values().stream().mapToInt(List::size).sum())
                    .append(" lines)\n");
            byProgram.forEach((program, results) -> {
                Oracle.Result first = results.getFirst();
                Finding f = first.findings().stream().filter(x -> x.kind() == kind).findFirst().orElseThrow();
                sb.append("  ").append(program).append(": ").append(results.size()).append(" lines, e.g. ")
                        .append(first.candidate().display()).append("  ->  ").append(detail(f)).append('\n');
            });
        });
        sb.append("\nslowest lines (ms):\n");
        run.results().stream().sorted(Comparator.comparingDouble(Oracle.Result::millis).reversed()).limit(10)
                .forEach(r -> sb.append("  ").append((long) r.millis()).append("  ").append(r.candidate().display()).append('\n'));
        return sb.toString();
    }

    /** The program a line is about: its first word, and the second for programs with subcommands. */
    static String program(String line) {
        String[] words = line.strip().split(" ");
        String first = words[0];
        int i = 0;
        while (i < words.length - 1 && words[i].contains("=") && !words[i].startsWith("-")) {
            first = words[++i]; // VAR=value cmd
        }
        if (List.of("git", "npm", "pip", "pip3", "docker", "go", "kubectl", "systemctl", "ip", "cargo").contains(first)
                && i + 1 < words.length && !words[i + 1].startsWith("-")) {
            return first + " " + words[i + 1];
        }
        return first;
    }
}
