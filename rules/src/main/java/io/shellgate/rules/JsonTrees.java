package io.shellgate.rules;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * JSON trees read and written with Jackson's streaming parser and generator only. A cold JVM
 * takes over 100 ms to build its first {@code ObjectMapper}; the drop-in shell's path without a
 * server reads one request and writes one reply, and should not pay for that. Nesting is bounded
 * by the parser's own limits (1,000 levels), so hostile input gets an exception, not a stack
 * overflow.
 */
public final class JsonTrees {

    private static final JsonFactory FACTORY = new JsonFactory();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private JsonTrees() {}

    /** The tree of one JSON document; null for empty input. */
    public static JsonNode parse(String text) throws IOException {
        try (JsonParser p = FACTORY.createParser(text)) {
            JsonToken first = p.nextToken();
            if (first == null) {
                return null;
            }
            JsonNode node = read(p, first);
            if (p.nextToken() != null) {
                throw new JsonParseException(p, "more than one JSON value");
            }
            return node;
        }
    }

    private static JsonNode read(JsonParser p, JsonToken token) throws IOException {
        return switch (token) {
            case START_OBJECT -> {
                ObjectNode o = NODES.objectNode();
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String name = p.currentName();
                    o.set(name, read(p, p.nextToken()));
                }
                yield o;
            }
            case START_ARRAY -> {
                ArrayNode a = NODES.arrayNode();
                JsonToken t;
                while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
                    if (t == null) {
                        throw new JsonParseException(p, "unexpected end of input in an array");
                    }
                    a.add(read(p, t));
                }
                yield a;
            }
            case VALUE_STRING -> NODES.textNode(p.getText());
            case VALUE_NUMBER_INT -> switch (p.getNumberType()) {
                case INT -> NODES.numberNode(p.getIntValue());
                case LONG -> NODES.numberNode(p.getLongValue());
                default -> NODES.numberNode(p.getBigIntegerValue());
            };
            case VALUE_NUMBER_FLOAT -> NODES.numberNode(p.getDoubleValue());
            case VALUE_TRUE -> NODES.booleanNode(true);
            case VALUE_FALSE -> NODES.booleanNode(false);
            case VALUE_NULL -> NODES.nullNode();
            default -> throw new JsonParseException(p, "unexpected " + token);
        };
    }

    /** Compact JSON text of a tree, as {@code JsonNode.toString()} gives it. */
    public static String write(JsonNode node) {
        StringWriter out = new StringWriter(256);
        try (JsonGenerator g = FACTORY.createGenerator(out)) {
            write(g, node);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    private static void write(JsonGenerator g, JsonNode node) throws IOException {
        switch (node.getNodeType()) {
            case OBJECT -> {
                g.writeStartObject();
                for (Map.Entry<String, JsonNode> e : node.properties()) {
                    g.writeFieldName(e.getKey());
                    write(g, e.getValue());
                }
                g.writeEndObject();
            }
            case ARRAY -> {
                g.writeStartArray();
                for (JsonNode element : node) {
                    write(g, element);
                }
                g.writeEndArray();
            }
            case STRING -> g.writeString(node.textValue());
            case NUMBER -> {
                if (node.isIntegralNumber()) {
                    if (node.canConvertToLong()) {
                        g.writeNumber(node.longValue());
                    } else {
                        g.writeNumber(node.bigIntegerValue());
                    }
                } else {
                    g.writeNumber(node.doubleValue());
                }
            }
            case BOOLEAN -> g.writeBoolean(node.booleanValue());
            case NULL, MISSING -> g.writeNull();
            default -> g.writeString(node.asText());
        }
    }
}
