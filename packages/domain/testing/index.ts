/**
 * In-memory doubles of every port of the domain, for tests here and in
 * other packages and teams: each is a plain `make…` (returning the service
 * and a handle to inspect it) and/or a `Layer`.
 */
export * from "./ApiKeyRepoMemory.ts"
export * from "./AuditLogMemory.ts"
export * from "./BackofficeMemory.ts"
export * from "./DeliveryQueueMemory.ts"
export * from "./Fixtures.ts"
export * from "./FreeRoundsMemory.ts"
export * from "./GameCatalogMemory.ts"
export * from "./Generators.ts"
export * from "./LaunchTokens.ts"
export * from "./MerchantRepoMemory.ts"
export * from "./Operator.ts"
export * from "./ReportsMemory.ts"
export * from "./Sessions.ts"
export * from "./RoundLinksMemory.ts"
export * from "./WebhookDeskMemory.ts"
