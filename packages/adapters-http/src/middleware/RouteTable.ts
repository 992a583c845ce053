import { HttpApi, type HttpApiGroup } from "effect/http-api"

/** The routes of an API, for the answers and logs that need them outside the router. */
export interface RouteTable {
  /** The methods a path answers (for 405 and its `allow` header); empty for an unknown path. */
  readonly allowed: (path: string) => ReadonlyArray<string>
  /** The pattern (`/merchants/:id`) a request matched, for logs; undefined when none. */
  readonly route: (method: string, path: string) => string | undefined
}

/** A request URL's path (before the first `?`). */
export const pathOf = (url: string): string => {
  const at = url.indexOf("?")
  return at < 0 ? url : url.slice(0, at)
}

const escape = (segment: string) => segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

/** The route table of `api`, plus `extra` `[method, path]` pairs served beside it. */
export const make = <Id extends string, Groups extends HttpApiGroup.Constraint>(
  api: HttpApi.HttpApi<Id, Groups>,
  extra: ReadonlyArray<readonly [string, string]> = []
): RouteTable => {
  const routes: Array<readonly [string, string]> = [...extra]
  HttpApi.reflect(api, {
    onGroup: () => {},
    onEndpoint: ({ endpoint }) => {
      routes.push([endpoint.method, endpoint.path])
    }
  })
  const patterns = routes.map(([method, path]) => ({
    method,
    path,
    regex: new RegExp(`^${path.split("/").map((s) => s.startsWith(":") ? "[^/]+" : escape(s)).join("/")}/?$`)
  }))
  const scan = (method: string, path: string) => patterns.find((p) => p.method === method && p.regex.test(path))?.path
  // The access log asks on every request: a path without parameters is answered from a map, with what the scan
  // gives for it (so an earlier pattern that also matches still wins), the rest by the scan.
  const fixed = new Map<string, string>()
  for (const [method, path] of routes) {
    if (path.includes(":")) continue
    for (const variant of [path, `${path}/`]) {
      const found = scan(method, variant)
      if (found !== undefined) fixed.set(`${method} ${variant}`, found)
    }
  }
  return {
    allowed: (path) => [...new Set(patterns.filter((p) => p.regex.test(path)).map((p) => p.method))],
    route: (method, path) => fixed.get(`${method} ${path}`) ?? scan(method, path)
  }
}
