import { Layer } from "effect"
import {
  ApiKeyRepoPg,
  DataCipher,
  Database,
  DeliveryQueuePg,
  GameCatalogPg,
  GameSessionRepoPg,
  MerchantRepoPg,
  RoundLedgerPg
} from "@gateway/adapters-pg"
import * as LaunchKeyStorePg from "@gateway/adapters-pg/LaunchKeyStorePg"
import * as Credentials from "@gateway/adapters-operator/Credentials"
import * as Ids from "@gateway/adapters-operator/Ids"

/**
 * The database (from `DATABASE_URL`, else embedded in `DATA_DIR`), migrated,
 * with the repositories of the domain ports on top of it and the generators
 * of ids and credentials.
 */
export const PersistenceLive = Layer.mergeAll(
  MerchantRepoPg.layer,
  ApiKeyRepoPg.layer,
  GameCatalogPg.layerConfig,
  LaunchKeyStorePg.layerConfig,
  GameSessionRepoPg.layerConfig,
  RoundLedgerPg.layer,
  DeliveryQueuePg.layer(),
  Credentials.layer,
  Ids.layer
).pipe(
  Layer.provide(DataCipher.layerConfig),
  Layer.provideMerge(Database.layerConfig)
)
