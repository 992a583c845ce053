import type { NewMerchant } from "@gateway/domain/ports/MerchantRepo"
import { Layer, Redacted } from "effect"
import { randomBytes, randomUUID } from "node:crypto"
import * as ApiKeyRepoPg from "../src/ApiKeyRepoPg.ts"
import * as AuditLogPg from "../src/AuditLogPg.ts"
import * as ChangeFeed from "../src/cache/ChangeFeed.ts"
import * as DataCipher from "../src/db/DataCipher.ts"
import * as GameCatalogPg from "../src/GameCatalogPg.ts"
import * as MerchantRepoPg from "../src/MerchantRepoPg.ts"
import * as PgTest from "../testing/PgTest.ts"

export const publicBaseUrl = "https://gateway.example"

/** The repositories (merchants, keys, games, audit log) on a migrated database of this test file, plus the change feed and the SqlClient for raw checks. */
export const reposLayer = Layer.mergeAll(
  MerchantRepoPg.layer,
  ApiKeyRepoPg.layer,
  AuditLogPg.layer,
  GameCatalogPg.layer(publicBaseUrl)
).pipe(
  Layer.provideMerge(Layer.merge(DataCipher.layer(Redacted.make(randomBytes(32))), ChangeFeed.layer())),
  Layer.provideMerge(PgTest.layer)
)

export const newMerchant = (email: string): NewMerchant => ({
  email,
  companyName: "Example Bet",
  country: "ET",
  currency: "ETB",
  providerId: 1,
  clientId: randomUUID(),
  hashedClientId: "ab".repeat(32),
  publicKey: "-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEA\n-----END PUBLIC KEY-----",
  passwordHash: "scrypt$hash",
  otpHash: "sha256$hash",
  privateKey: Redacted.make("-----BEGIN PRIVATE KEY-----\nSUPER-SECRET-PRIVATE\n-----END PRIVATE KEY-----"),
  encryptionKey: Redacted.make("whsec_c2VjcmV0LWVuY3J5cHRpb24ta2V5LXZhbHVlLTAx")
})
