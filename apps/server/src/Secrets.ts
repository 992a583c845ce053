import { Effect, Option, Redacted } from "effect"
import type { AdminAuth } from "@gateway/adapters-http"
import { DataCipher } from "@gateway/adapters-pg"
import { randomBytes } from "node:crypto"
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import type { GatewayConfig } from "./Config.ts"

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
 * How admin bearer tokens are verified: `AUTH_JWT_SECRET` (a list while it
 * is rotated: the first signs, every one verifies) / `AUTH_JWKS_URL` as set
 * (a JWKS only with `AUTH_AUDIENCE` and `AUTH_ISSUER`, CONTRACT §7). With
 * neither, in embedded mode (no `DATABASE_URL`) a secret is
 * generated once into `DATA_DIR/auth-jwt.secret` (the CLI's `token issue`
 * reads the same file); with `DATABASE_URL` start-up stops with one line.
 */
export const adminTokens = (config: GatewayConfig): Effect.Effect<AdminAuth.AdminTokenOptions, StartupError> =>
  Effect.gen(function*() {
    const { auth } = config
    const options = {
      jwksUrl: Option.getOrUndefined(auth.jwksUrl),
      issuer: Option.getOrUndefined(auth.issuer),
      audience: Option.getOrUndefined(auth.audience),
      maxLifetimeSeconds: auth.maxLifetimeSeconds
    }
    if (Option.isSome(auth.jwksUrl)) {
      // Without both, any token of that identity provider with the right scope names would pass.
      const missing = [
        ...(Option.isNone(auth.audience) ? ["AUTH_AUDIENCE"] : []),
        ...(Option.isNone(auth.issuer) ? ["AUTH_ISSUER"] : [])
      ]
      if (missing.length > 0) {
        return yield* Effect.fail(new StartupError(`AUTH_JWKS_URL requires ${missing.join(" and ")}`))
      }
    }
    if (Option.isSome(auth.secrets) || Option.isSome(auth.jwksUrl)) {
      const [secret, ...previousSecrets] = Option.getOrElse(auth.secrets, () => [])
      return { ...options, secret, previousSecrets }
    }
    if (Option.isSome(config.databaseUrl)) {
      return yield* Effect.fail(new StartupError("AUTH_JWT_SECRET or AUTH_JWKS_URL is required when DATABASE_URL is set"))
    }
    const secret = yield* Effect.try({
      try: () => {
        mkdirSync(config.dataDir, { recursive: true })
        return readOrCreate(join(config.dataDir, "auth-jwt.secret"))
      },
      catch: (error) => new StartupError(`cannot create DATA_DIR/auth-jwt.secret: ${String(error)}`)
    })
    return { ...options, secret: Redacted.make(secret) }
  })

/**
 * The keys secrets are encrypted with at rest: `DATA_ENCRYPTION_KEY` (a list
 * while it is rotated: the first encrypts, every one decrypts), else in
 * embedded mode a key generated once into `DATA_DIR/encryption.key`; with
 * `DATABASE_URL` the variable is required.
 */
export const dataEncryptionKeys = (
  config: GatewayConfig
): Effect.Effect<DataCipher.DataKeys, DataCipher.DataCipherConfigError> =>
  Option.isNone(config.dataEncryptionKey) && Option.isSome(config.databaseUrl)
    ? Effect.fail(
      new DataCipher.DataCipherConfigError({
        message: "DATA_ENCRYPTION_KEY is required when DATABASE_URL is set (32 bytes, hex or base64)"
      })
    )
    : DataCipher.keysOrFile(config.dataEncryptionKey, config.dataDir)
