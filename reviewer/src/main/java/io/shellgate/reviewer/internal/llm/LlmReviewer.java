package io.shellgate.reviewer.internal.llm;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.exception.HttpException;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import io.shellgate.judge.JudgeRequest;
import io.shellgate.judge.Verdict;
import io.shellgate.rules.Tier;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Asks an LLM, through LangChain4j, for its opinion on an ask: OpenAI-compatible servers, Ollama's
 * native API or Anthropic, as configured.
 *
 * <p>Never throws: whatever goes wrong (no answer in time, an HTTP error, a reply that is not
 * exactly the expected JSON, an approval that argues with the rules) is an opinion to
 * {@link Outcome#ESCALATE} that says what went wrong. Only ask verdicts are sent; the LLM never
 * sees a deny. Thread-safe.
 */
public final class LlmReviewer {

    private final LlmConfig config;
    private final ChatModel model;
    private final String unusable;
    // One virtual thread per review, so that the configured timeout bounds the whole call, reading
    // the body included, and not only the wait for the response headers.
    private final ExecutorService calls = Executors.newThreadPerTaskExecutor(
            Thread.ofVirtual().name("shellgate-llm-review-", 0).factory());

    public LlmReviewer(LlmConfig config) {
        this.config = Objects.requireNonNull(config, "config");
        ChatModel built = null;
        String problem = null;
        try {
            built = ChatModels.create(config);
        } catch (RuntimeException e) {
            problem = "the LLM reviewer could not be set up for " + config.provider().id() + " at "
                    + config.baseUrl() + ": " + describe(e);
        }
        this.model = built;
        this.unusable = problem;
    }

    public LlmConfig config() {
        return config;
    }

    /** The LLM's opinion on {@code request}, which the judge found to need review for the reasons in {@code verdict}. */
    public LlmOpinion review(JudgeRequest request, Verdict verdict) {
        return review(request, verdict, config.timeout());
    }

    /** As {@link #review(JudgeRequest, Verdict)}, waiting for the LLM at most {@code limit}. */
    public LlmOpinion review(JudgeRequest request, Verdict verdict, Duration limit) {
        try {
            if (verdict.tier() != Tier.ASK) {
                return LlmOpinion.escalate("only asks go to the LLM reviewer; the judge said " + verdict.tier().id());
            }
            if (request.command().length() > LlmPrompt.MAX_COMMAND_CHARS) {
                return LlmOpinion.escalate("the command line has " + request.command().length()
                        + " characters, more than the LLM reviewer reads (" + LlmPrompt.MAX_COMMAND_CHARS + ")");
            }
            if (model == null) {
                return LlmOpinion.escalate(unusable);
            }
            return ask(limit, ChatRequest.builder()
                    .messages(SystemMessage.from(LlmPrompt.system()), UserMessage.from(LlmPrompt.user(request, verdict)))
                    .responseFormat(ChatModels.REPLY_FORMAT)
                    .build());
        } catch (RuntimeException | LinkageError e) {
            return LlmOpinion.escalate("the LLM reviewer failed: " + describe(e));
        }
    }

    private LlmOpinion ask(Duration limit, ChatRequest chat) {
        Future<ChatResponse> call = calls.submit(() -> model.chat(chat));
        ChatResponse response;
        try {
            response = call.get(limit.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            call.cancel(true);
            return LlmOpinion.escalate("the LLM at " + config.baseUrl() + " did not answer within " + limit.toMillis() + " ms"
                    + (limit.compareTo(config.timeout()) < 0 ? " (the review's time left for it)" : ""));
        } catch (InterruptedException e) {
            call.cancel(true);
            Thread.currentThread().interrupt();
            return LlmOpinion.escalate("the LLM review was interrupted");
        } catch (ExecutionException e) {
            return LlmOpinion.escalate(describe(e.getCause()));
        }
        AiMessage message = response == null ? null : response.aiMessage();
        return ReplyParser.parse(message == null ? null : message.text());
    }

    private String noAnswer() {
        return "the LLM at " + config.baseUrl() + " did not answer within " + config.timeout().toMillis() + " ms";
    }

    /** What went wrong, in words for the person and the audit log; never a stack trace. */
    private String describe(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            switch (t) {
                case HttpException http -> {
                    return "the LLM server answered HTTP " + http.statusCode() + hint(http.statusCode()) + ": "
                            + ReplyParser.snippet(String.valueOf(http.getMessage()));
                }
                case HttpTimeoutException _, SocketTimeoutException _, dev.langchain4j.exception.TimeoutException _ -> {
                    return noAnswer();
                }
                case ConnectException _ -> {
                    return "cannot connect to the LLM server at " + config.baseUrl() + "; is it running?";
                }
                case UnknownHostException _, UnresolvedAddressException _ -> {
                    return "cannot resolve the LLM server's host in " + config.baseUrl();
                }
                case JsonProcessingException _ -> {
                    return "the server at " + config.baseUrl() + " does not answer like the " + config.provider().id()
                            + " API (its response is not the JSON that API sends); check the provider and the base URL";
                }
                default -> {}
            }
        }
        return "the LLM call failed (" + failure.getClass().getSimpleName() + ": "
                + ReplyParser.clean(String.valueOf(failure.getMessage()), 160) + ")";
    }

    private static String hint(int status) {
        return switch (status) {
            case 400 -> " (request rejected; check the model name, and that the model supports JSON-schema output)";
            case 401, 403 -> " (check the API key)";
            case 404 -> " (check the base URL and the model name)";
            case 429 -> " (rate limited)";
            default -> status >= 500 ? " (server error)" : "";
        };
    }
}
