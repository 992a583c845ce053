import type { ControlsSpec } from "@gateway/domain/games/GameDefinition"
import type { DrawSpec } from "@gateway/domain/games/Throws"

/** A built-in game as the server's definitions describe it to the page. */
export interface BuiltinGame {
  readonly draw: DrawSpec
  readonly controls?: ControlsSpec
}

const parsed = ((): unknown => {
  try {
    return JSON.parse(document.body.dataset["games"] ?? "{}")
  } catch {
    return {}
  }
})()

/** The built-in games by id: how each draws and its controls, from the page's `data-games` (the server's game definitions). */
export const builtin: Readonly<Record<string, BuiltinGame>> = typeof parsed === "object" && parsed !== null ? { ...parsed } : {}
