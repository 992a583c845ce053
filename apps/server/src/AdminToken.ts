import { Config, Effect, Option, Redacted } from "effect"
import { SignJWT } from "jose"
import { randomUUID } from "node:crypto"

/** What an admin bearer token grants and for how long. */
export interface AdminTokenRequest {
  readonly scopes: ReadonlyArray<string>
  readonly ttlSeconds: number
  readonly subject: string
}

/**
 * Mints an HS256 admin bearer token with `AUTH_JWT_SECRET`, carrying
 * `scope`, `exp`, and `iss`/`aud` when `AUTH_ISSUER`/`AUTH_AUDIENCE` are set.
 */
export const issueAdminToken = Effect.fn("issueAdminToken")(function*(request: AdminTokenRequest) {
  const secret = yield* Config.Redacted("AUTH_JWT_SECRET")
  const issuer = yield* Config.option(Config.String("AUTH_ISSUER"))
  const audience = yield* Config.option(Config.String("AUTH_AUDIENCE"))
  return yield* Effect.promise(() => {
    let jwt = new SignJWT({ scope: request.scopes.join(" ") })
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setSubject(request.subject)
      .setJti(randomUUID())
      .setIssuedAt()
      .setExpirationTime(`${request.ttlSeconds}s`)
    if (Option.isSome(issuer)) jwt = jwt.setIssuer(issuer.value)
    if (Option.isSome(audience)) jwt = jwt.setAudience(audience.value)
    return jwt.sign(new TextEncoder().encode(Redacted.value(secret)))
  })
})
