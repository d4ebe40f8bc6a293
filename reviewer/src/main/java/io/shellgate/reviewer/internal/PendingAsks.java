package io.shellgate.reviewer.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.shellgate.judge.Reason;
import io.shellgate.reviewer.Answer;
import io.shellgate.reviewer.PendingAsk;
import io.shellgate.rules.JsonTrees;
import io.shellgate.rules.Tier;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * Asks waiting for a person, as files in {@code pending/} of the state directory, so that
 * {@code shellgate approvals} in another terminal can list and answer them. An ask is
 * {@code ID.json}; an answer is {@code ID.answer}, created exclusively (a second answer fails) and
 * read only by the process that published that id. Ids are random and used once, so an answer
 * cannot be replayed for a later look-alike command.
 */
public final class PendingAsks {

    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final Duration POLL = Duration.ofMillis(100);

    private final Path dir;

    public PendingAsks(Path stateDir) {
        this.dir = stateDir.resolve("pending");
    }

    /** A pending ask as listed: what a person needs to decide, and until when it waits. */
    public record Listed(String id, Instant since, Instant until, String entry, long pid, String detail, String cwd,
            String command, List<String> reasons) {}

    /**
     * Publishes an ask, waits for an answer until {@code deadline}, and withdraws it; stops
     * waiting, with no answer, as soon as {@code answeredElsewhere} says so.
     */
    Optional<Answer> await(PendingAsk ask, Instant deadline, BooleanSupplier answeredElsewhere)
            throws IOException, InterruptedException {
        StateDir.ensure(dir);
        Path json = dir.resolve(ask.id() + ".json");
        Path answer = dir.resolve(ask.id() + ".answer");
        writeAtomically(json, JsonTrees.write(describe(ask, deadline)));
        try {
            while (Instant.now().isBefore(deadline)) {
                Optional<Answer> a = read(answer, ask.id());
                if (a.isPresent()) {
                    return a;
                }
                if (answeredElsewhere.getAsBoolean()) {
                    return Optional.empty();
                }
                Thread.sleep(POLL);
            }
            return read(answer, ask.id());
        } finally {
            Files.deleteIfExists(json);
            Files.deleteIfExists(answer);
        }
    }

    /** Checks for an answer without waiting. */
    Optional<Answer> poll(String id) {
        return read(dir.resolve(id + ".answer"), id);
    }

    private static Optional<Answer> read(Path answer, String id) {
        try {
            JsonNode node = JsonTrees.parse(Files.readString(answer, StandardCharsets.UTF_8));
            if (node == null || !id.equals(node.path("id").asText())) {
                return Optional.empty();
            }
            return Optional.ofNullable(Answer.parse(node.path("answer").asText()));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** The asks waiting now, oldest first. */
    public List<Listed> list() throws IOException {
        List<Listed> out = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return out;
        }
        Instant now = Instant.now();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*.json")) {
            for (Path f : files) {
                try {
                    JsonNode n = JsonTrees.parse(Files.readString(f, StandardCharsets.UTF_8));
                    Instant until = Instant.parse(n.path("until").asText());
                    long owner = n.path("owner").asLong();
                    if (until.isBefore(now) || ProcessHandle.of(owner).isEmpty()) {
                        Files.deleteIfExists(f); // its process timed out or died: nobody waits for it
                        continue;
                    }
                    List<String> reasons = new ArrayList<>();
                    n.path("reasons").forEach(r -> reasons.add(r.asText()));
                    out.add(new Listed(n.path("id").asText(), Instant.parse(n.path("since").asText()), until,
                            n.path("entry").asText(), n.path("pid").asLong(), n.path("detail").asText(), n.path("cwd").asText(),
                            n.path("cmd").asText(), reasons));
                } catch (IOException | RuntimeException e) {
                    // a file being written or removed right now
                }
            }
        }
        out.sort((a, b) -> a.since().compareTo(b.since()));
        return out;
    }

    /**
     * Answers the ask with this id (or the one pending ask whose id starts with it).
     *
     * @return the full id answered
     * @throws IllegalArgumentException when no pending ask matches, several do, or it was answered already
     */
    public String answer(String idOrPrefix, Answer answer, String by) throws IOException {
        List<Listed> matching = list().stream().filter(l -> l.id().startsWith(idOrPrefix)).toList();
        if (idOrPrefix.length() < 4 || matching.isEmpty()) {
            throw new IllegalArgumentException("no pending ask has the id " + idOrPrefix
                    + " (it was answered already, timed out, or never existed); list them with: shellgate approvals");
        }
        if (matching.size() > 1) {
            throw new IllegalArgumentException("the id " + idOrPrefix + " matches " + matching.size()
                    + " pending asks; give more of it");
        }
        String id = matching.getFirst().id();
        ObjectNode node = F.objectNode().put("id", id).put("answer", answer.id()).put("by", by)
                .put("time", Instant.now().toString());
        Path tmp = dir.resolve("." + id + ".answer-" + ProcessHandle.current().pid());
        Files.writeString(tmp, JsonTrees.write(node), StandardCharsets.UTF_8);
        try {
            // a hard link fails when the answer exists: exactly one answer per ask
            Files.createLink(dir.resolve(id + ".answer"), tmp);
        } catch (FileAlreadyExistsException e) {
            throw new IllegalArgumentException("the ask " + id + " has been answered already");
        } finally {
            Files.deleteIfExists(tmp);
        }
        return id;
    }

    private static ObjectNode describe(PendingAsk ask, Instant deadline) {
        ObjectNode n = F.objectNode();
        n.put("v", 1).put("id", ask.id()).put("since", Instant.now().toString()).put("until", deadline.toString())
                .put("owner", ProcessHandle.current().pid())
                .put("entry", ask.origin().entry().id()).put("pid", ask.origin().pid()).put("detail", ask.origin().detail())
                .put("cwd", ask.request().cwd().toString()).put("cmd", ask.request().command());
        ArrayNode reasons = n.putArray("reasons");
        for (Reason r : ask.verdict().reasons()) {
            if (r.tier() == Tier.ASK) {
                reasons.add(r.rule() + ": " + r.message());
            }
        }
        return n;
    }

    private static void writeAtomically(Path file, String text) throws IOException {
        Path tmp = file.resolveSibling("." + file.getFileName() + ".tmp");
        Files.writeString(tmp, text, StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }
}
