package io.shellgate.it.oracle;

import io.shellgate.rules.OptionSpec;
import io.shellgate.rules.ReadOnlyCommand;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The words the generator puts into option values and operands. A plain variant uses ordinary
 * words, numbers and files of the world; a hostile variant points at canaries, devices, files to
 * write, or code, which is what a read-only grammar must keep out.
 */
final class Values {

    static final List<String> WORDS = List.of("x", "foo", "auto", "C", "main");
    static final List<String> NUMBERS = List.of("3", "1", "0", "10");
    static final List<String> FILES = List.of("a.txt", "README.md", "src/main.c", "f.json", "list.txt");
    static final List<String> DIRECTORIES = List.of("src", ".", "~", "*");
    static final List<String> CANARIES = List.of("~/.ssh/id_rsa", ".env", "credentials.json", "~/.aws/credentials",
            "id_rsa", "server.key", "/etc/shadow", "~/.netrc", ".envrc", "terraform.tfstate", "~/.claude/.credentials.json",
            "~/.codex/auth.json", "~/.m2/settings.xml", "/run/secrets/kubernetes.io/serviceaccount/token",
            "~/.bash_history", "~/.python_history", "link.txt", "/proc/self/environ", "/proc/1/environ",
            "~/.config/gh/hosts.yml", "~/.git-credentials", "~/.kube/config", ".env.local", "secrets.yml", "cert.pem",
            "/run/secrets/db-password", "~/.docker/config.json", "~/.pgpass");
    static final List<String> DEVICES = World.DEVICES;
    static final List<String> OUTPUTS = List.of("out.txt", "/tmp/oracle-out", "~/.bashrc", ".git/hooks/pre-commit");
    /** Code where a word is expected: a program to run, a script, a substitution, an array subscript. */
    static final List<String> CODE = List.of("touch", "'touch oracle-pwned'", "'$(touch oracle-pwned)'",
            "'a[$(touch oracle-pwned)]'", "'!touch oracle-pwned'", "'|touch oracle-pwned'", "sh");
    /** Operands for commands whose operands are text: names, verbs and code. */
    static final List<String> HOSTILE_TEXT = List.of("touch oracle-pwned", "'touch oracle-pwned'", "'$(touch oracle-pwned)'",
            "'a[$(touch oracle-pwned)]'", "PATH", "GIT_DIR=x", "set lo down", "-K", "~/.ssh/id_rsa", ".env", "x=1",
            "'x[$(touch oracle-pwned)]=1'", "-x touch oracle-pwned", "+x", "write", "delete x");
    /**
     * The hostile operands every builtin gets: the forms in which builtins run code (a command to
     * run, a trap, array subscripts, which are code) and the options that make many of them print
     * variables with their values ({@code declare -p}, {@code typeset +x}).
     */
    static final List<String> BUILTIN_TEXT = List.of("-x touch oracle-pwned", "-- 'touch oracle-pwned' EXIT",
            "'a[$(touch oracle-pwned)]'", "'x[$(touch oracle-pwned)]=1'", "-v 'a[$(touch oracle-pwned)]'", "-p", "+x");
    /** Programs in the languages the judge checks, plain and hostile. */
    static final Map<String, List<List<String>>> PROGRAMS = Map.of(
            "sed", List.of(List.of("p", "s/a/b/", "1d", "'/foo/!d'", "-n 1p"),
                    List.of("'w out.txt'", "'1e touch oracle-pwned'", "'r .env'", "'s/a/b/w out.txt'", "'R ~/.ssh/id_rsa'",
                            "':a w /dev/sda'", "'1R /etc/shadow'")),
            "awk", List.of(List.of("'{print $1}'", "'NR==1'", "'BEGIN{print 1}'", "'{n++} END{print n}'"),
                    List.of("'BEGIN{system(\"touch oracle-pwned\")}'", "'{print > \"out.txt\"}'",
                            "'BEGIN{while((getline l < \".env\")>0) print l}'", "'BEGIN{ARGV[1]=\".env\"} {print}'",
                            "'BEGIN{x=1./2; system(\"touch oracle-pwned\")}'", "'{print | \"sh\"}'",
                            "'BEGIN{\"touch oracle-pwned\" | getline}'")),
            "jq", List.of(List.of(".", ".x", "'.items[].name'", "keys"),
                    List.of("env", "'$ENV'", "'$ENV.GITHUB_TOKEN'", "'$__loc__'", "input_filename", "'\"\\(env)\"'",
                            "'@sh \"touch \\(.x)\"'")),
            "xargs", List.of(List.of("echo", "wc -l", "grep foo", "ls -la"),
                    List.of("cat", "touch oracle-pwned", "sh -c 'touch oracle-pwned'", "env", "git log --output=out.txt")),
            "git", List.of(List.of("HEAD", "-1", "--", "a.txt", "main"),
                    List.of(".env", "--output=out.txt", "-O'touch oracle-pwned'", "--no-index /dev/null .env",
                            "--contents=.env", "HEAD:.env", "--ext-diff", "--textconv")));

