import { Context } from "effect"
import { randomBytes } from "node:crypto"
import { escapeHtml } from "./Escape.ts"
import { pageGames } from "./PageGames.ts"

/**
 * The page's code: the script and style sheet of the player's page, built
 * from packages/play (TypeScript modules and CSS files, bundled and minified
 * by esbuild). The server provides the built bundle; this adapter only
 * inlines it, under the response's CSP nonce.
 */
export interface PageAssets {
  readonly script: string
  readonly style: string
}

/**
 * The bundle the page inlines. Empty by default (a page that only shows its
 * markup): the server provides `@gateway/play`'s build.
 */
export const PageAssets = Context.Reference<PageAssets>("@gateway/adapters-http/page/PlayPage/PageAssets", {
  defaultValue: () => ({ script: "", style: "" })
})

/** What the game page is rendered with; every value is escaped. */
export interface PageInput {
  readonly gameId: string
  readonly gameName: string
  readonly token: string | undefined
  readonly nonce: string
  /** The page's language (from a verified launch token; `en` otherwise). */
  readonly language?: string | undefined
  /** The operator's site the exit and error screens lead to (from a verified launch token). */
  readonly lobbyUrl?: string | undefined
}

/** What the page's Content-Security-Policy allows beyond its own inline code. */
export interface PageSources {
  /** The CSP `frame-ancestors` source list: who may frame the page (the merchant's setting, default `*`). */
  readonly frameAncestors: string
  /** The origin of the merchant's font style sheet, when its font is a style sheet rather than a font file. */
  readonly fontStylesheet?: string | undefined
}

