import { bundleBrowserApp, type PlayBundle } from "@gateway/play/build"
import { join } from "node:path"

const here = import.meta.dirname

/** Where the bundle is written: `dist/backoffice.js` and `dist/backoffice.css`, read by `assets.ts`. */
export const distDir = join(here, "dist")

/**
 * Bundles the back office (`src/main.ts` and what it imports; the client's
 * types vanish at build) and its style sheet (`style/app.css`), minified, into
 * {@link distDir}, as the game page is bundled.
 */
export const buildBackoffice = (): Promise<PlayBundle> =>
  bundleBrowserApp(join(here, "src", "main.ts"), join(here, "style", "app.css"), distDir, "backoffice")
