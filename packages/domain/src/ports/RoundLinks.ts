import { Context } from "effect"

/**
 * The links to a round's details (CONTRACT §10): a URL carrying a signature
 * of the round id by a key of the gateway, valid for ever (no token is
 * stored). While keys are rotated, the first signs and every one verifies.
 */
export class RoundLinks extends Context.Service<RoundLinks, {
  /** The public URL of a round's details page. */
  url(roundId: string): string
  /** Whether `signature` is a signature of `roundId` by one of the keys, compared in constant time. */
  verify(roundId: string, signature: string): boolean
}>()("@gateway/domain/ports/RoundLinks") {}
