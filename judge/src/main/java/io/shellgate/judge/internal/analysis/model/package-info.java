/** What one judgement carries: fields, scopes, findings, the budget, and the expansion of words. */
package io.shellgate.judge.internal.analysis.model;
