package io.shellgate.judge.internal.powershell;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What a pipeline stage passes to the next, as far as a path parameter downstream may bind it:
 * by value (a string is a path) or by property name (the properties the cmdlet's metadata lets
 * bind to a path parameter, see {@link PsBinding#byPropertyName}). A reading cmdlet without a path
 * of its own reads what arrives.
 */
sealed interface PsFlow {

    /** Reads ConvertFrom-Json text (strict JSON: PowerShell's lenient forms are not followed, so they ask). */
    com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();

    /** The properties Select-Object keeps a listing's items by: each names the item's path. */
    Set<String> PATH_PROPERTIES = Set.of("path", "literalpath", "pspath", "lp", "fullname", "filepath");
    /** The parameters whose values a cmdlet reads or looks up as paths. */
    Set<String> PATH_PARAMETERS = Set.of("Path", "LiteralPath", "FilePath");

    /** Nothing comes down the pipeline: the first stage, or one that writes to the host only. */
    record None() implements PsFlow {}

    /** Strings; a null entry is text not known here (a program's output, a file's lines). */
    record Strings(List<String> values) implements PsFlow {

        public Strings {
            values = new ArrayList<>(values);
        }

        static Strings unknown() {
            List<String> one = new ArrayList<>();
            one.add(null);
            return new Strings(one);
        }
    }

    /** Objects with these properties (lower-case names); a null value is not known here. */
    record Objects(Map<String, List<String>> properties) implements PsFlow {

        /**
         * The values the objects bind by property name to the parameters {@code params} of
         * {@code spec} ({@link PsBinding#byPropertyName}), and those of the properties that bind
         * to no parameter: an object none of whose properties binds is PowerShell's "the input
         * object cannot be bound" error, and as the objects are merged here, which object a
         * property came from is not known, so such values are checked as paths too (shellgate does
         * not rely on the error). For a cmdlet whose metadata is not known, every value is.
         */
        List<String> paths(PsCmdlets.Cmdlet spec, Set<String> params) {
            List<String> out = new ArrayList<>();
            if (spec == null) {
                properties.values().forEach(out::addAll);
                return out;
            }
            PsBinding.byPropertyName(spec, properties, Set.of()).forEach((param, values) -> {
                if (params.contains(param)) {
                    out.addAll(values);
                }
            });
            properties.forEach((name, values) -> {
                if (PsBinding.byPropertyName(spec, Map.of(name, values), Set.of()).isEmpty()) {
                    out.addAll(values);
                }
            });
            return out;
        }
    }

    /** File system items that Get-ChildItem or Get-Item output. */
    record Items(List<Listing> listings) implements PsFlow {}

    /** Objects this judge does not follow: any of their properties may be a path; {@code type} is their type when known. */
    record Unknown(String what, String type) implements PsFlow {

        Unknown(String what) {
            this(what, null);
        }
    }

    /** The .NET type of the values (of each element of a collection), or null when it is not known. */
    default String type() {
        return switch (this) {
            case None n -> null;
            case Strings s -> PsTypes.STRING;
            case Objects o -> PsTypes.CUSTOM;
            case Items i -> PsTypes.ITEM;
            case Unknown u -> u.type();
        };
    }

    /**
     * Items of one path: the item itself (Get-Item), the entries under it (Get-ChildItem), or
     * everything below it (-Recurse), those whose names pass {@code include} (null: all).
     */
    record Listing(String path, boolean children, boolean recursive, List<String> include) {}

    /** The paths a listing hands down to {@code spec}, for the policy's rules ({@code C:\} lists {@code C:\*}). */
    static List<String> listed(PsFlow flow, PsCmdlets.Cmdlet spec) {
        List<String> out = new ArrayList<>();
        switch (flow) {
            case Items i -> i.listings().forEach(l -> out.add(l.children() ? l.path() + "\\*" : l.path()));
            case Strings s -> s.values().stream().filter(v -> v != null).forEach(out::add);
            case Objects o -> o.paths(spec, PATH_PARAMETERS).stream().filter(v -> v != null).forEach(out::add);
            case None n -> {
                // nothing listed
            }
            case Unknown u -> {
                // not known
            }
        }
        return out;
    }

    /** Objects with one property each, from a JSON text's top-level object or array of objects; null when it is not that. */
    static Objects json(String text) {
        com.fasterxml.jackson.databind.JsonNode root;
        try {
            root = JSON.readTree(text);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return null;
        }
        if (root == null) {
            return null;
        }
        Map<String, List<String>> props = new LinkedHashMap<>();
        List<com.fasterxml.jackson.databind.JsonNode> objects = new ArrayList<>();
        if (root.isArray()) {
            root.forEach(objects::add);
        } else {
            objects.add(root);
        }
        for (com.fasterxml.jackson.databind.JsonNode o : objects) {
            if (!o.isObject()) {
                continue;
            }
            o.properties().forEach(e -> props.computeIfAbsent(e.getKey().toLowerCase(Locale.ROOT), k -> new ArrayList<>())
                    .add(e.getValue().isValueNode() ? e.getValue().asText() : null));
        }
        return new Objects(props);
    }
}
