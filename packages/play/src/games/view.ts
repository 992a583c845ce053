import type { Stage } from "../stages.ts"

/** How the page plays a game: its controls, the selection they make (null until one is made) and its stage. */
export interface GameView {
  readonly stage: Stage
  controls(box: HTMLElement): void
  selection(): unknown
  /** For a number game: the most numbers a player may pick. */
  readonly most?: number
  /** What the player is asked to do, shown until the first round. */
  hint(): string
  /** Makes a pick for a player who presses Play without one (a number game's quick pick). */
  readonly autoPick?: () => void
}
