import { randomBytes } from "node:crypto"
import { escapeHtml } from "./Escape.ts"
import { pageScript } from "./PageScript.ts"

/** What the game page is rendered with; every value is escaped. */
export interface PageInput {
  readonly gameId: string
  readonly gameName: string
  readonly token: string | undefined
  readonly playable: boolean
  readonly nonce: string
}

const style = `html,body{margin:0;width:100%;height:100%}
body{font-family:system-ui,sans-serif;background:#0f172a;color:#f8fafc;display:flex;align-items:center;justify-content:center}
main{width:100%;max-width:28rem;padding:1.5rem;box-sizing:border-box;text-align:center}
header{display:flex;align-items:center;justify-content:center;gap:.75rem;min-height:3rem}
#logo{max-height:3rem}h1{font-size:1.5rem;margin:.5rem 0}
#wallet{margin:.5rem 0;font-size:1.1rem}#drawn{font-size:3rem;font-weight:700;min-height:3.5rem;margin:1rem 0}
input{font-size:1.2rem;padding:.5rem;width:8rem;text-align:center;border-radius:.5rem;border:0}
.choices{display:flex;gap:1rem;justify-content:center;margin:1rem 0}
button{font-size:1.2rem;padding:.75rem 1.5rem;border:0;border-radius:.75rem;cursor:pointer;color:#fff}
#odd{background:#7c3aed}#even{background:#0ea5e9}button:disabled{opacity:.5}
#message{min-height:1.5rem}.error{color:#fca5a5}.win{color:#86efac;font-weight:700}#cup{max-height:4rem}`

/**
 * The game page: an iframe-friendly HTML document (100% width and height)
 * whose inline style and script carry the response's nonce. The token, game
 * id and name are passed as escaped `data-` attributes, never as code.
 */
export const renderPage = (input: PageInput): string => {
  const attr = (name: string, value: string) => ` data-${name}="${escapeHtml(value)}"`
  const name = escapeHtml(input.gameName)
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="referrer" content="no-referrer"><title>${name}</title>
<style nonce="${input.nonce}">${style}</style></head>
<body${attr("game", input.gameId)}${attr("token", input.token ?? "")}${attr("playable", String(input.playable))}>
<main><header><img id="logo" alt="" hidden><h1>${name}</h1></header>
<p id="wallet" hidden>Balance: <span id="balance"></span></p>
<section id="game" hidden><div id="drawn"></div><img id="cup" alt="" hidden>
<label>Stake <input id="stake" inputmode="decimal" value="1" autocomplete="off"></label>
<div class="choices"><button id="odd" type="button">Odd</button><button id="even" type="button">Even</button></div></section>
<p id="message" role="status" aria-live="polite"></p></main>
<script nonce="${input.nonce}">${pageScript}</script></body></html>`
}

/** The page's Content-Security-Policy: inline code by nonce only, branding images and fonts over https, any framer. */
export const contentSecurityPolicy = (nonce: string): string =>
  [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    "img-src 'self' https: data:",
    "font-src https: data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors *"
  ].join("; ")

/** A fresh CSP nonce for one response: 16 random bytes, base64. */
export const newNonce = (): string => randomBytes(16).toString("base64")
