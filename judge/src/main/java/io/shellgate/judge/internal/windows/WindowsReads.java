package io.shellgate.judge.internal.windows;

import io.shellgate.judge.Span;
import io.shellgate.rules.Tier;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * The one check of a path that a PowerShell or cmd command reads or resolves. The path is read
 * as Windows reads it ({@link WindowsPaths}): a network share or a device asks wherever it is
 * touched; a drive that is not a file system asks where it is read; file names are taken through
 * wildcards, 8.3 short names and symbolic links to every file they may name, and each is checked
 * against the sensitive paths.
 */
public final class WindowsReads {

    private static final Map<List<String>, List<String>> VOCABULARY = new ConcurrentHashMap<>();

    private WindowsReads() {}

    /** How a command uses a path. */
    public enum Use {
        /** It only looks the path up ({@code Test-Path}, {@code cd}, {@code Resolve-Path}). */
        RESOLVE,
        /** It reads what the path names: a file's content or a directory's entries. */
        READ,
        /** It lists everything under the path (names, not contents). */
        RECURSIVE,
        /** It reads the content of every entry directly under the path whose name passes the filter. */
        CHILDREN,
        /** It reads the content of every file under the path whose name passes the filter. */
        TREE
    }

    /**
     * What is checked.
     *
     * @param who the command, for messages
     * @param powershell whether PowerShell reads the path (drives, provider qualifiers, {@code [} wildcards)
     * @param wildcards whether {@code * ?} (and {@code [ ]}) in the path are expanded
     * @param names for {@link Use#CHILDREN} and {@link Use#TREE}, the file names that are read (an {@code -Include} filter)
     */
    public record Read(String who, Use use, boolean powershell, boolean wildcards, Predicate<String> names, Span span) {

        public Read(String who, Use use, boolean powershell, boolean wildcards, Span span) {
            this(who, use, powershell, wildcards, n -> true, span);
        }
    }

    /**
     * Checks {@code text} (null: computed at run time) used from the location {@code cwd};
     * returns whether it asked.
     */
    public static boolean check(WindowsHost host, String text, String cwd, Read r) {
        if (text == null) {
            return ask(host, WindowsChecks.DYNAMIC_ARGUMENT, r, r.who() + " reads a path computed at run time");
        }
        WindowsPaths.Parsed parsed = WindowsPaths.parse(text, r.powershell());
        switch (parsed.kind()) {
            case NETWORK -> {
                return ask(host, WindowsChecks.NETWORK_PATH, r, r.who() + " reaches " + text + ", a share on another machine:"
                        + " touching it sends the user's credentials to that server");
            }
            case DEVICE -> {
                return ask(host, WindowsChecks.SENSITIVE_PATH, r, r.who() + " opens " + text
                        + ", a device or system object rather than a file");
            }
            case DRIVE -> {
                return r.use() != Use.RESOLVE && drive(host, text, parsed.path(), parsed.drive(), r);
            }
            case FILE -> {
                // a file path: checked below
            }
        }
        if (r.use() == Use.RESOLVE) {
            return false;
        }
        List<String> forms = WindowsPaths.located(text, cwd, host.home(), r.powershell());
        if (forms.isEmpty()) {
            return ask(host, WindowsChecks.DYNAMIC_ARGUMENT, r, r.who() + " reads " + text
                    + " in a working directory (or on a drive) whose current directory is not known here");
        }
        for (String form : forms) {
            String drive = WindowsPaths.nonFileDrive(form);
            if (drive != null) {
                return drive(host, text, form, drive, r);
            }
            List<String> paths = List.of(form);
            if (r.wildcards() && Wildcards.has(parsed.path(), r.powershell())) {
                paths = Wildcards.expand(form, r.powershell(), dir -> host.children(dir, Wildcards.LIMIT), host::isDirectory);
                if (paths == null) {
                    return ask(host, WindowsChecks.DYNAMIC_ARGUMENT, r, r.who() + " reads the wildcard path " + text
                            + ", which matches too many files or names a directory that is not here or cannot be listed");
                }
            }
            for (String path : paths) {
                String why = r.use() == Use.CHILDREN ? children(host, path, r) : file(host, path, r);
                if (why != null) {
                    String what = path.equals(form) ? text : text + " (which matches " + path + ")";
                    return ask(host, WindowsChecks.SENSITIVE_PATH, r, r.who() + " reads " + what + ": " + why);
                }
            }
        }
        return false;
    }

    /**
     * Where changing the location to {@code text} leads from {@code cwd}, with its case kept:
     * {@code Env:/} for a drive that is not a file system; null when it is not known here (a
     * computed path, PowerShell's location history, a wildcard that does not match exactly one
     * entry). The change is taken to succeed.
     */
    public static String location(WindowsHost host, String text, String cwd, boolean powershell) {
        if (text == null || text.equals("-") || text.equals("+")) {
            return null;
        }
        List<String> forms = WindowsPaths.located(text, cwd, host.home(), powershell);
        if (forms.isEmpty()) {
            return null;
        }
        String form = forms.getFirst();
        if (WindowsPaths.nonFileDrive(form) == null && Wildcards.has(WindowsPaths.parse(text, powershell).path(), powershell)) {
            List<String> matches = Wildcards.expand(form, powershell, dir -> host.children(dir, Wildcards.LIMIT), host::isDirectory);
            form = matches != null && matches.size() == 1 ? matches.getFirst() : null;
        }
        return form;
    }

