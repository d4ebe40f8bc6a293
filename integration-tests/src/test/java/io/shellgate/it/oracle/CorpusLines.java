package io.shellgate.it.oracle;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.shellgate.judge.Dialect;
import io.shellgate.rules.Policy;
import io.shellgate.rules.RuleInfo;
import io.shellgate.rules.Tier;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Command lines people wrote as everyday read-only commands: the policy's own examples, the
 * judge's corpus cases that expect allow, and the red team's {@code allow} cases.
 */
final class CorpusLines {

    private CorpusLines() {}

    /** The {@code match} examples of every entry that allows. */
    static List<Candidate> examples(Policy policy) {
        List<Candidate> out = new ArrayList<>();
        for (RuleInfo e : policy.entries()) {
            if (e.tier() == Tier.ALLOW) {
                for (String m : e.examples().match()) {
                    out.add(new Candidate(m, Dialect.BASH, "example of " + e.id()));
                }
            }
        }
        return out;
    }

    /** The allow cases of the judge's own corpus ({@code judge/src/test/resources/corpus/*.txt}). */
    static List<Candidate> ownCorpus(Path dir) throws IOException {
        List<Candidate> out = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".txt")).sorted().toList()) {
                List<String> lines = Files.readAllLines(f, StandardCharsets.UTF_8);
                Dialect dialect = Dialect.BASH;
                if (!lines.isEmpty() && lines.getFirst().startsWith("# dialect: ")) {
                    dialect = Dialect.parse(lines.getFirst().substring("# dialect: ".length()).strip());
                }
                if (dialect == null || !dialect.isPosix()) {
                    continue;
                }
                for (int i = 0; i < lines.size(); i++) {
                    String l = lines.get(i);
                    if (l.startsWith("allow ") || l.startsWith("allow:")) {
                        String command = l.substring(l.indexOf(' ') + 1).replace("⏎", "\n").replace("␍", "\r");
                        out.add(new Candidate(command, dialect, "corpus " + f.getFileName() + ":" + (i + 1)));
                    }
                }
            }
        }
        return out;
    }

    /** The {@code allow} cases of one of the red team's files ({@code redteam.jsonl}, {@code redteam3.jsonl}). */
    static List<Candidate> redTeam(Path file) throws IOException {
        ObjectMapper mapper = new ObjectMapper();
        List<Candidate> out = new ArrayList<>();
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).isBlank()) {
                continue;
            }
            JsonNode n = mapper.readTree(lines.get(i));
            Dialect dialect = Dialect.parse(n.path("dialect").asText("bash"));
            if (n.path("expect").asText().equals("allow") && dialect != null && dialect.isPosix()) {
                out.add(new Candidate(n.get("cmd").asText(), dialect, file.getFileName() + ":" + (i + 1)));
            }
        }
        return out;
    }
}
