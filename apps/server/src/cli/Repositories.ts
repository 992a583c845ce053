import { Effect, Layer } from "effect"
import { GatewayConfig } from "../Config.ts"
import { load } from "./Output.ts"

/** The database and the repositories, configured from the environment (the adapters loaded when a command runs). */
export const Repositories = Layer.unwrap(
  Effect.gen(function*() {
    const config = yield* GatewayConfig
    const { repositories } = yield* load(() => import("../App.ts"))
    const Secrets = yield* load(() => import("../Secrets.ts"))
    return repositories(config, yield* Secrets.dataEncryptionKeys(config))
  })
)
