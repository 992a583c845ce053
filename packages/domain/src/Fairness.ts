import { Schema } from "effect"

/**
 * A client seed: 1 to 64 printable ASCII characters without spaces or `:`
 * (the colon separates the seed from the nonce in the HMAC message, so a
 * seed holding one could collide with another seed's later nonce).
 */
export const ClientSeed = Schema.String.check(
  Schema.isPattern(/^[!-9;-~]{1,64}$/u, { message: "must be 1 to 64 printable ASCII characters without spaces or ':'" })
).annotate({ description: "1 to 64 printable ASCII characters without spaces or `:`", examples: ["lucky-7"] })

/** The commitment a player sees before a round: the server seed's hash, the client seed and the nonce. */
export const Fairness = Schema.Struct({
  serverSeedHash: Schema.String.annotate({ description: "hex SHA-256 of the server seed's text" }),
  clientSeed: Schema.String.annotate({ description: "The client seed: the player's part of every draw" }),
  nonce: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)).annotate({ description: "The number of rounds played with this seed pair so far: the next round's nonce" })
})
export type Fairness = typeof Fairness.Type

/** A round's fairness, with the server seed once it has been revealed (a rotation, or the session has ended). */
export const RoundFairness = Schema.Struct({
  ...Fairness.fields,
  serverSeed: Schema.optionalKey(Schema.String).annotate({ description: "The server seed, once it is revealed (after a client seed change)" })
})
export type RoundFairness = typeof RoundFairness.Type

/** A server seed as revealed by a rotation, with the client seed it served and the nonces it gave. */
export const RevealedSeed = Schema.Struct({
  serverSeed: Schema.String.annotate({ description: "The server seed now revealed: hash it to check `serverSeedHash`" }),
  serverSeedHash: Schema.String.annotate({ description: "The hex SHA-256 committed to before its rounds" }),
  clientSeed: Schema.String.annotate({ description: "The client seed: the player's part of every draw" }),
  nonces: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)).annotate({ description: "The rounds played with it (nonces 0 to this − 1)" })
})
export type RevealedSeed = typeof RevealedSeed.Type

/** The body of `PUT /game-api/fairness`. */
export const RotateRequest = Schema.Struct({ clientSeed: ClientSeed }).annotate({
  identifier: "ClientSeedChange",
  description: "The body of `PUT /game-api/fairness`: the client seed of the next rounds."
})

/** The answer of `PUT /game-api/fairness`: the seed revealed and the new commitment (nonce 0). */
export class SeedRotated extends Schema.Class<SeedRotated>("@gateway/domain/SeedRotated")(Schema.Struct({
  previous: RevealedSeed.annotate({ description: "The seed pair that ends, its server seed revealed" }),
  current: Fairness.annotate({ description: "The new commitment: rounds from now on use it" })
}).annotate({
  identifier: "SeedRotated",
  description: "The answer of `PUT /game-api/fairness`: the seed revealed and the new commitment (nonce 0)."
})) {}

/** A session's seeds: the secret server seed, its committed hash and the client seed. */
export interface SessionSeed {
  readonly serverSeed: string
  readonly serverSeedHash: string
  readonly clientSeed: string
}

/** The seeds and nonce one round draws from. */
export interface RoundSeed extends SessionSeed {
  readonly nonce: number
}

/** The public part of a round's seed. */
export const commitmentOf = (seed: RoundSeed): Fairness => ({
  serverSeedHash: seed.serverSeedHash,
  clientSeed: seed.clientSeed,
  nonce: seed.nonce
})
