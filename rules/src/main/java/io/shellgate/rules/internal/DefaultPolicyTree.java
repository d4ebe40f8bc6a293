package io.shellgate.rules.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import io.shellgate.rules.JsonTrees;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The built-in default policy, parsed at build time: its TOML tree stored as JSON next to it,
 * with the length and hash of the text it came from. Reading JSON in a cold JVM takes a few
 * milliseconds where the TOML parser takes 150; a tree that does not belong to the text is
 * ignored and the TOML is parsed.
 */
public final class DefaultPolicyTree {

    static final String TREE_RESOURCE = "/io/shellgate/rules/default-policy.tree.json";
    private static final String TOML_PATH = "io/shellgate/rules/default-policy.toml";

    private DefaultPolicyTree() {}

    /** The stored tree, if there is one made from exactly this text. */
    static JsonNode forText(String text) {
        try (InputStream in = DefaultPolicyTree.class.getResourceAsStream(TREE_RESOURCE)) {
            if (in == null) {
                return null;
            }
            JsonNode stored = JsonTrees.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            if (stored == null) {
                return null;
            }
            if (stored.path("length").asInt(-1) != text.length() || stored.path("hash").asInt() != text.hashCode()) {
                return null;
            }
            JsonNode tree = stored.get("tree");
            return tree != null && tree.isObject() ? tree : null;
        } catch (IOException e) {
            return null;
        }
    }

    /** Build step: writes the tree for the TOML in the class output directory {@code args[0]}. */
    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            throw new IllegalArgumentException("usage: DefaultPolicyTree CLASSES_DIRECTORY");
        }
        Path dir = Path.of(args[0]);
        String text = Files.readString(dir.resolve(TOML_PATH), StandardCharsets.UTF_8);
        ObjectNode stored = JsonNodeFactory.instance.objectNode();
        stored.put("length", text.length());
        stored.put("hash", text.hashCode());
        stored.set("tree", new TomlMapper().readTree(text));
        Files.writeString(dir.resolve(TREE_RESOURCE.substring(1)), JsonTrees.write(stored), StandardCharsets.UTF_8);
    }
}
