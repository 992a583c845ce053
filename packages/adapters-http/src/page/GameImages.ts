import { type BuiltinGameId, builtinGame } from "@gateway/domain/BuiltinGames"
import { escapeHtml } from "./Escape.ts"

const ball = (x: number, y: number, r: number, n: string | number, ring = "#94a3b8") =>
  `<circle cx="${x}" cy="${y}" r="${r}" fill="url(#ball)" stroke="${ring}" stroke-width="${r / 6}"/>` +
  `<text x="${x}" y="${y + r * 0.36}" font-size="${r}" text-anchor="middle" font-weight="800" fill="#0f172a">${n}</text>`

const die = (x: number, y: number, s: number, angle: number, pips: ReadonlyArray<readonly [number, number]>) =>
  `<g transform="rotate(${angle} ${x + s / 2} ${y + s / 2})"><rect x="${x}" y="${y}" width="${s}" height="${s}" rx="${s / 5}" ` +
  `fill="url(#die)" stroke="#0f172a" stroke-opacity=".25"/>` +
  pips.map(([px, py]) => `<circle cx="${x + px * s}" cy="${y + py * s}" r="${s / 11}" fill="#0f172a"/>`).join("") + "</g>"

const cube = (x: number, y: number, s: number, top: string, side: string, front: string) =>
  `<path d="M${x} ${y + s * 0.3}l${s / 2} -${s * 0.3}l${s / 2} ${s * 0.3}l-${s / 2} ${s * 0.3}z" fill="${top}"/>` +
  `<path d="M${x} ${y + s * 0.3}l${s / 2} ${s * 0.3}v${s * 0.7}l-${s / 2} -${s * 0.3}z" fill="${front}"/>` +
  `<path d="M${x + s} ${y + s * 0.3}l-${s / 2} ${s * 0.3}v${s * 0.7}l${s / 2} -${s * 0.3}z" fill="${side}"/>`

const grid = (hits: ReadonlyArray<number>) =>
  Array.from({ length: 40 }, (_, i) => {
    const hit = hits.includes(i)
    return `<rect x="${176 + (i % 8) * 17}" y="${34 + Math.floor(i / 8) * 17}" width="14" height="14" rx="3" ` +
      `fill="${hit ? "#fbbf24" : "#ffffff"}" fill-opacity="${hit ? 1 : 0.22}"/>`
  }).join("")

/** Each built-in game's colours and art (its name is written below the art). */
const art: { readonly [K in BuiltinGameId]: { readonly from: string; readonly to: string; readonly body: string } } = {
  "odd-even": {
    from: "#312e81",
    to: "#7c3aed",
    body: ball(112, 78, 40, 17, "#a78bfa") + ball(212, 78, 40, 24, "#22d3ee") +
      `<text x="112" y="28" font-size="13" text-anchor="middle" font-weight="700" fill="#ede9fe">ODD</text>` +
      `<text x="212" y="28" font-size="13" text-anchor="middle" font-weight="700" fill="#cffafe">EVEN</text>`
  },
  "under-over": {
    from: "#064e3b",
    to: "#0ea5e9",
    body: die(82, 36, 72, -12, [[0.25, 0.25], [0.5, 0.5], [0.75, 0.75]]) +
      die(170, 40, 72, 10, [[0.25, 0.25], [0.75, 0.25], [0.25, 0.75], [0.75, 0.75]]) +
      `<text x="290" y="60" font-size="22" text-anchor="end" font-weight="800" fill="#ecfeff">7</text>`
  },
  "color-game": {
    from: "#7f1d1d",
    to: "#f59e0b",
    body: cube(58, 40, 66, "#fca5a5", "#b91c1c", "#dc2626") + cube(128, 26, 66, "#86efac", "#15803d", "#16a34a") +
      cube(198, 40, 66, "#93c5fd", "#1d4ed8", "#2563eb")
  },
  "lotto": {
    from: "#78350f",
    to: "#eab308",
    body: [7, 12, 23, 31, 38, 45].map((n, i) => ball(50 + i * 44, 72 + (i % 2 ? -12 : 12), 20, n, "#fde68a")).join("")
  },
  "mega-ten": {
    from: "#4a044e",
    to: "#db2777",
    body: grid([2, 9, 13, 20, 27, 30, 36]) + ball(96, 78, 46, 10, "#f9a8d4")
  },
  "single": {
    from: "#0f172a",
    to: "#475569",
    body: `<circle cx="160" cy="76" r="58" fill="none" stroke="#fbbf24" stroke-width="10" stroke-dasharray="12 6"/>` +
      `<circle cx="160" cy="76" r="46" fill="#15803d"/>` + ball(160, 76, 30, 36, "#fbbf24")
  }
}

/** The SVG image of a built-in game (`<id>.svg`), or undefined for anything else. */
export const gameImage = (file: string): string | undefined => {
  const game = file.endsWith(".svg") ? builtinGame(file.slice(0, -4)) : undefined
  if (game === undefined) return undefined
  const { from, to, body } = art[game.id]
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
