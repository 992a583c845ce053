import { definitionOf } from "@gateway/domain/games/Games"
import { escapeHtml } from "./Escape.ts"

/** The SVG image of a built-in game (`<id>.svg`): its definition's art under its name; undefined for anything else. */
export const gameImage = (file: string): string | undefined => {
  const game = file.endsWith(".svg") ? definitionOf(file.slice(0, -4)) : undefined
  if (game === undefined) return undefined
  const { from, to, body } = game.art
  return `<svg xmlns="http://www.w3.org/2000/svg" width="320" height="200" viewBox="0 0 320 200" ` +
    `font-family="Arial, Helvetica, sans-serif">` +
    `<defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/>` +
    `<stop offset="1" stop-color="${to}"/></linearGradient>` +
    `<radialGradient id="ball" cx=".35" cy=".3" r=".8"><stop offset="0" stop-color="#fff"/>` +
    `<stop offset=".6" stop-color="#e2e8f0"/><stop offset="1" stop-color="#94a3b8"/></radialGradient>` +
    `<linearGradient id="die" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#fff"/>` +
    `<stop offset="1" stop-color="#cbd5e1"/></linearGradient></defs>` +
    `<rect width="320" height="200" rx="16" fill="url(#bg)"/>` +
    `<circle cx="286" cy="30" r="46" fill="#fff" fill-opacity=".08"/><circle cx="24" cy="182" r="60" fill="#fff" fill-opacity=".06"/>` +
    body +
    `<rect x="0" y="150" width="320" height="50" fill="#000" fill-opacity=".35"/>` +
    `<text x="160" y="184" text-anchor="middle" font-size="26" font-weight="800" fill="#ffffff">${escapeHtml(game.name)}</text></svg>`
}
