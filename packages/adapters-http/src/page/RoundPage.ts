import { Context, DateTime } from "effect"
import type { RoundDetails } from "@gateway/domain/Round"
import { definitionOf } from "@gateway/domain/games/Games"
import { escapeHtml } from "./Escape.ts"
import { pageGames } from "./PageGames.ts"

/**
 * The round page's code (packages/play `src/round.ts`, `style/round.css`,
 * bundled by esbuild), served as files of their own: the page has no inline
 * script or style. Empty by default: the server provides the built bundle.
 */
export interface RoundPageAssets {
  readonly script: string
  readonly style: string
}

export const RoundPageAssets = Context.Reference<RoundPageAssets>("@gateway/adapters-http/page/RoundPage/RoundPageAssets", {
  defaultValue: () => ({ script: "", style: "" })
})

/** Only its own files, the round's JSON from its own origin; anyone may frame it (an operator's back office). */
export const contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; " +
  "img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors *"

const text = (value: unknown): string => escapeHtml(typeof value === "string" ? value : JSON.stringify(value) ?? "")

const row = (term: string, value: string) => `<dt>${escapeHtml(term)}</dt><dd>${value}</dd>`

const summaryOf = (outcome: unknown): string =>
  typeof outcome === "object" && outcome !== null && "summary" in outcome && typeof outcome.summary === "string"
    ? outcome.summary
    : JSON.stringify(outcome) ?? ""

/** The round's page for people: what was played and drawn, and its proof with a button to verify it once revealed. */
export const renderRoundPage = (round: RoundDetails): string => {
  const definition = definitionOf(round.gameId)
  const game = definition?.name ?? round.gameId
  const f = round.fairness
  const played = [
    row("Game", escapeHtml(game)),
    row("Played", `<time datetime="${DateTime.formatIso(round.createdAt)}">${DateTime.formatIso(round.createdAt)}</time>`),
    row("Mode", escapeHtml(round.mode)),
    row("Status", escapeHtml(round.status)),
    row("Stake", `${escapeHtml(round.stake)} ${escapeHtml(round.currency)}`),
    row("Selection", `<code>${text(round.selection)}</code>`),
    ...(round.outcome === undefined ? [] : [row("Outcome", `<span id="outcome">${escapeHtml(summaryOf(round.outcome))}</span>`)]),
    ...(round.payout === undefined ? [] : [row("Payout", `<span id="payout">${escapeHtml(round.payout)} ${escapeHtml(round.currency)}</span>`)])
  ].join("")
  const proof = f === undefined ? "<p class=\"hint\">This round has no fairness record.</p>" : [
    "<dl>",
    row("Server seed hash", `<code>${escapeHtml(f.serverSeedHash)}</code>`),
    row("Client seed", `<code>${escapeHtml(f.clientSeed)}</code>`),
    row("Nonce", `<code>${f.nonce}</code>`),
    row(
      "Server seed",
      f.serverSeed === undefined
        ? "<span class=\"hint\">Not revealed yet: it is revealed when the player changes the client seed or the session ends.</span>"
        : `<code id="server-seed">${escapeHtml(f.serverSeed)}</code>`
    ),
    "</dl>",
    "<p class=\"hint\">The draw is HMAC-SHA256 of the server seed (key) over <code>clientSeed:nonce</code>; the seed's " +
    "SHA-256 was committed before the round.</p>",
    f.serverSeed === undefined ? "" : "<p><button type=\"button\" id=\"verify\" hidden>Verify in this browser</button></p>",
    "<p id=\"verify-out\" role=\"status\" aria-live=\"polite\"></p>"
  ].join("")
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer"><title>Round ${escapeHtml(round.roundId)} · ${escapeHtml(game)}</title>
<link rel="stylesheet" href="/static/round-details.css"></head>
<body data-games="${escapeHtml(pageGames(definition === undefined ? [] : [definition], false))}"><main><h1>${escapeHtml(game)}: ${escapeHtml(round.outcome === undefined ? round.status : summaryOf(round.outcome))}</h1>
<p class="sub">Round <code>${escapeHtml(round.roundId)}</code></p>
<h2>The round</h2><dl>${played}</dl>
<h2>Provably fair</h2>${proof}
</main><script src="/static/round-details.js" defer></script></body></html>`
}
