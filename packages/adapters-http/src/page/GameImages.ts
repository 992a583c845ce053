import { type BuiltinGameId, builtinGame } from "@gateway/domain/BuiltinGames"
import { escapeHtml } from "./Escape.ts"

/** The colours of each built-in game's generated image. */
const palette: { readonly [K in BuiltinGameId]: { readonly from: string; readonly to: string } } = {
  "odd-even": { from: "#1e3a8a", to: "#7c3aed" },
  "under-over": { from: "#065f46", to: "#0ea5e9" },
  "color-game": { from: "#b91c1c", to: "#f59e0b" },
  "lotto": { from: "#854d0e", to: "#eab308" },
  "mega-ten": { from: "#4c1d95", to: "#db2777" },
  "single": { from: "#0f172a", to: "#475569" }
}

/** The SVG image of a built-in game (`<id>.svg`), or undefined for anything else. */
export const gameImage = (file: string): string | undefined => {
  const game = file.endsWith(".svg") ? builtinGame(file.slice(0, -4)) : undefined
  if (game === undefined) return undefined
  const colours = palette[game.id]
  return `<svg xmlns="http://www.w3.org/2000/svg" width="320" height="200" viewBox="0 0 320 200">` +
    `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">` +
    `<stop offset="0" stop-color="${colours.from}"/><stop offset="1" stop-color="${colours.to}"/></linearGradient></defs>` +
    `<rect width="320" height="200" rx="16" fill="url(#g)"/>` +
    `<circle cx="260" cy="50" r="28" fill="#ffffff" fill-opacity="0.18"/>` +
    `<circle cx="60" cy="160" r="40" fill="#ffffff" fill-opacity="0.12"/>` +
    `<text x="160" y="112" text-anchor="middle" font-family="Arial, Helvetica, sans-serif" font-size="32" ` +
    `font-weight="700" fill="#ffffff">${escapeHtml(game.name)}</text></svg>`
}
