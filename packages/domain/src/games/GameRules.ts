import type { Result } from "effect"
import type { ValidationFailed } from "../Validation.ts"
import type { Draws } from "./Draws.ts"
import type { ExpectedMultiplier, PayoutLine } from "./PayTable.ts"
import type { JsonSchema } from "./Selection.ts"

/** What a round showed the player: a JSON object with at least a one-line `summary`. */
export type GameOutcome = { readonly summary: string; readonly [field: string]: unknown }

/** A decided round: its outcome and the payout in minor units (0 for a loss), rounded down. */
export interface Played<Outcome extends GameOutcome = GameOutcome> {
  readonly outcome: Outcome
  readonly payout: bigint
}

/**
 * A built-in game's rules: how a selection is written, how a round is
 * decided from its draws, and what it pays. Pure: randomness comes in as
 * {@link Draws}, the RTP as basis points (clamped to 8500…9900).
 */
export interface GameRules<Selection = unknown, Outcome extends GameOutcome = GameOutcome> {
  readonly id: string
  readonly name: string
  /** A short paragraph for players. */
  readonly description: string
  /** The selection's JSON Schema (draft 2020-12), agreeing with {@link decodeSelection}. */
  readonly selectionSchema: JsonSchema
  /** Valid selections, each accepted by {@link decodeSelection}. */
  readonly examples: ReadonlyArray<unknown>
  /** Decodes an untrusted selection; a bad one is ValidationFailed on field `selection`. */
  decodeSelection(input: unknown): Result.Result<Selection, ValidationFailed>
  /** Decides a round of a decoded selection and a stake in minor units. */
  play(selection: Selection, stake: bigint, draws: Draws, rtpBp: number): Played<Outcome>
  /** The pay table published at an RTP: every winning line with its multiplier. */
  payouts(rtpBp: number): ReadonlyArray<PayoutLine>
  /** The exact expected multiplier of every pay-table row at an RTP, from the published multipliers. */
  expectedMultiplier(rtpBp: number): ReadonlyArray<ExpectedMultiplier>
}
