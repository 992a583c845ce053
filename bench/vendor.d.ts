/** The part of autocannon's programmatic API the bench uses (the package ships no types). */
declare module "autocannon" {
  namespace autocannon {
    interface Request {
      method?: string
      path?: string
      headers?: Record<string, string>
      body?: string
      /** Called before each request is sent; what it returns is sent. */
      setupRequest?: (request: Request, context: Record<string, unknown>) => Request
      /** Called with every answer's status and body. */
      onResponse?: (status: number, body: string) => void
    }
    interface Options {
      url: string
      connections?: number
      /** Seconds. */
      duration?: number
      /** Requests to send in all (instead of a duration). */
      amount?: number
      /** Seconds before a request counts as a time-out. */
      timeout?: number
      requests?: Array<Request>
    }
    interface Histogram {
      average: number
      p50: number
      p99: number
      total: number
    }
    interface Result {
      /** Seconds. */
      duration: number
      requests: Histogram
      latency: Histogram
      errors: number
      timeouts: number
      non2xx: number
      statusCodeStats: Record<string, { count: number }>
    }
    interface Instance extends PromiseLike<Result> {
      on(event: "response", listener: (client: unknown, status: number, bytes: number, ms: number) => void): this
      stop(): void
    }
  }
  function autocannon(options: autocannon.Options): autocannon.Instance
  export = autocannon
}
