package io.shellgate.judge;

import io.shellgate.rules.Tier;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * One line of the own corpus: {@code tier[:rule] command}, with {@code ⏎} for a newline and
 * {@code ␍} for a carriage return. A file whose first line is {@code # dialect: zsh} is judged
 * in that dialect.
 */
record CorpusCase(String file, int line, Tier tier, String rule, String command, Dialect dialect) {

    static List<CorpusCase> all() {
        URL dir = CorpusCase.class.getResource("/corpus");
        try (Stream<Path> files = Files.list(Path.of(dir.toURI()))) {
            List<CorpusCase> out = new ArrayList<>();
            for (Path f : files.filter(p -> p.toString().endsWith(".txt")).sorted().toList()) {
                out.addAll(read(f.getFileName().toString(), Files.readString(f, StandardCharsets.UTF_8)));
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    static List<CorpusCase> read(String name, String text) {
        List<CorpusCase> out = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        Dialect dialect = Dialect.BASH;
        if (lines.length > 0 && lines[0].startsWith("# dialect: ")) {
            dialect = Dialect.parse(lines[0].substring("# dialect: ".length()).strip());
        }
        for (int i = 0; i < lines.length; i++) {
            String l = lines[i];
            if (l.isBlank() || l.startsWith("#")) {
                continue;
            }
            int space = l.indexOf(' ');
            String head = space < 0 ? l : l.substring(0, space);
            String command = space < 0 ? "" : l.substring(space + 1).replace("⏎", "\n").replace("␍", "\r");
            String[] parts = head.split(":", 2);
            Tier tier = Tier.parse(parts[0]);
            if (tier == null) {
                throw new IllegalArgumentException(name + ":" + (i + 1) + ": a case starts with allow, ask or deny");
            }
            out.add(new CorpusCase(name, i + 1, tier, parts.length > 1 ? parts[1] : null, command, dialect));
        }
        return out;
    }

    static String resource(String path) {
        try (InputStream in = CorpusCase.class.getResourceAsStream(path)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public String toString() {
        return command.replace("\n", "⏎").replace("\r", "␍");
    }
}
