package io.shellgate.judge.internal.windows;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Environment variable names that mark a secret: a word such as {@code TOKEN}, {@code SECRET},
 * {@code PASSWORD}, {@code KEY} or {@code CREDENTIALS} in the name ({@code GITHUB_TOKEN},
 * {@code AWS_SECRET_ACCESS_KEY}, {@code GitHubToken}), or an address that carries a password
 * ({@code DATABASE_URL}, {@code MONGODB_URI}, {@code *_CONNECTION_STRING}, {@code SENTRY_DSN}).
 */
public final class SecretNames {

    private static final Set<String> WORDS = Set.of("TOKEN", "TOKENS", "SECRET", "SECRETS", "PASSWORD", "PASSWORDS",
            "PASSWD", "PASS", "PASSPHRASE", "PWD", "KEY", "KEYS", "APIKEY", "CREDENTIAL", "CREDENTIALS", "CREDS", "AUTH",
            "COOKIE", "COOKIES", "PAT", "DSN", "SAS", "JWT", "BEARER", "OAUTH", "WEBHOOK", "PRIVATE", "SIGNATURE",
            "CONNECTIONSTRING");
    private static final List<String> GLUED = List.of("TOKEN", "SECRET", "PASSWORD", "PASSWD", "APIKEY", "ACCESSKEY",
            "PRIVATEKEY", "CREDENTIAL", "AUTHTOKEN");
    private static final Set<String> STORES = Set.of("DATABASE", "DB", "REDIS", "MONGO", "MONGODB", "POSTGRES",
            "POSTGRESQL", "PG", "MYSQL", "AMQP", "RABBITMQ", "BROKER", "CONNECTION", "SQL");
    /** Names that hold one of the words but no secret. */
    private static final Set<String> PLAIN = Set.of("PWD", "OLDPWD", "SSH_AUTH_SOCK", "KEYBOARD_LAYOUT", "PASSWORD_STORE_DIR");

    private SecretNames() {}

    /** Whether the variable {@code name} (any case) holds a secret by the look of its name. */
    public static boolean isSecret(String name) {
        String upper = name.toUpperCase(Locale.ROOT);
        if (PLAIN.contains(upper)) {
            return false;
        }
        List<String> words = words(name);
        for (int i = 0; i < words.size(); i++) {
            String w = words.get(i);
            if (WORDS.contains(w)) {
                return true;
            }
            if ((w.equals("URL") || w.equals("URI") || w.equals("STRING")) && words.subList(0, i).stream().anyMatch(STORES::contains)) {
                return true;
            }
        }
        String glued = upper.replace("_", "").replace("-", "").replace(".", "");
        return GLUED.stream().anyMatch(glued::contains);
    }

    /** The words of a name: split at {@code _ - .} and where lower case turns to upper ({@code gitHubToken}). */
    static List<String> words(String name) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean split = c == '_' || c == '-' || c == '.' || c == ':';
            if (!split && Character.isUpperCase(c) && i > 0 && Character.isLowerCase(name.charAt(i - 1))) {
                flush(out, cur);
            }
            if (split) {
                flush(out, cur);
            } else {
                cur.append(Character.toUpperCase(c));
            }
        }
        flush(out, cur);
        return out;
    }

    private static void flush(List<String> out, StringBuilder cur) {
        if (!cur.isEmpty()) {
            out.add(cur.toString());
            cur.setLength(0);
        }
    }
}
