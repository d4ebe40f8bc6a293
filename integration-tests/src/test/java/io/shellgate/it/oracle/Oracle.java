package io.shellgate.it.oracle;

import io.shellgate.judge.CommandInfo;
import io.shellgate.judge.Envelopes;
import io.shellgate.judge.Judge;
import io.shellgate.judge.JudgeRequest;
import io.shellgate.judge.Reason;
import io.shellgate.judge.Span;
import io.shellgate.judge.Verdict;
import io.shellgate.rules.Tier;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The execution oracle: judges candidate lines in the world's environment, runs the allowed ones
 * in the sandbox, and inspects what each one did.
 */
final class Oracle {

    /**
     * A candidate with the judge's tier; {@code undecided} when this machine cannot say whether the
     * judge allows it: a program it names is not installed here, or the judge ran out of its time
     * budget (a verdict that depends on how busy the machine is).
     */
    record Judged(Candidate candidate, Tier tier, boolean undecided, JudgedPrograms programs) {}

    /** What an allowed line did: its findings, and whether it ran into its time limit. */
    record Result(Candidate candidate, List<Finding> findings, boolean timedOut, double millis) {}

    /** Everything one run of the oracle produced. */
    record Run(List<Judged> judged, List<Result> results, long judgeMillis, long runMillis, double cpuSeconds) {

        List<Result> withFindings() {
            return results.stream().filter(r -> !r.findings().isEmpty()).toList();
        }
    }

    private final World world;
    private final Judge judge;
    private final Set<String> shells;
    private final Path work;
    private final int workers;
    private final String agent;

    /** An oracle judging with {@code judge}, whose policy names {@code shells}. */
    Oracle(World world, Judge judge, Set<String> shells, Path work, int workers) {
        this(world, judge, shells, work, workers, null);
    }

    /**
     * An oracle whose lines come from {@code agent} (an id of {@link Envelopes#agents()}), or from
     * no agent when null: a line that is the agent's envelope is judged as the server judges it,
     * the command inside in the environment the envelope gives it, and runs as it is, envelope and all.
     */
    Oracle(World world, Judge judge, Set<String> shells, Path work, int workers, String agent) {
        this.world = world;
        this.judge = judge;
        this.shells = shells;
        this.work = work;
        this.workers = workers;
        this.agent = agent;
    }

    Run run(List<Candidate> candidates) throws IOException, InterruptedException {
        return run(candidates, false);
    }

    /**
     * Judges the candidates and runs the allowed ones, or with {@code everyLine} every one whatever
     * the verdict (to show that a hostile fixture's trap is armed: its lines must have findings).
     */
    Run run(List<Candidate> candidates, boolean everyLine) throws IOException, InterruptedException {
        Map<String, Candidate> unique = new LinkedHashMap<>();
        for (Candidate c : candidates) {
            unique.putIfAbsent(c.dialect().id() + "\t" + c.line(), c);
        }
        long t0 = System.nanoTime();
        List<Judged> judged = new ArrayList<>();
        for (Candidate c : unique.values()) {
            JudgeRequest request = new JudgeRequest(c.line(), c.dialect(), world.proj, world.environment());
            Verdict v = null;
            if (agent != null) {
                // as the server does with a request that names its agent
                Optional<Envelopes.Unwrapped> envelope = Envelopes.unwrap(agent, request);
                if (envelope.isPresent() && envelope.get().isProbe()) {
                    v = new Verdict(Tier.ALLOW, List.of(new Reason("agent-probe", Tier.ALLOW, "a start-up probe of " + agent,
                            Span.NONE)), List.of());
                } else if (envelope.isPresent()) {
                    request = envelope.get().inner();
                }
            }
            v = v != null ? v : judge.judge(request);
            boolean undecided = v.commands().stream().map(CommandInfo::resolved).anyMatch("not found"::equals)
                    || v.reasons().stream().anyMatch(r -> r.rule().equals("time-budget"));
            judged.add(new Judged(c, v.tier(), undecided,
                    v.tier() == Tier.ALLOW || everyLine ? JudgedPrograms.of(v, request.command(), shells) : null));
        }
        long t1 = System.nanoTime();
        List<SandboxRun.Line> lines = new ArrayList<>();
        List<Judged> allowed = judged.stream().filter(j -> everyLine || j.tier() == Tier.ALLOW).toList();
        for (int i = 0; i < allowed.size(); i++) {
            lines.add(new SandboxRun.Line("%05d".formatted(i), allowed.get(i).candidate()));
        }
        SandboxRun sandbox = new SandboxRun(world, work);
        sandbox.check();
        double cpu = sandbox.run(lines, workers);
        Inspector inspector = new Inspector(world);
        List<Result> results = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            Path dir = sandbox.dir(lines.get(i).id());
            Candidate c = allowed.get(i).candidate();
            SortedMap<Integer, List<TraceLine>> traces = traces(dir);
            String output = read(dir.resolve("output"), 8 << 20);
            String[] status = read(dir.resolve("status"), 1000).strip().split(" ");
            List<Finding> findings = new ArrayList<>(
                    inspector.inspect(traces, output, allowed.get(i).programs(), SandboxRun.shell(c.dialect())));
            if (traces.isEmpty() || status[0].equals(SandboxRun.GUARD_STATUS) || status.length < 3) {
                findings.add(new Finding(Finding.Kind.INCOMPLETE, "strace had to be killed, so the trace may lack"
                        + " the line's end"));
            }
            results.add(new Result(c, List.copyOf(findings), status[0].equals(SandboxRun.LIMIT_STATUS), millis(status)));
            if (findings.isEmpty()) {
                delete(dir); // the traces of clean lines add up to hundreds of megabytes
            }
        }
        return new Run(judged, results, (t1 - t0) / 1_000_000, (System.nanoTime() - t1) / 1_000_000, cpu);
    }

    /** How long the line took, from the driver's clock: for the report only, never for a verdict. */
    private static double millis(String[] status) {
        try {
            return status.length < 3 ? 0 : (Double.parseDouble(status[2]) - Double.parseDouble(status[1])) * 1000;
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static SortedMap<Integer, List<TraceLine>> traces(Path dir) throws IOException {
        SortedMap<Integer, List<TraceLine>> out = new TreeMap<>();
        if (!Files.isDirectory(dir)) {
            return out;
        }
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.getFileName().toString().startsWith("trace.")).toList()) {
                int pid = Integer.parseInt(f.getFileName().toString().substring("trace.".length()));
                List<TraceLine> lines = new ArrayList<>();
                for (String l : read(f, Integer.MAX_VALUE).split("\n")) {
                    TraceLine t = TraceLine.parse(l);
                    if (t != null) {
                        lines.add(t);
                    }
                }
                out.put(pid, lines);
            }
        }
        return out;
    }

    /** Deletes a directory tree (the world, a line's results). */
    static void delete(Path dir) throws IOException {
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    /** The start of a file's text, with bytes that are not UTF-8 replaced (traces and outputs hold whatever the line printed). */
    static String read(Path file, int max) throws IOException {
        if (!Files.isRegularFile(file)) {
            return "";
        }
        try (InputStream in = Files.newInputStream(file)) {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPLACE)
                    .onUnmappableCharacter(CodingErrorAction.REPLACE)
                    .decode(ByteBuffer.wrap(in.readNBytes(max))).toString();
        }
    }
}