    private static boolean drive(WindowsHost host, String text, String path, String drive, Read r) {
        if (drive.equals("env") && r.use() == Use.READ) {
            // one variable of Env: whose name marks no secret is what $env:NAME reads
            String name = path.substring(path.indexOf(':') + 1).replace('\\', '/');
            while (name.startsWith("/")) {
                name = name.substring(1);
            }
            if (!name.isEmpty() && name.indexOf('/') < 0 && !Wildcards.has(name, true) && !host.secretVariable(name)) {
                return false;
            }
        }
        return ask(host, WindowsChecks.SENSITIVE_PATH, r, r.who() + " reads " + text + " on the PowerShell drive " + drive
                + ":, which is not a file system (environment variables, the registry, certificates, variables or"
                + " functions): what it holds is not checked");
    }

    /** Why reading every entry directly under a directory is sensitive, or null. */
    private static String children(WindowsHost host, String dir, Read r) {
        String why = file(host, dir, new Read(r.who(), Use.READ, r.powershell(), false, r.span()));
        if (why != null) {
            return why;
        }
        List<String> names = host.children(dir, Wildcards.LIMIT);
        if (names == null) {
            return "its entries are too many, or cannot be listed here, to be checked";
        }
        for (String name : names) {
            if (r.names().test(name)) {
                String path = dir.endsWith("/") ? dir + name : dir + "/" + name;
                String inside = file(host, path, new Read(r.who(), Use.READ, r.powershell(), false, r.span()));
                if (inside != null) {
                    return "its entry " + name + " is read: " + inside;
                }
            }
        }
        return null;
    }

    /** Why reading one absolute path is sensitive, or null. */
    private static String file(WindowsHost host, String path, Read r) {
        boolean recursive = r.use() == Use.RECURSIVE || r.use() == Use.TREE;
        List<String> forms = ShortNames.expand(path, vocabulary(host), dir -> host.children(dir, Wildcards.LIMIT));
        if (forms == null) {
            return "it holds more 8.3 short names (like PROGRA~1) than can be checked";
        }
        for (String form : forms) {
            String why = host.sensitive(form, recursive);
            if (why != null) {
                return form.equals(path) ? why : why + ", as the short name may stand for " + form;
            }
        }
        String real = host.realPath(path);
        if (real != null && !real.equalsIgnoreCase(path)) {
            String why = host.sensitive(real, recursive);
            if (why != null) {
                return "it is a link to " + real + ", and " + why;
            }
        }
        if (r.use() == Use.TREE) {
            // the home directory holds the secrets the policy names under ~, whether or not this machine can list them
            String home = host.home();
            String lower = path.toLowerCase(Locale.ROOT);
            if (home != null && (home.equalsIgnoreCase(path) || home.toLowerCase(Locale.ROOT).startsWith(lower.endsWith("/") ? lower
                    : lower + "/"))) {
                return "everything under it is read, and it holds the home directory " + home + ", where secrets are kept";
            }
            if (PROFILES.matcher(lower).matches()) {
                return "everything under it is read, and it is or holds a user's profile, where secrets are kept";
            }
            String inside = host.sensitiveInside(real != null ? real : path, r.names());
            if (inside != null) {
                return "everything under it is read, including " + inside + ", which may hold secrets";
            }
        }
        return null;
    }

    /** The names and name patterns the policy's sensitive paths mention, lower case: what a short name is tried as. */
    private static List<String> vocabulary(WindowsHost host) {
        List<String> patterns = host.pathSet("sensitive");
        if (patterns == null) {
            return List.of();
        }
        List<String> known = VOCABULARY.get(patterns);
        if (known != null) {
            return known;
        }
        Set<String> out = new LinkedHashSet<>();
        for (String p : patterns) {
            for (String seg : WindowsPaths.split(p.toLowerCase(Locale.ROOT), '/')) {
                if (!seg.isEmpty() && !seg.equals("**") && !seg.equals("~") && !seg.equals("*") && !seg.endsWith(":")) {
                    out.add(seg);
                }
            }
        }
        if (VOCABULARY.size() > 16) {
            VOCABULARY.clear();
        }
        List<String> words = List.copyOf(out);
        VOCABULARY.put(List.copyOf(patterns), words);
        return words;
    }

    /** A drive's root, its Users folder or one profile in it (lower case, forward slashes). */
    private static final com.google.re2j.Pattern PROFILES = com.google.re2j.Pattern.compile("^[a-z]:(/|/users/?|/users/[^/]+/?)?$");

    private static boolean ask(WindowsHost host, String rule, Read r, String message) {
        host.report(rule, Tier.ASK, message, r.span());
        return true;
    }
}
