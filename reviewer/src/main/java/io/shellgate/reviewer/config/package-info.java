/**
 * The gate's own configuration, taken from the environment of the process that started the gate and
 * from the gate's files, never from a command line: {@link io.shellgate.reviewer.config.GateConfig}
 * and the private state directory it names.
 */
package io.shellgate.reviewer.config;
