import { Effect, Layer } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { escapeHtml } from "./page/Escape.ts"
import { scalarScript } from "./ScalarScript.ts"

/** Where the API reference's script is served. */
export const scriptPath = "/docs/scalar.js"

/**
 * The API reference page: Scalar mounts itself on the `#api-reference`
 * element, reading the document from `/openapi.json` and its configuration
 * from the element (its HTML API: no script of ours), with the script from
 * this server, not a CDN.
 */
const page = (openapiPath: string) =>
  `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>Operator Gateway API</title>
    <meta name="viewport" content="width=device-width, initial-scale=1" />
  </head>
  <body>
    <script id="api-reference" data-url="${escapeHtml(openapiPath)}" data-configuration="${
    escapeHtml(JSON.stringify({ withDefaultFonts: false }))
  }"></script>
    <script src="${scriptPath}"></script>
  </body>
</html>
`

/**
 * `GET /docs`, the API reference (Scalar), and `GET /docs/scalar.js`, its
 * script. `HttpApiScalar` inlined the 3.2 MB script in the page and kept it
 * in memory from start-up, and the page too once built: 6–13 MB of every
 * instance's heap (as two-byte strings) for a page few people open. The
 * script is now read when asked for (the bundle reads its file's bytes, sent
 * as they are) and may be kept by browsers for an hour.
 */
export const layer = (openapiPath: string): Layer.Layer<never, never, HttpRouter.HttpRouter> =>
  Layer.mergeAll(
    HttpRouter.add(
      "GET",
      "/docs",
      HttpServerResponse.html(page(openapiPath)).pipe(HttpServerResponse.setHeader("cache-control", "no-cache"))
    ),
    HttpRouter.add(
      "GET",
      scriptPath,
      Effect.map(Effect.promise(scalarScript), (script) =>
        HttpServerResponse.uint8Array(script, { contentType: "text/javascript; charset=utf-8" }).pipe(
          HttpServerResponse.setHeader("cache-control", "public, max-age=3600")
        ))
    )
  )