const markup = `<div class="app" id="app">
<header class="head"><button id="to-lobby" class="back" type="button" hidden><span aria-hidden="true">&#8249;</span><span class="lbl" data-t="lobby"> Lobby</span></button>
<img id="logo" alt="" hidden><div class="title"><h1 id="title"></h1><span id="mode" class="badge" data-t="demo" hidden>DEMO</span><span id="shop" class="shop" hidden><small data-t="shop">Shop</small> <b id="shop-name"></b></span></div>
<div id="wallet" class="wallet" hidden><small id="balance-label" data-t="balance">Balance</small><output id="balance" aria-labelledby="balance-label"></output></div>
<a id="exit" class="exit" target="_top" rel="noopener" data-t-label="exitLabel" hidden><span aria-hidden="true">&#10005;</span><span class="lbl" data-t="exit">Exit</span></a></header>
<nav class="tabs" id="tabs" aria-label="Game information" data-t-label="gameInfo" hidden><span id="rtp" class="rtp"></span><span id="clock" class="clock" role="timer" hidden></span>
<button type="button" id="sound" class="sound" aria-pressed="false" aria-label="Sound" data-t-label="sound" hidden><svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true"><path d="M4 9h4l5-4v14l-5-4H4z" fill="currentColor"/><path class="on" d="M16 8.5a5 5 0 0 1 0 7M18.5 6a8.5 8.5 0 0 1 0 12" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/><path class="off" d="M16 9l5 6M21 9l-5 6" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg></button>
<button type="button" id="tab-rules" aria-pressed="false" aria-controls="p-rules" data-t="tabRules">Rules</button>
<button type="button" id="tab-history" aria-pressed="false" aria-controls="p-history" data-t="tabHistory">History</button>
<button type="button" id="tab-fair" aria-pressed="false" aria-controls="p-fair" data-t="tabFair">Fair play</button></nav>
<main class="view" id="view">
<p id="loading" class="loading" data-t="loading">Opening the game…</p>
<section id="notice" class="notice" role="alert" hidden><div class="icon" aria-hidden="true">&#9888;</div><h2 id="notice-title"></h2><p id="notice-text"></p>
<button type="button" id="retry" data-t="retry" hidden>Try again</button><a id="notice-exit" class="button" target="_top" rel="noopener" data-t="backToCasino" hidden>Back to the casino</a></section>
<section id="lobby" class="lobby" aria-labelledby="lobby-title" hidden><h2 id="lobby-title" data-t="chooseGame">Choose a game</h2><ul id="tiles" class="tiles"></ul></section>
<section id="game" class="game" aria-labelledby="title" hidden>
<div id="stage" class="stage" aria-hidden="true"></div>
<p id="result" class="result" role="status" aria-live="polite" aria-atomic="true"></p>
<p id="alert" class="alert" role="alert" hidden><span id="alert-text"></span><button type="button" id="alert-close" aria-label="Dismiss" data-t-label="dismiss">&#215;</button></p>
<div id="controls" class="controls"></div>
<button type="button" id="free" class="free" hidden></button>
<div class="bet"><div class="stake"><label for="stake" data-t="stake">Stake</label>
<button type="button" id="half" aria-label="Halve the stake" data-t-label="halve">&#189;</button>
<input id="stake" inputmode="decimal" autocomplete="off" spellcheck="false" aria-describedby="limits">
<button type="button" id="double" aria-label="2×: double the stake" data-t-label="double">2&#215;</button><span id="cur" class="cur"></span></div>
<button type="button" id="play" class="play" data-t="play">Play</button>
<div id="presets" class="presets" role="group" aria-label="Stake presets" data-t-label="presets"></div>
<button type="button" id="auto" class="auto" aria-pressed="false" aria-controls="autoplay" data-t="auto">Auto</button>
<div id="autoplay" class="autoplay" role="group" aria-label="Autoplay" data-t-label="autoplay" hidden><label for="auto-rounds" data-t="rounds">Rounds</label><select id="auto-rounds">
<option>5</option><option selected>10</option><option>25</option><option>50</option><option>100</option></select>
<label for="auto-loss" data-t="lossLimit">Loss limit</label><input id="auto-loss" inputmode="decimal" autocomplete="off" spellcheck="false">
<button type="button" id="auto-start" class="play" data-t="start">Start</button><button type="button" id="auto-close" aria-label="Close autoplay" data-t-label="closeAutoplay">&#215;</button></div>
<p id="auto-status" class="sr" role="status"></p><span id="limits" class="sr"></span></div>
<div id="celebrate" class="celebrate" hidden><div class="burst" aria-hidden="true"></div><p class="won"><b id="celebrate-amount"></b>
<button type="button" id="celebrate-skip" data-t="skip">Skip</button></p></div>
</section>
<div id="reality" class="reality" role="alertdialog" aria-modal="true" aria-labelledby="reality-title" aria-describedby="reality-text" hidden>
<div class="box"><h2 id="reality-title" data-t="realityTitle">Time for a break?</h2><p id="reality-text"></p>
<div class="acts"><button type="button" id="reality-continue" class="play" data-t="continue">Continue</button><a id="reality-leave" class="button" target="_top" rel="noopener" data-t="leave" hidden>Leave the game</a></div></div></div></main>
<aside class="side" id="side" aria-label="Rules, history and fairness" data-t-label="sidePanels"><button type="button" class="close" id="close-side" data-t="close">Close</button>
<section id="p-rules" hidden><h2 id="r-name">Rules</h2><p id="r-desc"></p><p><span data-t="rtpLong">Return to player:</span> <b id="r-rtp"></b></p>
<table id="r-pays"><caption id="r-caption">Pay table</caption><thead><tr><th scope="col" data-t="when">When</th><th scope="col" data-t="pays">Pays</th></tr></thead><tbody></tbody></table>
<p class="hint" data-t="paysNote">Pays are per 1 staked, stake included, rounded down to the currency's smallest unit.</p></section>
<section id="p-history" hidden><h2 data-t="historyTitle">Your last rounds</h2><p id="h-empty" class="hint" data-t="noRounds">No rounds yet.</p><ul id="rounds" class="rounds"></ul></section>
<section id="p-fair" hidden><h2 data-t="fairTitle">Provably fair</h2>
<p class="hint" data-t="fairIntro">Every draw comes from HMAC-SHA256 of a secret server seed (committed below by its hash before you play), your client seed and the round's nonce.</p>
<dl><dt data-t="serverSeedHash">Server seed hash</dt><dd><code id="f-hash"></code></dd><dt data-t="clientSeed">Client seed</dt><dd><code id="f-client"></code></dd><dt data-t="nextNonce">Next nonce</dt><dd><code id="f-nonce"></code></dd></dl>
<h3 data-t="newClientSeed">New client seed</h3><form id="seed-form" class="seed"><label for="seed-input" class="sr" data-t="newClientSeed">New client seed</label>
<input id="seed-input" maxlength="64" autocomplete="off" spellcheck="false" placeholder="1–64 characters, no spaces or :" data-t-ph="seedPlaceholder">
<button type="button" id="seed-random" data-t="random">Random</button><button type="submit" id="seed-apply" data-t="changeSeeds">Change seeds</button></form>
<p class="hint" data-t="changeNote">Changing it starts a new server seed and reveals the one used so far, so you can check those rounds.</p>
<p id="seed-msg" role="status"></p>
<div id="revealed" hidden><h3 data-t="revealedSeed">Revealed server seed</h3><dl><dt data-t="serverSeed">Server seed</dt><dd><code id="v-seed"></code></dd>
<dt data-t="itsHash">Its hash</dt><dd><code id="v-hash"></code></dd><dt data-t="clientSeed">Client seed</dt><dd><code id="v-client"></code></dd><dt data-t="rounds">Rounds</dt><dd id="v-nonces"></dd></dl></div>
<h3 data-t="verifyTitle">Verify a round</h3><div class="seed"><label for="verify-round" class="sr" data-t="roundToVerify">Round to verify</label><select id="verify-round"></select>
<button type="button" id="verify" data-t="verify">Verify</button></div><p id="verify-out" role="status" aria-live="polite"></p>
<details><summary data-t="howDraw">How the draw is computed</summary><p data-t="howDrawText">Bytes come in blocks of 32: block 0 is HMAC-SHA256(key = server seed, message = "clientSeed:nonce"),
block i is HMAC-SHA256(server seed, "clientSeed:nonce:i"). Each 4 bytes are an unsigned 32-bit big-endian x. A number below n is x mod n,
unless x ≥ floor(2³²/n)·n, when the next 4 bytes are read instead. Lotto (6 of 49) and Mega Ten (20 of 80) shuffle [1..n] partially
(Fisher–Yates: swap position j with j + a number below n − j). Odd Even and Single draw a number below 36, plus 1; Under Over two dice;
Color Game three dice of red, green, blue, yellow, white, pink. This page recomputes it with your browser's WebCrypto.</p></details></section>
</aside></div>`

