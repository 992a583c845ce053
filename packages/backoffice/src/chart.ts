import { h, svg } from "./dom.ts"

/** One bar group of a chart: its label and a value per series (major units, for drawing only). */
export interface Bar {
  readonly label: string
  readonly values: ReadonlyArray<number>
}

const palette = ["series-a", "series-b", "series-c"]

/**
 * A bar chart as inline SVG: groups along the x axis, one bar per series,
 * negative values below the zero line; scales to its box. `role="img"` with
 * a label that says what it shows; the numbers are in the table beside it.
 */
export const barChart = (title: string, series: ReadonlyArray<string>, bars: ReadonlyArray<Bar>): HTMLElement => {
  const width = Math.max(280, Math.min(1000, (document.getElementById("main")?.clientWidth ?? 640) - 48))
  const height = 220
  const pad = { top: 12, bottom: 36, left: 8, right: 8 }
  const all = bars.flatMap((bar) => bar.values)
  const max = Math.max(0, ...all)
  const min = Math.min(0, ...all)
  const span = max - min || 1
  const y = (value: number) => pad.top + ((max - value) / span) * (height - pad.top - pad.bottom)
  const slot = (width - pad.left - pad.right) / Math.max(1, bars.length)
  const barWidth = Math.min(48, Math.max(2, (slot * 0.8) / Math.max(1, series.length)))
  const first = (slot - barWidth * series.length) / 2
  const every = Math.ceil(bars.length / Math.max(1, Math.floor(width / 60)))
  const chart = svg(
    "svg",
    { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": `${title}: ${bars.length} groups`, width, height, class: "chart" },
    svg("line", { x1: pad.left, x2: width - pad.right, y1: y(0), y2: y(0), class: "axis" }),
    ...bars.flatMap((bar, i) => [
      ...bar.values.map((value, s) =>
        svg("rect", {
          x: pad.left + i * slot + first + s * barWidth,
          y: Math.min(y(value), y(0)),
          width: barWidth,
          height: Math.max(value === 0 ? 0 : 1, Math.abs(y(value) - y(0))),
          class: palette[s] ?? "series-a"
        }, svg("title", {}, `${bar.label} ${series[s] ?? ""}: ${value.toFixed(2)}`))),
      i % every === 0
        ? svg("text", { x: pad.left + i * slot + slot / 2, y: height - 12, "text-anchor": "middle", class: "tick" }, /^\d{4}-\d{2}-\d{2}$/.test(bar.label) ? bar.label.slice(5) : bar.label)
        : null
    ])
  )
  const legend = h("ul", { class: "legend", "aria-hidden": "true" }, ...series.map((name, s) => h("li", {}, h("span", { class: `swatch ${palette[s] ?? ""}` }), name)))
  return h("figure", { class: "figure" }, h("figcaption", {}, title), chart, legend)
}
