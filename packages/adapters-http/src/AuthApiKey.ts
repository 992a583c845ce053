import { Effect, Layer, Redacted, Result } from "effect"
import { ApiKey, ApiKeyRepo, authenticateApiKey, MerchantRepo } from "@gateway/domain"
import { ApiKeyHeader, CurrentMerchant, LaunchKey, OperatorAuth } from "./api/Security.ts"
import * as Problem from "./Problem.ts"

const headerOf = (credential: Redacted.Redacted<string>): string | undefined => {
  const value = Redacted.value(credential)
  return value === "" ? undefined : value
}

/** The OperatorAuth middleware: the merchant of an `sv-api-key` (401 unknown/revoked, 403 not active). */
export const OperatorAuthLive: Layer.Layer<OperatorAuth, never, ApiKeyRepo | MerchantRepo> = Layer.effect(
  OperatorAuth,
  Effect.gen(function*() {
    const ports = yield* Effect.context<ApiKeyRepo | MerchantRepo>()
    return OperatorAuth.of({
      svApiKey: (httpEffect, { credential }) =>
        authenticateApiKey(headerOf(credential)).pipe(
          Effect.provideContext(ports),
          Effect.mapError(Problem.fromDomain),
          Effect.flatMap((merchant) => Effect.provideService(httpEffect, CurrentMerchant, merchant))
        )
    })
  })
)

/** The LaunchKey middleware: a present, well-formed `sv-api-key`; the launch use case looks it up. */
export const LaunchKeyLive: Layer.Layer<LaunchKey> = Layer.succeed(
  LaunchKey,
  LaunchKey.of({
    svApiKey: (httpEffect, { credential }) => {
      const parsed = ApiKey.parseApiKey(headerOf(credential))
      return Result.isFailure(parsed)
        ? Effect.fail(Problem.fromDomain(parsed.failure))
        : Effect.provideService(httpEffect, ApiKeyHeader, credential)
    }
  })
)

/** Both API-key middlewares. */
export const layer: Layer.Layer<OperatorAuth | LaunchKey, never, ApiKeyRepo | MerchantRepo> = Layer.mergeAll(
  OperatorAuthLive,
  LaunchKeyLive
)