/** Code put inside `<tag>`: a closing tag in it (a string of the bundle) is escaped, so it cannot end the element early. */
const inlined = (code: string, tag: "script" | "style"): string => code.replace(new RegExp(`</(${tag})`, "gi"), "<\\/$1")

/**
 * The game page: an iframe-friendly HTML document (100% width and height)
 * whose inline style and script carry the response's nonce. The token, game
 * id and name are passed as escaped `data-` attributes, never as code.
 */
const games = pageGames()

export const renderPage = (input: PageInput, assets: PageAssets): string => {
  const attr = (name: string, value: string) => ` data-${name}="${escapeHtml(value)}"`
  const name = escapeHtml(input.gameName)
  return `<!doctype html>
<html lang="${escapeHtml(input.language ?? "en")}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="referrer" content="no-referrer"><meta name="color-scheme" content="dark"><link rel="icon" href="data:,"><title>${name}</title>
<style nonce="${input.nonce}">${inlined(assets.style, "style")}</style></head>
<body${attr("game", input.gameId)}${attr("name", input.gameName)}${attr("token", input.token ?? "")}${attr("games", games)}${
    attr("lang", input.language ?? "en")
  }${input.lobbyUrl === undefined ? "" : attr("exit", input.lobbyUrl)}>
${markup}
<script nonce="${input.nonce}">${inlined(assets.script, "script")}</script></body></html>`
}

const defaultAncestors = "*"

/** Keeps `frameAncestors` to one directive: a list with `;`, `,` or a control character falls back to `*`. */
const ancestorsOf = (value: string): string => {
  const list = value.trim()
  return list === "" || /[;,\u0000-\u001f\u007f-\uffff]/u.test(list) ? defaultAncestors : list
}

/**
 * The page's Content-Security-Policy: inline code by nonce only, the API on
 * the page's own origin, branding images over https, fonts over https (and a
 * merchant's font style sheet from its origin), framed by `frameAncestors`.
 */
export const contentSecurityPolicy = (nonce: string, sources: PageSources = { frameAncestors: defaultAncestors }): string =>
  [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'${sources.fontStylesheet === undefined ? "" : ` ${sources.fontStylesheet}`}`,
    "img-src 'self' https: data:",
    "font-src 'self' https: data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${ancestorsOf(sources.frameAncestors)}`
  ].join("; ")

/** A fresh CSP nonce for one response: 16 random bytes, base64. */
export const newNonce = (): string => randomBytes(16).toString("base64")
