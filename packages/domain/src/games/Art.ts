/**
 * Shapes the games' artwork is drawn with: SVG fragments for a 320×200
 * picture (`GameDefinition.art`), with the gradients `#ball` and `#die`
 * that the image around them defines.
 */

/** A numbered ball at (x, y) of radius r with a coloured ring. */
export const ball = (x: number, y: number, r: number, n: string | number, ring = "#94a3b8"): string =>
  `<circle cx="${x}" cy="${y}" r="${r}" fill="url(#ball)" stroke="${ring}" stroke-width="${r / 6}"/>` +
  `<text x="${x}" y="${y + r * 0.36}" font-size="${r}" text-anchor="middle" font-weight="800" fill="#0f172a">${n}</text>`

/** A die of side s at (x, y), turned by `angle` degrees, with pips at fractions of its side. */
export const die = (x: number, y: number, s: number, angle: number, pips: ReadonlyArray<readonly [number, number]>): string =>
  `<g transform="rotate(${angle} ${x + s / 2} ${y + s / 2})"><rect x="${x}" y="${y}" width="${s}" height="${s}" rx="${s / 5}" ` +
  `fill="url(#die)" stroke="#0f172a" stroke-opacity=".25"/>` +
  pips.map(([px, py]) => `<circle cx="${x + px * s}" cy="${y + py * s}" r="${s / 11}" fill="#0f172a"/>`).join("") + "</g>"

/** A cube of side s at (x, y) seen from above, its three faces coloured. */
export const cube = (x: number, y: number, s: number, top: string, side: string, front: string): string =>
  `<path d="M${x} ${y + s * 0.3}l${s / 2} -${s * 0.3}l${s / 2} ${s * 0.3}l-${s / 2} ${s * 0.3}z" fill="${top}"/>` +
  `<path d="M${x} ${y + s * 0.3}l${s / 2} ${s * 0.3}v${s * 0.7}l-${s / 2} -${s * 0.3}z" fill="${front}"/>` +
  `<path d="M${x + s} ${y + s * 0.3}l-${s / 2} ${s * 0.3}v${s * 0.7}l${s / 2} -${s * 0.3}z" fill="${side}"/>`

/** A keno card of 8×5 cells, the cells `hits` lit. */
export const grid = (hits: ReadonlyArray<number>): string =>
  Array.from({ length: 40 }, (_, i) => {
    const hit = hits.includes(i)
    return `<rect x="${176 + (i % 8) * 17}" y="${34 + Math.floor(i / 8) * 17}" width="14" height="14" rx="3" ` +
      `fill="${hit ? "#fbbf24" : "#ffffff"}" fill-opacity="${hit ? 1 : 0.22}"/>`
  }).join("")
