import { Config, ConfigProvider, Effect, Option } from "effect"
import { randomBytes } from "node:crypto"
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"

/** A start-up setting that is missing or wrong; its message is the one line printed before exiting. */
export class StartupError extends Error {}

const readOrCreate = (file: string): string => {
  try {
    return readFileSync(file, "utf8").trim()
  } catch {
    const secret = randomBytes(32).toString("base64url")
    writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: "wx" })
    return secret
  }
}

/**
 * Runs `self` with admin bearer tokens verifiable. With neither
 * `AUTH_JWT_SECRET` nor `AUTH_JWKS_URL`: in embedded mode (no `DATABASE_URL`)
 * a secret is generated once into `DATA_DIR/auth-jwt.secret` and provided as
 * `AUTH_JWT_SECRET` (the CLI's `token issue` reads the same file); with
 * `DATABASE_URL` start-up stops with one line.
 */
export const withAuthSecret = <A, E, R>(self: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const secret = yield* Config.option(Config.String("AUTH_JWT_SECRET"))
    const jwks = yield* Config.option(Config.String("AUTH_JWKS_URL"))
    if (Option.isSome(secret) || Option.isSome(jwks)) return yield* self
    const databaseUrl = yield* Config.option(Config.String("DATABASE_URL"))
    if (Option.isSome(databaseUrl)) {
      return yield* Effect.fail(
        new StartupError("AUTH_JWT_SECRET or AUTH_JWKS_URL is required when DATABASE_URL is set")
      )
    }
    const dataDir = yield* Config.String("DATA_DIR").pipe(Config.withDefault("./.data"))
    mkdirSync(dataDir, { recursive: true })
    const env: Record<string, string> = {}
    for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value
    env["AUTH_JWT_SECRET"] = readOrCreate(join(dataDir, "auth-jwt.secret"))
    return yield* self.pipe(Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnv({ env })))
  })
