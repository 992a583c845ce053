import { Layer } from "effect"
import * as GameEngine from "../../adapters-operator/src/GameEngine.ts"
import type { MemoryQueue } from "../../adapters-operator/test/MemoryDeliveryQueue.ts"
import { GameEngine as GameEnginePort } from "../../domain/src/ports/GameEngine.ts"
import { jsonVerifier, ledger, type LedgerLog, sessionRepo, wallet } from "../../domain/test/walletDoubles.ts"
import { WebhookDeliveries } from "../src/WebhookDeliveries.ts"

export { jsonVerifier, launchToken, ledger, type LedgerLog, sessionRepo, wallet } from "../../domain/test/walletDoubles.ts"

/** Every port the game endpoints need, in memory; the engine always draws `draw`. */
export const gamePorts = (options: { readonly log: LedgerLog; readonly deliveries: MemoryQueue; readonly draw: number }) =>
  Layer.mergeAll(
    jsonVerifier,
    sessionRepo,
    ledger(options.log),
    wallet,
    Layer.succeed(GameEnginePort, GameEngine.make(() => options.draw)),
    Layer.succeed(WebhookDeliveries, WebhookDeliveries.of({
      listFailed: options.deliveries.service.listFailed,
      redeliver: options.deliveries.service.redeliver,
      enqueueTest: options.deliveries.service.enqueueTest
    }))
  )
