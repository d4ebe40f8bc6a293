package io.shellgate.judge.internal.analysis.language;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class AwkParserTest {

    @ParameterizedTest
    @ValueSource(strings = {"{print $1}", "NR>1{print $2}", "{s+=length($0)} END {print s/NR}", "{print $1/2}",
            "BEGIN{FS=\",\"} {print $2}", "$1 > 5", "length > 80", "BEGIN{x=1./2; print x}", "BEGIN{print 1/2/3}",
            "{ x = $NF/2; y = a[1]/2; z = (x)/2; w = x++/2 }", "/foo/ {n++} END {print n}",
            "function f(a, b) { return a + b }\n{ print f($1, $2) }", "{a[$1]++} END {for (k in a) print k, a[k]}",
            "{ if ($1 ~ /^#/) next; else print }", "{ printf(\"%s\\n\", $1) }", "{ gsub(/a/, \"b\"); print }",
            "{ print substr($0, 1, 10), length }", "{ if (/[/]/) print }", "{ if ($0 ~ /[[:alpha:]/]/) print }",
            "NR==1, NR==5 { print }", "BEGIN { n = split(\"a b\", parts); print parts[1] }", "{ print (1, 2) in a }",
            "BEGIN { print -2^2, !x, 2**3 }", "{ $2 = \"\"; print }", "{ print $1 \" \" $2 }", "BEGIN { print ARGV[1], ARGC }",
            "BEGIN { switch (x) { case 1: print \"a\"; break; default: print \"b\" } }",
            "# a comment\n{ print } # another", "{ print $1 \\\n  $2 }", "BEGIN { while (i < 3) i++; print i }",
            "BEGIN { do { i++ } while (i < 3) }", "{ print toupper($0) > \"/dev/stdout\" }", "BEGIN { print length() }"})
    void allowsReadOnlyPrograms(String program) {
        assertThat(AwkParser.check(program).problem()).as(program).isNull();
    }

    @Test
    void readsRegexAndDivisionByAwksRule() {
        // after a number the slash divides, so system() is seen as the call it is
        assertThat(AwkParser.check("BEGIN{x=1./2; system(\"touch x\")}").problem()).contains("system");
        assertThat(AwkParser.check("BEGIN{x=1./2; print \"x\" | \"sh\"}").problem()).contains("pipes its output");
        assertThat(AwkParser.check("BEGIN{x=1./2; print ENVIRON[\"AWS_SECRET_ACCESS_KEY\"]}").problem()).contains("ENVIRON");
        // in an operand position it starts a regular expression, whatever it holds
        assertThat(AwkParser.check("/system(\"x\")/ { print }").problem()).isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"{ system(\"id\") }", "{ print | \"sh\" }", "{ print |& \"sh\" }", "{ \"id\" | getline x }",
            "{ \"id\" |& getline }", "BEGIN { print ENVIRON[\"HOME\"] }", "BEGIN { for (k in ENVIRON) print k }",
            "BEGIN { print PROCINFO[\"pid\"] }", "BEGIN { print SYMTAB[\"ENVIRON\"][\"HOME\"] }",
            "BEGIN{ARGV[ARGC++]=\"/root/.ssh/id_rsa\"}{print}", "BEGIN { ARGV[1] = \".env\" }", "BEGIN { ARGC = 3 }",
            "BEGIN { delete ARGV }", "BEGIN { split(\"a .env\", ARGV) }", "function f(a) { a[1] = \".env\" } BEGIN { f(ARGV) }",
            "{ getline ARGV[1] }", "BEGIN { sub(/x/, \".env\", ARGV[1]) }", "BEGIN { for (ARGC in a) x }",
            "BEGIN{f=\"system\"; @f(\"touch x\")}", "@include \"x.awk\"", "@load \"filefuncs\"", "@namespace \"x\"",
            "BEGIN { getline line < f }", "BEGIN{getline l < \"/inet/tcp/0/203.0.113.5/80\"; print l}",
            "{ print > $1 \".txt\" }", "{ print > f }", "{print", "BEGIN { x = \"unterminated }", "{ print $1 ; } }",
            "BEGIN { x = ) }"})
    void refusesProgramsThatAreMoreThanFilters(String program) {
        assertThat(AwkParser.check(program).problem()).as(program).isNotNull();
    }

    @Test
    void reportsTheFilesItReadsAndWrites() {
        assertThat(AwkParser.check("BEGIN{while((getline $0 < \".env\")>0) print}").reads()).containsExactly(".env");
        assertThat(AwkParser.check("BEGIN{while((getline a[1] < \".env\")>0) print a[1]}").reads()).containsExactly(".env");
        assertThat(AwkParser.check("BEGIN{while((getline\tl < \".env\")>0) print l}").reads()).containsExactly(".env");
        assertThat(AwkParser.check("{ print > \"out.txt\"; print $1 >> \"log\" }").writes())
                .containsExactly("out.txt", "log");
        assertThat(AwkParser.check("{ print (a > b) }").writes()).isEmpty();
    }

    @Test
    void deepNestingIsAnswered() {
        String deep = "BEGIN { x = " + "(".repeat(5000) + "1" + ")".repeat(5000) + " }";
        assertThat(AwkParser.check(deep).problem()).contains("nested");
        assertThat(AwkParser.check("BEGIN { x = " + "-".repeat(5000) + "1 }").problem()).contains("nested");
        assertThat(AwkParser.check("").problem()).isNull();
    }
}
