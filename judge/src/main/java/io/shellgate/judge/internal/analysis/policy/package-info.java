/** The policy compiled for lookup: rules, read-only entries, name and path sets. */
package io.shellgate.judge.internal.analysis.policy;
