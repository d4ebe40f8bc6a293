/**
 * The LLM reviewer step of the review pipeline: {@link io.shellgate.reviewer.internal.llm.LlmConfig}
 * says how to reach the model and how far its word goes,
 * {@link io.shellgate.reviewer.internal.llm.LlmReviewer} asks it and never throws, and
 * {@link io.shellgate.reviewer.internal.llm.LlmOpinion#approves} is the one rule for when its
 * approval counts.
 */
package io.shellgate.reviewer.internal.llm;
