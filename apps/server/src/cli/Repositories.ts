import { Effect, Layer } from "effect"
import { repositories } from "../App.ts"
import { GatewayConfig } from "../Config.ts"
import * as Secrets from "../Secrets.ts"

/** The database and the repositories, configured from the environment. */
export const Repositories = Layer.unwrap(
  Effect.gen(function*() {
    const config = yield* GatewayConfig
    return repositories(config, yield* Secrets.dataEncryptionKey(config))
  })
)
