import { assert, describe, it } from "@effect/vitest"
import fc from "fast-check"
import { wantsCsv } from "../src/csv/Accept.ts"
import * as Csv from "../src/csv/Csv.ts"

/** One RFC 4180 record (CRLF-terminated) back into its cells; throws on anything else. */
const parseRecord = (text: string): Array<string> => {
  const cells: Array<string> = []
  let i = 0
  for (;;) {
    let cell = ""
    if (text[i] === "\"") {
      for (i++; !(text[i] === "\"" && text[i + 1] !== "\""); i++) {
        if (i >= text.length) throw new Error("unterminated quoted cell")
        if (text[i] === "\"") i++
        cell += text[i]
      }
      i++
    } else {
      for (; i < text.length && !/[,\r\n"]/.test(text[i] ?? ""); i++) cell += text[i]
    }
    cells.push(cell)
    if (text[i] === ",") i++
    else if (text.slice(i) === "\r\n") return cells
    else throw new Error(`unexpected ${JSON.stringify(text.slice(i, i + 10))} at ${i}`)
  }
}

describe("CSV", () => {
  it("gives back every cell of a record, whatever it holds (RFC 4180 quoting)", () => {
    fc.assert(fc.property(fc.array(fc.string({ unit: "binary" }), { minLength: 1, maxLength: 8 }), (cells) => {
      assert.deepStrictEqual(parseRecord(Csv.row(cells)), cells)
    }))
  })

  it("writes untrusted text that a spreadsheet would run as a formula with a leading quote, and nothing else changed", () => {
    fc.assert(fc.property(fc.string({ unit: "binary" }), (text) => {
      const [cell] = parseRecord(Csv.row([{ untrusted: text }]))
      assert.strictEqual(cell, /^[=+\-@\t\r]/.test(text) ? `'${text}` : text)
    }))
    assert.strictEqual(Csv.row([{ untrusted: "=1+2" }, "-1.00", { untrusted: "a,\"b\"" }]), "'=1+2,-1.00,\"a,\"\"b\"\"\"\r\n")
  })

  it("prefers CSV only when Accept ranks it above JSON", () => {
    const cases: ReadonlyArray<readonly [string | undefined, boolean]> = [
      [undefined, false], ["", false], ["*/*", false], ["application/json", false], ["text/html", false],
      ["application/problem+json", false], ["text/csv;q=0.5, application/json", false], ["text/csv;q=0, */*", false],
      ["text/csv", true], ["Text/CSV", true], ["text/*", true], ["text/csv, */*;q=0.8", true], ["text/csv, */*", true],
      ["application/json;q=0.9, text/csv", true], ["text/csv;q=abc", false], ["text/csv, application/json", false]
    ]
    for (const [accept, csv] of cases) assert.strictEqual(wantsCsv(accept), csv, String(accept))
  })
})
