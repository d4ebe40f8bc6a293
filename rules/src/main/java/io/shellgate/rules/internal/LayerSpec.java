package io.shellgate.rules.internal;

import io.shellgate.rules.Approval;
import io.shellgate.rules.PolicySource;
import io.shellgate.rules.Programs;
import io.shellgate.rules.ReadOnlyCommand;
import io.shellgate.rules.Rule;
import io.shellgate.rules.SourceLocation;
import io.shellgate.rules.Wrapper;
import java.util.List;
import java.util.Map;

/**
 * What one policy file says, before layers are merged. Settings left out of a file are null.
 */
record LayerSpec(
        PolicySource source,
        Integer maxInputBytes,
        Integer maxDepth,
        Integer timeBudgetMillis,
        List<String> trustedDirs,
        List<String> untrustedDirs,
        List<String> trustedProjects,
        String shell,
        List<String> disable,
        SourceLocation disableLocation,
        Map<String, List<String>> paths,
        List<String> envSafe,
        List<String> envDangerous,
        List<String> envSecret,
        Map<String, String> shells,
        List<Programs.Interpreter> interpreters,
        List<String> downloaders,
        List<String> dataCommands,
        Map<String, Programs.SubcommandProgram> subcommands,
        Map<String, List<String>> builtins,
        List<ReadOnlyCommand> readOnly,
        List<Wrapper> wrappers,
        List<Rule> rules,
        Integer personTimeoutSeconds,
        Integer rememberDays,
        Boolean agentAllowRules,
        Boolean agentDialog,
        Map<String, String> llm,
        List<Approval> approvals,
        Boolean auditRequired,
        FleetSpec fleet) {}
