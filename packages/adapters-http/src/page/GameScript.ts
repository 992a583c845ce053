/**
 * The page script's games: each built-in game's controls (choice buttons or
 * a number grid with `aria-pressed` and arrow-key navigation), its stage
 * (ball, dice, colour dice, drawn balls) and the animated reveal of a
 * round's outcome; a game the page does not know is played from its rules'
 * examples. Plain browser JavaScript, joined by {@link pageScript}.
 */
export const gameScript = String.raw`
const COLORS = ["red", "green", "blue", "yellow", "white", "pink"]
const cap1 = (s) => s.charAt(0).toUpperCase() + s.slice(1)
const times = (m) => "×" + String(m).replace(/(\.\d*?)0+$/, "$1").replace(/\.$/, "")
const rnd = (n) => crypto.getRandomValues(new Uint32Array(1))[0] % n
const PIPS = [[], [4], [0, 8], [0, 4, 8], [0, 2, 6, 8], [0, 2, 4, 6, 8], [0, 2, 3, 5, 6, 8]]

const die = (v) => {
  const d = el("div", "die")
  for (let i = 0; i < 9; i++) d.append(el("i"))
  face(d, v)
  return d
}
const face = (d, v) => { d.querySelectorAll("i").forEach((p, i) => p.classList.toggle("on", (PIPS[v] || []).includes(i))) }
const cube = (c) => {
  const k = el("div", "cube" + (c ? " c-" + c : ""), c ? cap1(c) : "?")
  return k
}

let spinTimer = 0
let spinStart = 0
const spinStop = () => { clearInterval(spinTimer); spinTimer = 0 }
const spinEvery = (ms, step) => {
  spinStop()
  spinStart = Date.now()
  if (reduced()) return
  step()
  spinTimer = setInterval(step, ms)
}
const settle = async (ms) => {
  const left = ms - (Date.now() - spinStart)
  if (left > 0) await wait(left)
  spinStop()
}
const land = (e) => { e.classList.remove("land"); void e.offsetWidth; e.classList.add("land") }
const cells = () => [...document.querySelectorAll("#controls .cell")]
const markCells = (drawn, hits) => {
  for (const c of cells()) {
    const n = Number(c.dataset.n)
    c.classList.toggle("drawn", drawn.includes(n))
    c.classList.toggle("hit", hits.includes(n))
  }
}

const STAGES = {
  ball: {
    idle: (box) => box.replaceChildren(el("div", "ball big", "?")),
    spin: (box) => { const b = box.firstChild; box.classList.add("spin"); spinEvery(70, () => { b.textContent = rnd(36) + 1 }) },
    reveal: async (box, o, sel) => {
      await settle(700)
      box.classList.remove("spin")
      const b = box.firstChild
      b.textContent = o.number
      b.className = "ball big " + (o.number % 2 ? "odd" : "even") + (o.number === sel ? " hit" : "")
      land(b)
      if (typeof sel === "number") markCells([o.number], o.number === sel ? [sel] : [])
    }
  },
  dice: {
    idle: (box) => box.replaceChildren(die(3), die(4), el("div", "total", "Two dice: under 7, seven or over 7")),
    spin: (box) => {
      const [a, b] = box.querySelectorAll(".die")
      box.classList.add("spin")
      box.lastChild.textContent = "Rolling…"
      spinEvery(90, () => { face(a, rnd(6) + 1); face(b, rnd(6) + 1) })
    },
    reveal: async (box, o) => {
      await settle(800)
      box.classList.remove("spin")
      const ds = box.querySelectorAll(".die")
      ds.forEach((d, i) => { face(d, o.dice[i]); land(d) })
      const total = o.total || o.dice[0] + o.dice[1]
      box.lastChild.textContent = "Total " + total + (o.result ? " · " + ({ under: "Under 7", seven: "Seven", over: "Over 7" }[o.result] || o.result) : "")
    }
  },
  cubes: {
    idle: (box) => box.replaceChildren(cube(""), cube(""), cube("")),
    spin: (box) => {
      box.classList.add("spin")
      spinEvery(110, () => box.querySelectorAll(".cube").forEach((k) => {
        const c = COLORS[rnd(6)]
        k.className = "cube c-" + c
        k.textContent = cap1(c)
      }))
    },
    reveal: async (box, o, sel) => {
      await settle(900)
      box.classList.remove("spin")
      const ks = [...box.querySelectorAll(".cube")]
      for (let i = 0; i < ks.length; i++) {
        const c = o.dice[i]
        ks[i].className = "cube c-" + c + (c === sel ? " hit" : "")
        ks[i].textContent = cap1(c)
        land(ks[i])
        await wait(140)
      }
    }
  },
  draw: (count, size, step) => ({
    idle: (box) => box.replaceChildren(...Array.from({ length: count }, () => el("div", "ball empty " + size, "?"))),
    spin: (box) => {
      for (const b of box.children) { b.className = "ball empty " + size; b.textContent = "?" }
      box.classList.add("spin")
      markCells([], [])
      spinStart = Date.now()
    },
    reveal: async (box, o) => {
      await settle(400)
      box.classList.remove("spin")
      const hits = Array.isArray(o.hits) ? o.hits : []
      const shown = []
      const balls = [...box.children]
      for (let i = 0; i < o.drawn.length; i++) {
        const n = o.drawn[i]
        const b = balls[i] || box.appendChild(el("div"))
        b.className = "ball " + size + (hits.includes(n) ? " hit" : "")
        b.textContent = n
        land(b)
        shown.push(n)
        markCells(shown, hits.filter((h) => shown.includes(h)))
        await wait(step)
      }
    }
  }),
  text: {
    idle: (box) => box.replaceChildren(el("div", "total", "")),
    spin: (box) => { box.firstChild.textContent = "…"; spinStart = Date.now() },
    reveal: async (box, o) => { await settle(300); box.firstChild.textContent = o.summary || "" }
  }
}

const payOf = (sel) => {
  const p = ((S.rules[S.game] || {}).payouts || []).find((line) => line.selection === sel)
  return p ? times(p.multiplier) : ""
}
const choices = (options, stage) => ({
  stage,
  controls: (box) => {
    const row = el("div", "choices c" + options.length)
    row.setAttribute("role", "group")
    row.setAttribute("aria-label", "Your pick")
    for (const [value, label, cls] of options) {
      const b = btn("choice " + cls)
      b.dataset.value = JSON.stringify(value)
      pressed(b, false)
      b.append(el("span", "lbl", label))
      const m = payOf(value)
      if (m) b.append(el("span", "mul", m))
      b.addEventListener("click", () => {
        if (S.busy) return
        S.sel = value
        for (const o of row.children) pressed(o, o === b)
        selectionChanged()
      })
      row.append(b)
    }
    box.append(row)
  },
  selection: () => S.sel
})

const roving = (grid, cols) => grid.addEventListener("keydown", (e) => {
  const all = [...grid.children]
  const i = all.indexOf(document.activeElement)
  const d = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: cols, ArrowUp: -cols, Home: -i, End: all.length - 1 - i }[e.key]
  if (i < 0 || d === undefined) return
  e.preventDefault()
  const j = Math.max(0, Math.min(all.length - 1, i + d))
  all[i].tabIndex = -1
  all[j].tabIndex = 0
  all[j].focus()
})
const numbers = (n, most, cols, stage) => ({
  stage,
  controls: (box) => {
    const tools = el("div", "gtools")
    const count = el("span", "count")
    count.id = "pick-count"
    tools.append(count)
    if (most > 1) {
      tools.append(btn("", "Quick pick", () => {
        if (S.busy) return
        const k = S.picks.length || most
        const pool = Array.from({ length: n }, (_, i) => i + 1)
        S.picks = []
        for (let i = 0; i < k; i++) S.picks.push(pool.splice(rnd(pool.length), 1)[0])
        syncPicks()
      }), btn("", "Clear", () => { if (!S.busy) { S.picks = []; syncPicks() } }))
    }
    box.classList.add("g" + cols)
    const grid = el("div", "grid")
    grid.setAttribute("role", "group")
    grid.setAttribute("aria-label", most > 1 ? "Numbers 1 to " + n + ": pick 1 to " + most : "Numbers 1 to " + n + ": pick one")
    for (let i = 1; i <= n; i++) {
      const b = btn("cell", i)
      b.dataset.n = String(i)
      b.tabIndex = i === 1 ? 0 : -1
      pressed(b, false)
      grid.append(b)
    }
    grid.addEventListener("click", (e) => {
      const b = e.target.closest("button")
      if (!b || S.busy) return
      const v = Number(b.dataset.n)
      if (most === 1) S.picks = [v]
      else if (S.picks.includes(v)) S.picks = S.picks.filter((p) => p !== v)
      else if (S.picks.length < most) S.picks = [...S.picks, v]
      else return showAlert("You can pick up to " + most + " numbers.")
      syncPicks()
    })
    roving(grid, cols)
    const strip = el("div", "paystrip")
    strip.id = "paystrip"
    box.append(tools, grid, strip)
    syncPicks()
  },
  selection: () => (S.picks.length === 0 ? null : most === 1 ? S.picks[0] : [...S.picks].sort((a, b) => a - b)),
  most
})
const syncPicks = () => {
  const view = viewOf(S.game)
  for (const c of cells()) pressed(c, S.picks.includes(Number(c.dataset.n)))
  const count = $("pick-count")
  if (count) count.textContent = view.most > 1 ? S.picks.length + " / " + view.most + " picked" : S.picks.length ? "Your number: " + S.picks[0] : "Pick a number"
  selectionChanged()
}

const GAMES = {
  "odd-even": choices([["odd", "Odd", "v-odd"], ["even", "Even", "v-even"]], STAGES.ball),
  "under-over": choices([["under", "Under 7", ""], ["seven", "Seven", ""], ["over", "Over 7", ""]], STAGES.dice),
  "color-game": choices(COLORS.map((c) => [c, cap1(c), "c-" + c]), STAGES.cubes),
  "lotto": numbers(49, 6, 7, STAGES.draw(6, "", 320)),
  "mega-ten": numbers(80, 10, 10, STAGES.draw(20, "sm", 110)),
  "single": numbers(36, 1, 9, STAGES.ball)
}
const viewOf = (id) => GAMES[id] || choices(((S.rules[id] || {}).examples || []).slice(0, 6).map((x) => [x, typeof x === "string" ? x : JSON.stringify(x), ""]), STAGES.text)
`
