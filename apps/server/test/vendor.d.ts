/** The part of parse-prometheus-text-format the tests use (the package ships no types). */
declare module "parse-prometheus-text-format" {
  namespace parsePrometheusTextFormat {
    /** One series; a histogram without labels is folded into one sample with `buckets`, `count` and `sum`. */
    interface Sample {
      readonly value?: string
      readonly labels?: Readonly<Record<string, string>>
      readonly buckets?: Readonly<Record<string, string>>
      readonly count?: string
      readonly sum?: string
    }
    interface Family {
      readonly name: string
      readonly help: string
      readonly type: "COUNTER" | "GAUGE" | "HISTOGRAM" | "SUMMARY" | "UNTYPED"
      readonly metrics: ReadonlyArray<Sample>
    }
  }
  /** Throws on a line that is not of the text format. */
  function parsePrometheusTextFormat(text: string): Array<parsePrometheusTextFormat.Family>
  export = parsePrometheusTextFormat
}
