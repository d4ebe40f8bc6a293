//@ The relay OpenCode's and Kilo's plugin and Pi's extension share: it keeps one `shellgate-hook --serve`
//@ for the session, sends each call through it in order, starts it again once when it died, and answers
//@ {code, out, err}, a refusal when no answer came. The build writes it into shellgate-opencode.js and
//@ shellgate-pi.js in place of their line `//@include shellgate-relay.js`, so that each file the agent
//@ loads stands alone; those files define HOOK and import spawn (node:child_process) and basename
//@ (node:path) above that line. Lines starting with `//@` are notes for this source and are not shipped.
// shellgate-hook, the native client, answers a whole session from one process it keeps (--serve);
// the launcher script (where the build found no C compiler) is started for each call
const SERVES = basename(HOOK[0]) === "shellgate-hook"
// how long the first line of an answer may take: shellgate-hook waits 3 s for the server's first
// line, then says {"wait":N} before anything that may take longer (a review, a JVM of its own)
const FIRST_LINE_MS = 10000

function once(input) {
  return new Promise((resolve) => {
    let child
    try {
      child = spawn(HOOK[0], HOOK.slice(1), { stdio: ["pipe", "pipe", "pipe"] })
    } catch (e) {
      resolve({ code: -1, out: "", err: String(e) })
      return
    }
    const out = []
    const err = []
    child.stdout.on("data", (d) => out.push(d))
    child.stderr.on("data", (d) => err.push(d))
    child.on("error", (e) => resolve({ code: -1, out: "", err: String(e) }))
    child.on("close", (code, signal) =>
      resolve({ code: code ?? -1, out: Buffer.concat(out).toString("utf8"), err: Buffer.concat(err).toString("utf8") + (signal ?? "") }))
    child.stdin.on("error", () => {})
    child.stdin.end(input)
  })
}

// the session's shellgate-hook --serve: its answer lines go to whoever waits for one
let served = null

function start() {
  const s = { child: null, pending: "", listener: null, dead: false, err: "" }
  const ended = (why) => {
    if (!s.dead) {
      s.dead = true
      s.err = (s.err + why).trim()
      s.listener?.(null)
    }
  }
  try {
    s.child = spawn(HOOK[0], ["--serve", ...HOOK.slice(1)], { stdio: ["pipe", "pipe", "pipe"] })
  } catch (e) {
    ended(String(e))
    return s
  }
  s.child.stdout.setEncoding("utf8")
  s.child.stdout.on("data", (d) => {
    s.pending += d
    for (let i = s.pending.indexOf("\n"); i >= 0; i = s.pending.indexOf("\n")) {
      const line = s.pending.slice(0, i)
      s.pending = s.pending.slice(i + 1)
      s.listener?.(line)
    }
  })
  s.child.stderr.on("data", (d) => (s.err = (s.err + d).slice(-2000)))
  s.child.on("error", (e) => ended(" " + String(e)))
  s.child.on("exit", (code, signal) => ended(` (it ended: ${signal ?? "exit " + code})`))
  s.child.stdin.on("error", () => {})
  // the agent may end while it runs: the process reads the end of its input and goes
  for (const handle of [s.child, s.child.stdin, s.child.stdout, s.child.stderr]) {
    handle.unref?.()
  }
  return s
}

function stop(s) {
  s.listener = null
  s.dead = true
  try {
    s.child?.kill("SIGKILL")
  } catch {}
}

// one input, one answer: {code, out, err}, or {failed, died} when none came
function exchange(s, input) {
  return new Promise((resolve) => {
    let timer
    const done = (r) => {
      clearTimeout(timer)
      s.listener = null
      resolve(r)
    }
    const wait = (ms) => {
      clearTimeout(timer)
      timer = setTimeout(() => done({ failed: `no answer within ${Math.round(ms / 1000)} s`, died: false }), ms)
    }
    s.listener = (line) => {
      if (line === null) {
        done({ failed: s.err || "it ended", died: true })
        return
      }
      let m
      try {
        m = JSON.parse(line)
      } catch {
        done({ failed: "its answer is not JSON", died: false })
        return
      }
      if (Number.isInteger(m?.wait) && m.wait >= 0) {
        wait(m.wait * 1000 + 5000)
      } else if (Number.isInteger(m?.exit) && typeof m.stdout === "string" && typeof m.stderr === "string") {
        done({ code: m.exit, out: m.stdout, err: m.stderr })
      } else {
        done({ failed: "its answer is not one", died: false })
      }
    }
    wait(FIRST_LINE_MS)
    if (s.dead) {
      done({ failed: s.err || "it ended", died: true })
      return
    }
    s.child.stdin.write(input + "\n")
  })
}

// a process that died is started again once for the same call; one that gave no answer in time is
// not waited for again: the call is refused
async function viaServe(input) {
  let why = ""
  for (let attempt = 0; attempt < 2; attempt++) {
    if (served === null || served.dead) {
      served = start()
    }
    const r = await exchange(served, input)
    if (r.failed === undefined) {
      return r
    }
    stop(served)
    served = null
    why = r.failed
    if (!r.died) {
      break
    }
  }
  return { code: -1, out: "", err: why }
}

// one call at a time through the process, in order
let queue = Promise.resolve()

function relay(input) {
  if (!SERVES) {
    return once(input)
  }
  const answer = queue.then(() => viaServe(input))
  queue = answer.catch(() => {})
  return answer
}
