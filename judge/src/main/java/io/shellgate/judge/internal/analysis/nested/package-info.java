/** Commands that run code given to them: shells, interpreters, eval, source, and the bridge to PowerShell and cmd. */
package io.shellgate.judge.internal.analysis.nested;
