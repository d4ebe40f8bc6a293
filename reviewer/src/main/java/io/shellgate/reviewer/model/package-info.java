/**
 * What a review is made of: the request and where it came from, the steps and their decisions, the
 * person's answers and the pending asks they answer. The review pipeline's internals build on these
 * values, and the API package's classes hand them out, so they live below both.
 */
package io.shellgate.reviewer.model;
