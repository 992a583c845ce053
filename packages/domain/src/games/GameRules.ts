import type { Result } from "effect"
import type { ValidationFailed } from "../Validation.ts"
import type { Draws } from "./Draws.ts"
import type { ExpectedMultiplier, PayoutLine } from "./PayTable.ts"

/** A JSON Schema (draft 2020-12) document, as published for a game's selection. */
export type JsonSchema = { readonly [keyword: string]: unknown }

/** The dialect every selection schema declares. */
export const dialect = "https://json-schema.org/draft/2020-12/schema"

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

/**
 * How a game's selection is written, as data (no `effect`): one of a few strings, a whole number in a range, or
 * 1 to `most` distinct numbers of 1…`total`. `expectation` opens every refusal's detail. `Games` builds the
 * decoder from it (`Selection.decoderOf`), in agreement with the published JSON Schema.
 */
export type SelectionSpec =
  | { readonly kind: "oneOf"; readonly values: ReadonlyArray<string>; readonly expectation: string }
  | { readonly kind: "integer"; readonly minimum: number; readonly maximum: number; readonly expectation: string }
  | { readonly kind: "numbers"; readonly total: number; readonly most: number; readonly expectation: string }

/** A game's rules as its module writes them: everything but the decoder, which its {@link SelectionSpec} gives. */
export type EngineRules<Selection = unknown, Outcome extends GameOutcome = GameOutcome> =
  & Omit<GameRules<Selection, Outcome>, "decodeSelection">
  & { readonly selection: SelectionSpec }