    private Values() {}

    /** An option value: a plain word, number or file, or a canary, device, output path or code. */
    static String value(boolean hostile, Random r) {
        if (!hostile) {
            return pick(r, switch (r.nextInt(3)) {
                case 0 -> WORDS;
                case 1 -> NUMBERS;
                default -> FILES;
            });
        }
        return pick(r, switch (r.nextInt(6)) {
            case 0, 1 -> CANARIES;
            case 2 -> DEVICES;
            case 3 -> OUTPUTS;
            default -> CODE;
        });
    }

    /** A file operand: an ordinary file or directory, or a canary or a device. */
    static String file(boolean hostile, Random r) {
        if (!hostile) {
            return r.nextInt(4) == 0 ? pick(r, DIRECTORIES) : pick(r, FILES);
        }
        return r.nextInt(6) == 0 ? pick(r, DEVICES) : pick(r, CANARIES);
    }

    /** A text operand: a word, or code, a variable name or a secret's path. */
    static String text(boolean hostile, Random r) {
        return hostile ? pick(r, HOSTILE_TEXT) : pick(r, WORDS);
    }

    /** A program for a checked language ({@code sed}, {@code awk}, {@code jq}...), or null for none. */
    static String program(String checker, boolean hostile, Random r) {
        List<List<String>> p = PROGRAMS.get(checker);
        return p == null ? null : pick(r, p.get(hostile ? 1 : 0));
    }

    static String pick(Random r, List<String> from) {
        return from.get(r.nextInt(from.size()));
    }

    /** An option as a line writes it, with a plain or hostile value where it takes one. */
    static String option(OptionSpec o, ReadOnlyCommand.Style style, boolean hostile, boolean fromHelp, Random r) {
        if (o.name().isEmpty()) {
            return "";
        }
        String v = value(hostile, r);
        return " " + switch (o.arity()) {
            // an option read from help may take a value: the hostile line gives it one as the next word
            case NONE -> fromHelp && hostile ? o.name() + " " + v : o.name();
            case NUMERIC -> "-" + pick(r, NUMBERS);
            case OPTIONAL -> hostile || r.nextBoolean() ? o.name() + (o.isShort() ? "" : "=") + v : o.name();
            case REQUIRED -> {
                if (o.isLong()) {
                    yield r.nextBoolean() ? o.name() + "=" + v : o.name() + " " + v;
                }
                yield o.isShort() && style != ReadOnlyCommand.Style.WORDS && r.nextBoolean() ? o.name() + v : o.name() + " " + v;
            }
            case ANY -> o.name();
        };
    }

    /** The random source of one line: its seed, entry, name, option and variant, nothing else. */
    static Random random(long seed, String id, String name, String option, int variant) {
        return new Random(seed * 1_000_003L + (id + "\u0000" + name + "\u0000" + option + "\u0000" + variant).hashCode());
    }
}
