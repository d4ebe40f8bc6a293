package io.shellgate.rules;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A complete, merged policy: every layer applied, disabled rules removed.
 *
 * @param sources the files it was built from, in layer order
 * @param notices things the loader wants a person to know (entries of an untrusted project
 *     file that were ignored because they would weaken the policy)
 * @param review how asks are reviewed, and the remembered approvals
 * @param audit what a decision that cannot be logged becomes
 * @param fleet what the administrator's managed layer fixed, and where decisions are exported
 */
public record Policy(
        Settings settings,
        List<ReadOnlyCommand> readOnly,
        List<Wrapper> wrappers,
        List<Rule> rules,
        EnvironmentRules environment,
        PathSets paths,
        Programs programs,
        List<String> sources,
        List<String> notices,
        ReviewSettings review,
        AuditSettings audit,
        FleetSettings fleet) {

    public Policy {
        readOnly = List.copyOf(readOnly);
        wrappers = List.copyOf(wrappers);
        rules = List.copyOf(rules);
        sources = List.copyOf(sources);
        notices = List.copyOf(notices);
    }

    /** Every entry that has an id, in file order: read-only commands, wrappers, rules. */
    public List<RuleInfo> entries() {
        List<RuleInfo> all = new ArrayList<>(readOnly.size() + wrappers.size() + rules.size());
        all.addAll(readOnly);
        all.addAll(wrappers);
        all.addAll(rules);
        return all;
    }

    /** The entry with this id, if any. */
    public Optional<RuleInfo> entry(String id) {
        return Stream.<RuleInfo>concat(Stream.concat(readOnly.stream(), wrappers.stream()), rules.stream())
                .filter(e -> e.id().equals(id))
                .findFirst();
    }
}
