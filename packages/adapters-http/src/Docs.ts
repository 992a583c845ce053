import { Effect, Layer } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import * as Problem from "@gateway/client/api/Problem"
import { escapeHtml } from "./page/Escape.ts"
import { docsStyle, scalarScript } from "./ScalarScript.ts"

/** Where the API reference's script is served. */
export const scriptPath = "/docs/scalar.js"

/** Where the API reference's own style sheet is served: mends to Scalar's layout (`docs.css`). */
export const stylePath = "/docs/docs.css"

/**
 * The API reference page: Scalar mounts itself on the `#api-reference`
 * element, reading the document from `/openapi.json` and its configuration
 * from the element (its HTML API: no script of ours), with the script from
 * this server, not a CDN. Scalar adds its styles to the head as it starts;
 * ours, linked in the body, come after them and win at equal specificity.
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
    <link rel="stylesheet" href="${stylePath}" />
  </body>
</html>
`

/**
 * A file's bytes, read when asked for, which browsers may keep an hour. A file that cannot be read (an
 * installation that copied the bundle without the rest of `dist/`) is 503 SERVICE_UNAVAILABLE naming it, and
 * the log says what to do, once per process, instead of a 500 and a stack trace on every request.
 */
const served = (path: HttpRouter.PathInput, read: () => Promise<Uint8Array>, contentType: string, file: string) => {
  let told = false
  const missing = Problem.toResponse(
    Problem.make("SERVICE_UNAVAILABLE", `${file} of the API reference is not installed with this server`)
  )
  return HttpRouter.add(
    "GET",
    path,
    Effect.matchEffect(Effect.tryPromise(read), {
      onFailure: (error) => {
        if (told) return Effect.succeed(missing)
        told = true
        return Effect.as(
          Effect.logError(
            `${path} answers 503: ${file} could not be read (${String(error.cause).slice(0, 200)}); install the whole dist/ ` +
              "directory beside the server's bundle (README)"
          ),
          missing
        )
      },
      onSuccess: (bytes) =>
        Effect.succeed(HttpServerResponse.uint8Array(bytes, { contentType }).pipe(
          HttpServerResponse.setHeader("cache-control", "public, max-age=3600")
        ))
    })
  )
}

/**
 * `GET /docs`, the API reference (Scalar), and `GET /docs/scalar.js`, its
 * script. `HttpApiScalar` inlined the 3.2 MB script in the page and kept it
 * in memory from start-up, and the page too once built: 6–13 MB of every
 * instance's heap (as two-byte strings) for a page few people open. The
 * script is now read when asked for (the bundle reads its file's bytes, sent
 * as they are) and may be kept by browsers for an hour; so may the page's
 * style sheet, `GET /docs/docs.css`.
 */
export const layer = (openapiPath: string): Layer.Layer<never, never, HttpRouter.HttpRouter> =>
  Layer.mergeAll(
    HttpRouter.add(
      "GET",
      "/docs",
      HttpServerResponse.html(page(openapiPath)).pipe(HttpServerResponse.setHeader("cache-control", "no-cache"))
    ),
    served(scriptPath, scalarScript, "text/javascript; charset=utf-8", "scalar.js"),
    served(stylePath, docsStyle, "text/css; charset=utf-8", "docs.css")
  )
