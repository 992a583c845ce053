import { Config, Effect, Layer, Option, References, Schema } from "effect"
import { LaunchPolicy } from "@gateway/domain/LaunchPolicy"

/** The settings the app itself reads (each adapter reads its own in its `layerConfig`). */
export const ServerConfig = Config.all({
  port: Config.Port("PORT").pipe(Config.withDefault(8080)),
  host: Config.String("HOST").pipe(Config.withDefault("0.0.0.0")),
  publicBaseUrl: Config.option(Config.URL("PUBLIC_BASE_URL")),
  launchTtlSeconds: Config.schema(
    Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 3600 })),
    "LAUNCH_TOKEN_TTL_SECONDS"
  ).pipe(Config.withDefault(60)),
  logLevel: Config.LogLevel("LOG_LEVEL").pipe(Config.withDefault("Info"))
})
export type ServerConfig = Config.Success<typeof ServerConfig>

/** `PUBLIC_BASE_URL` without a trailing slash, or the local address of the server. */
export const publicBaseUrl = (config: ServerConfig): string =>
  Option.match(config.publicBaseUrl, {
    onNone: () => `http://127.0.0.1:${config.port}`,
    onSome: (url) => url.href.replace(/\/+$/, "")
  })

/** Launch tokens: issuer = the public base URL, lifetime from `LAUNCH_TOKEN_TTL_SECONDS`. */
export const launchPolicyLayer = Layer.effect(
  LaunchPolicy,
  Effect.gen(function*() {
    const config = yield* ServerConfig
    return { issuer: publicBaseUrl(config), ttlSeconds: config.launchTtlSeconds }
  })
)

/** The minimum log level from `LOG_LEVEL`. */
export const logLevelLayer = Layer.effect(
  References.MinimumLogLevel,
  Effect.map(ServerConfig, (config) => config.logLevel)
)
