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

/**
 * A record as a spreadsheet reads it with `separator` as its list separator
 * (Excel takes it from the locale: `,`, `;`, tab, sometimes `|`): cells split at
 * the separator outside double quotes, a quoted cell's quotes removed.
 */
const readAs = (record: string, separator: string): Array<string> => {
  const text = record.replace(/\r\n$/, "")
  const cells: Array<string> = []
  let i = 0
  for (;;) {
    let cell = ""
    if (text[i] === "\"") {
      for (i++; i < text.length && !(text[i] === "\"" && text[i + 1] !== "\""); i++) {
        if (text[i] === "\"") i++
        cell += text[i]
      }
      i++
    }
    for (; i < text.length && text[i] !== separator; i++) cell += text[i]
    cells.push(cell)
    if (text[i] === separator) i++
    else return cells
  }
}

const separators = [",", ";", "\t", "|"]
/**
 * What a cell must not start with: OWASP's list for a whole cell, and a formula after blanks (spaces, tabs, CRs: a
 * spreadsheet may trim them), also inside a record split elsewhere.
 */
const formula = /^(?:[ \t\r]*[=+\-@]|[\t\r])/
const formulaAfterBlanks = /^[ \t\r]*[=+\-@]/

describe("CSV", () => {
  it("gives back every cell of a record, whatever it holds (RFC 4180 quoting)", () => {
    fc.assert(fc.property(fc.array(fc.string({ unit: "binary" }), { minLength: 1, maxLength: 8 }), (cells) => {
      assert.deepStrictEqual(parseRecord(Csv.row(cells)), cells)
    }))
  })

  it("writes untrusted text that a spreadsheet would run as a formula with a leading quote, and nothing else changed", () => {
    fc.assert(fc.property(fc.string({ unit: "binary" }), (text) => {
      const [cell = ""] = parseRecord(Csv.row([{ untrusted: text }]))
      const guarded = formula.test(text) ? `'${text}` : text
      assert.strictEqual(cell, /[,;\t|"\r\n][ \t\r]*[=+\-@]/.test(text) ? cell : guarded)
      const quotes = /'(?=[ \t\r]*[=+\-@]|[\t\r])/g
      assert.strictEqual(cell.replaceAll(quotes, ""), text.replaceAll(quotes, ""))
    }))
    assert.strictEqual(Csv.row([{ untrusted: "=1+2" }, "-1.00", { untrusted: "a,\"b\"" }]), "'=1+2,-1.00,\"a,\"\"b\"\"\"\r\n")
  })

  it("never lets untrusted text start a formula, whichever list separator the spreadsheet splits on", () => {
    const text = fc.string({ unit: fc.constantFrom("x", "1", "=", "+", "-", "@", ",", ";", "\t", "|", "\"", "\r", "\n", " ") })
    fc.assert(fc.property(fc.array(text, { minLength: 1, maxLength: 4 }), fc.constantFrom(...separators), (texts, separator) => {
      const cells = readAs(Csv.row(["id-1", ...texts.map((untrusted) => ({ untrusted })), "12.50"]), separator)
      if (separator === ",") assert.strictEqual(cells.length, texts.length + 2, JSON.stringify(cells))
      for (const cell of cells) {
        assert.isFalse((separator === "," ? formula : formulaAfterBlanks).test(cell), JSON.stringify(cells))
      }
    }), { numRuns: 2000 })
    assert.strictEqual(Csv.row([{ untrusted: "x;=1+2;" }]), "\"x;'=1+2;\"\r\n")
    assert.strictEqual(Csv.row([{ untrusted: " =1+1" }, { untrusted: "a; -2" }]), "' =1+1,\"a;' -2\"\r\n")
    for (const separator of separators) {
      for (const cell of readAs(Csv.row(["r-1", { untrusted: "x;=1+2;" }]), separator)) assert.notMatch(cell, formulaAfterBlanks)
    }
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
