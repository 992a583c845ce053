/**
 * PostgreSQL adapters of the Operator Gateway: the database (external or
 * embedded) with its migrations, encryption of secrets at rest, and the
 * implementations of the MerchantRepo, ApiKeyRepo, GameCatalog,
 * GameSessionRepo, RoundLedger and DeliveryQueue ports.
 */
export * as ApiKeyRepoPg from "./ApiKeyRepoPg.ts"
export * as DataCipher from "./DataCipher.ts"
export * as Database from "./Database.ts"
export * as DeliveryQueuePg from "./DeliveryQueuePg.ts"
export * as EmbeddedPostgres from "./EmbeddedPostgres.ts"
export * as GameCatalogPg from "./GameCatalogPg.ts"
export * as Housekeeping from "./Housekeeping.ts"
export * as GameSessionRepoPg from "./GameSessionRepoPg.ts"
export * as MerchantRepoPg from "./MerchantRepoPg.ts"
export * as Migrations from "./Migrations.ts"
export * as PgTest from "./PgTest.ts"
export * as RoundLedgerPg from "./RoundLedgerPg.ts"
