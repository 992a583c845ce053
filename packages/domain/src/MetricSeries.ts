/**
 * One metric per label set, made on first use, for the adapters' metrics:
 * an update is then a map lookup, where `Metric.withAttributes` would rebuild
 * the series key from the labels on every update. `key` names the label set
 * (`labels` is called only the first time). Series are never evicted, so
 * every label must come from a bounded set (docs/metrics.md).
 */
export const series = <M>(make: (labels: Record<string, string>) => M) => {
  const made = new Map<string, M>()
  return (key: string, labels: () => Record<string, string>): M => {
    let metric = made.get(key)
    if (metric === undefined) {
      metric = make(labels())
      made.set(key, metric)
    }
    return metric
  }
}
