// shellgate's extension for Pi (written by `shellgate setup pi`; `--remove` takes it out).
// Before each tool call it asks shellgate, through shellgate-hook and the warm judge server, and
// blocks the call when shellgate refuses it or gives no answer: a gate that cannot answer never
// lets a command through. An ask is Pi's own confirmation where Pi has an interface, else a refusal.
import { spawn } from "node:child_process"
import { basename } from "node:path"

// the hook command: set by shellgate setup
const HOOK = ["shellgate-hook", "pi"]

//@include shellgate-relay.js

export default function shellgate(pi) {
  pi.on("tool_call", async (event, ctx) => {
    const call = JSON.stringify({
      hook_event_name: "tool_call",
      tool_name: event.toolName,
      tool_input: event.input ?? {},
      cwd: ctx.cwd,
      session_id: ctx.sessionManager?.getSessionId?.() ?? "",
    })
    const r = await relay(call)
    if (r.code !== 0) {
      return { block: true, reason: `shellgate: refused: the gate gave no answer (${HOOK.join(" ")} exit ${r.code}): ${r.err.trim()}` }
    }
    if (r.out.trim() === "") {
      return undefined // not a tool shellgate judges
    }
    let answer
    try {
      answer = JSON.parse(r.out)
    } catch {
      return { block: true, reason: "shellgate: refused: the gate's answer is not JSON" }
    }
    const reason = typeof answer.reason === "string" && answer.reason !== "" ? answer.reason : "shellgate: refused"
    if (answer.decision === "allow") {
      return undefined
    }
    if (answer.decision === "ask" && ctx.hasUI) {
      const yes = await ctx.ui.confirm("shellgate", reason)
      return yes ? undefined : { block: true, reason: reason + " (refused by the person at Pi)" }
    }
    return { block: true, reason }
  })
}
