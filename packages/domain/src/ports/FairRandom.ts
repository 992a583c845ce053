import { Context } from "effect"

/**
 * The cryptography behind provably fair rounds, kept out of the pure domain.
 * Every function is synchronous and total: the domain derives a round's
 * random bytes from it (see `games/Draws.ts`) and commits to a server
 * seed by its hash.
 */
export class FairRandom extends Context.Service<FairRandom, {
  /** HMAC-SHA256 of `message` (UTF-8) under `key` (UTF-8 text, used as is): 32 bytes. */
  hmacSha256(key: string, message: string): Uint8Array
  /** The SHA-256 of `text` (UTF-8) as 64 lowercase hex characters. */
  sha256Hex(text: string): string
  /** A fresh secret server seed: 64 lowercase hex characters (32 bytes) from a CSPRNG. */
  newSeed(): string
}>()("@gateway/domain/ports/FairRandom") {}
