/**
 * PostgreSQL adapters of the Operator Gateway: the database (external or
 * embedded) with its migrations, encryption of secrets at rest, and the
 * implementations of the MerchantRepo, ApiKeyRepo and GameCatalog ports.
 */
export * as ApiKeyRepoPg from "./ApiKeyRepoPg.ts"
export * as DataCipher from "./DataCipher.ts"
export * as Database from "./Database.ts"
export * as EmbeddedPostgres from "./EmbeddedPostgres.ts"
export * as GameCatalogPg from "./GameCatalogPg.ts"
export * as MerchantRepoPg from "./MerchantRepoPg.ts"
export * as Migrations from "./Migrations.ts"
export * as PgTest from "./PgTest.ts"
