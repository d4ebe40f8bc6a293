package io.shellgate.judge.internal.analysis.policy;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.re2j.Pattern;
import io.shellgate.rules.PolicyLoader;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The quick substring test in front of a path set's expression never changes an answer: for every
 * pattern of the default policy's path sets, alone in a set, and for paths made from all of them
 * (matching ones, their neighbours, other case, paths below and above), the set answers as the
 * pattern's own expression does.
 */
class PathSetTest {

    private static final String HOME = "/home/u";

    @Test
    void theSubstringTestAgreesWithTheWholeExpressionForEveryDefaultPattern() throws Exception {
        var sets = PolicyLoader.defaults().paths().sets();
        List<String> all = new ArrayList<>();
        sets.values().forEach(all::addAll);
        Set<String> paths = new LinkedHashSet<>();
        for (String p : all) {
            String e = p.startsWith("~") ? HOME + p.substring(1) : p;
            for (String wild : List.of("", "x", "a/b")) {
                String made = e.replace("**/", wild.isEmpty() ? "" : wild + "/").replace("**", wild).replace("*", wild.isEmpty() ? ""
                        : "k").replace("?", "q");
                if (!made.startsWith("/")) {
                    made = "/" + made;
                }
                paths.add(made);
                paths.add(made.toUpperCase(java.util.Locale.ROOT));
                paths.add(made + "/inside");
                paths.add(made + "x");
                // relative, as a caller may pass one: **/ may match nothing at the start
                paths.add(made.substring(1));
                int slash = made.lastIndexOf('/');
                if (slash > 0) {
                    paths.add(made.substring(0, slash));
                }
            }
        }
        paths.add("/srv/ſsh/.ſsh/id_rsa");
        int compared = 0;
        for (var entry : sets.entrySet()) {
            for (String p : entry.getValue()) {
                PathSet one = new PathSet(entry.getKey(), List.of(p));
                String e = p.startsWith("~") ? HOME + p.substring(1) : p;
                Pattern whole = Pattern.compile(PathSet.regex(e), entry.getKey().equals("sensitive") ? Pattern.CASE_INSENSITIVE : 0);
                for (String path : paths) {
                    assertThat(one.contains(path, HOME)).as("%s in %s", path, p).isEqualTo(whole.matcher(path).matches());
                    compared++;
                }
            }
        }
        assertThat(compared).isGreaterThan(100_000);
    }

    @Test
    void classesEscapesAndCaseKeepTheirMeaning() {
        PathSet set = new PathSet("sensitive", List.of("/srv/a[!x]b", "**/keys/**", "**/we\\*ird", "~/Geheimnisse/**"));
        assertThat(set.contains("/srv/a/b", HOME)).isTrue();
        assertThat(set.contains("/srv/keys/deep/file", HOME)).isTrue();
        assertThat(set.contains("/SRV/KEYS/x", HOME)).isTrue();
        assertThat(set.contains("/x/we*ird", HOME)).isTrue();
        assertThat(set.contains("/x/weXird", HOME)).isFalse();
        assertThat(set.contains("/home/u/GEHEIMNISSE/a", HOME)).isTrue();
        assertThat(set.contains("/srv/other/file", HOME)).isFalse();
    }

    @Test
    void namesThePatternThatMatchesWhateverTheCase() {
        PathSet set = new PathSet("sensitive", List.of("/srv/a[!x]b", "**/keys/**", "~/Geheimnisse/**"));
        assertThat(set.matching("/srv/keys/deep/file", HOME)).isEqualTo("**/keys/**");
        assertThat(set.matching("/SRV/KEYS/x", HOME)).isEqualTo("**/keys/**");
        assertThat(set.matching("/home/u/GEHEIMNISSE/a", HOME)).isEqualTo(HOME + "/Geheimnisse/**");
        assertThat(set.matching("/srv/other/file", HOME)).isNull();
        // a set that keeps case names nothing for another case, as it contains nothing
        PathSet exact = new PathSet("other", List.of("/srv/Data/**"));
        assertThat(exact.matching("/srv/Data/x", HOME)).isEqualTo("/srv/Data/**");
        assertThat(exact.matching("/srv/data/x", HOME)).isNull();
        assertThat(exact.contains("/srv/data/x", HOME)).isFalse();
    }
}
