/**
 * PostgreSQL adapters of the Operator Gateway: the database (external or
 * embedded) with its migrations and encryption of secrets at rest, one
 * implementation per port, the repository caches and the background jobs.
 */
export * as DataCipher from "./db/DataCipher.ts"
export * as Database from "./db/Database.ts"
export * as EmbeddedPostgres from "./db/EmbeddedPostgres.ts"
export * as Migrations from "./db/Migrations.ts"
export * as Reencrypt from "./db/Reencrypt.ts"
export * as OutboxHandoff from "./db/Handoff.ts"
export * as ApiKeyRepoPg from "./ApiKeyRepoPg.ts"
export * as DeliveryQueuePg from "./DeliveryQueuePg.ts"
export * as FreeRoundsPg from "./FreeRoundsPg.ts"
export * as GameCatalogPg from "./GameCatalogPg.ts"
export * as GameSessionRepoPg from "./GameSessionRepoPg.ts"
export * as LaunchKeyStorePg from "./LaunchKeyStorePg.ts"
export * as MerchantRepoPg from "./MerchantRepoPg.ts"
export * as MetricsRefreshPg from "./MetricsRefreshPg.ts"
export * as ReadinessPg from "./ReadinessPg.ts"
export * as RoundLedgerPg from "./RoundLedgerPg.ts"
export * as ReportsPg from "./ReportsPg.ts"
export * as CachedApiKeyRepo from "./cache/CachedApiKeyRepo.ts"
export * as CachedMerchantRepo from "./cache/CachedMerchantRepo.ts"
export * as ChangeFeed from "./cache/ChangeFeed.ts"
export * as Housekeeping from "./jobs/Housekeeping.ts"
export * as StaleDebits from "./jobs/StaleDebits.ts"
