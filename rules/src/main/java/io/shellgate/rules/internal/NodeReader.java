package io.shellgate.rules.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.shellgate.rules.SourceLocation;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads typed values out of a Jackson tree, collecting every problem with its file:line:column
 * instead of stopping at the first one.
 */
final class NodeReader {

    private final String file;
    private final TomlLocator locator;
    private final List<String> problems = new ArrayList<>();

    NodeReader(String file, TomlLocator locator) {
        this.file = file;
        this.locator = locator;
    }

    List<String> problems() {
        return problems;
    }

    SourceLocation location(List<Object> path) {
        int[] at = locator.locate(path);
        return new SourceLocation(file, at[0], at[1]);
    }

    void problem(List<Object> path, String message) {
        problems.add(location(path) + ": " + describe(path) + ": " + message);
    }

    static List<Object> path(List<Object> base, Object... more) {
        List<Object> p = new ArrayList<>(base);
        p.addAll(List.of(more));
        return p;
    }

    private static String describe(List<Object> path) {
        StringBuilder sb = new StringBuilder();
        for (Object segment : path) {
            if (segment instanceof Integer i) {
                sb.append('[').append(i + 1).append(']');
            } else {
                if (!sb.isEmpty()) {
                    sb.append('.');
                }
                sb.append(segment);
            }
        }
        return sb.isEmpty() ? "policy" : sb.toString();
    }

    /** Reports keys of {@code table} that are not in {@code known}. */
    void checkKeys(JsonNode table, List<Object> path, Set<String> known) {
        for (Iterator<String> names = table.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!known.contains(name)) {
                problem(path(path, name), "unknown key; the keys here are " + String.join(", ", known.stream().sorted().toList()));
            }
        }
    }

    JsonNode table(JsonNode parent, List<Object> path, String key) {
        JsonNode node = parent.get(key);
        if (node == null) {
            return null;
        }
        if (!node.isObject()) {
            problem(path(path, key), "must be a table");
            return null;
        }
        return node;
    }

    String string(JsonNode parent, List<Object> path, String key, boolean required) {
        JsonNode node = parent.get(key);
        if (node == null) {
            if (required) {
                problem(path, "the key '" + key + "' is required");
            }
            return null;
        }
        if (!node.isTextual()) {
            problem(path(path, key), "must be a string, written in quotes");
            return null;
        }
        return node.asText();
    }

    Integer integer(JsonNode parent, List<Object> path, String key, int min, int max) {
        JsonNode node = parent.get(key);
        if (node == null) {
            return null;
        }
        if (!node.isIntegralNumber() || node.asLong() < min || node.asLong() > max) {
            problem(path(path, key), "must be a whole number from " + min + " to " + max);
            return null;
        }
        return node.asInt();
    }

    Boolean bool(JsonNode parent, List<Object> path, String key) {
        JsonNode node = parent.get(key);
        if (node == null) {
            return null;
        }
        if (!node.isBoolean()) {
            problem(path(path, key), "must be true or false");
            return null;
        }
        return node.asBoolean();
    }

    /** A list of strings; a single string is accepted where {@code single} is true. */
    List<String> strings(JsonNode parent, List<Object> path, String key, boolean single) {
        JsonNode node = parent.get(key);
        List<String> out = new ArrayList<>();
        if (node == null) {
            return out;
        }
        if (single && node.isTextual()) {
            out.add(node.asText());
            return out;
        }
        if (!node.isArray()) {
            problem(path(path, key), single ? "must be a string or a list of strings" : "must be a list of strings, like [\"a\", \"b\"]");
            return out;
        }
        for (int i = 0; i < node.size(); i++) {
            JsonNode item = node.get(i);
            if (!item.isTextual()) {
                problem(path(path, key, i), "must be a string, written in quotes");
            } else {
                out.add(item.asText());
            }
        }
        return out;
    }

    /** A table of string lists ({@code [paths]}, {@code [builtins]}). */
    Map<String, List<String>> stringLists(JsonNode parent, List<Object> path, String key) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        JsonNode table = table(parent, path, key);
        if (table == null) {
            return out;
        }
        for (Iterator<String> names = table.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            out.put(name, strings(table, path(path, key), name, false));
        }
        return out;
    }

    /** The tables of a TOML array of tables ({@code [[rule]]}). */
    List<JsonNode> tables(JsonNode parent, List<Object> path, String key) {
        JsonNode node = parent.get(key);
        List<JsonNode> out = new ArrayList<>();
        if (node == null) {
            return out;
        }
        if (!node.isArray()) {
            problem(path(path, key), "must be written as [[" + key + "]] tables");
            return out;
        }
        for (int i = 0; i < node.size(); i++) {
            if (!node.get(i).isObject()) {
                problem(path(path, key, i), "must be a table");
                out.add(null);
            } else {
                out.add(node.get(i));
            }
        }
        return out;
    }
}
