import { Context } from "effect"

/**
 * The back office's code: the script and style sheet built from
 * packages/backoffice (TypeScript modules and CSS files, bundled and minified
 * by esbuild). The server provides the built bundle; this adapter only
 * inlines it, under the response's CSP nonce.
 */
export interface BackofficeAssets {
  readonly script: string
  readonly style: string
}

/** The bundle the back office inlines. Empty by default (a shell without code): the server provides the build. */
export const BackofficeAssets = Context.Reference<BackofficeAssets>("@gateway/adapters-http/page/BackofficePage/BackofficeAssets", {
  defaultValue: () => ({ script: "", style: "" })
})

const shell = `<a class="skip" href="#main">Skip to the content</a>
<header class="top"><span class="brand">Back office</span><span id="who" class="who"></span>
<button type="button" id="menu" class="menu" aria-expanded="false" aria-controls="nav" hidden>Menu</button></header>
<nav id="nav" class="nav" aria-label="Pages" hidden><ul id="links"></ul><button type="button" id="logout" class="link">Sign out</button></nav>
<main id="main" class="main" tabindex="-1"><noscript>The back office needs JavaScript.</noscript><p id="boot">Loading…</p></main>
<p id="live" class="sr" role="status" aria-live="polite"></p>`

/** Code put inside `<tag>`: a closing tag in it is escaped, so it cannot end the element early. */
const inlined = (code: string, tag: "script" | "style"): string => code.replace(new RegExp(`</(${tag})`, "gi"), "<\\/$1")

/** The back office's HTML document: a shell whose inline style and script carry the response's nonce. */
export const renderBackoffice = (nonce: string, assets: BackofficeAssets): string =>
  `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="referrer" content="no-referrer"><meta name="robots" content="noindex"><link rel="icon" href="data:,"><title>Back office</title>
<style nonce="${nonce}">${inlined(assets.style, "style")}</style></head>
<body>${shell}
<script nonce="${nonce}">${inlined(assets.script, "script")}</script></body></html>`

/**
 * The back office's Content-Security-Policy: inline code by nonce only, the
 * API on its own origin, the branding preview's images and fonts over https,
 * never framed (its buttons change money settings: no clickjacking).
 */
export const contentSecurityPolicy = (nonce: string): string =>
  [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    "img-src 'self' https: data:",
    "font-src 'self' https:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'"
  ].join("; ")
