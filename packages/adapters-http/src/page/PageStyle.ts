/**
 * The game page's inline style sheet: mobile first (a 360×640 iframe holds
 * the whole play view without scrolling), a side column from 860 px, colours
 * with a contrast of at least 4.5:1, a visible focus ring, and animations
 * that `prefers-reduced-motion` turns off.
 */
export const pageStyle = `html,body{margin:0;width:100%;height:100%}
*,*::before,*::after{box-sizing:border-box}
:root{--bg:#0b1020;--s1:#141b31;--s2:#1f2947;--s3:#2a365e;--line:#33416e;--tx:#f1f5f9;--mu:#b9c3dc;--ac:#fbbf24;--act:#1c1402;--sel:#4338ca;--win:#4ade80;--err:#fecaca;--font:system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif}
body{background:var(--bg);color:var(--tx);font:15px/1.35 var(--font);overflow:hidden;-webkit-tap-highlight-color:transparent}
button,input,select{font:inherit;color:inherit}
button{cursor:pointer;border:0;border-radius:10px;background:var(--s2);color:var(--tx);padding:.45rem .7rem;min-height:38px;touch-action:manipulation}
button:hover{background:var(--s3)}
button[aria-pressed=true]{background:var(--sel);color:#fff;box-shadow:inset 0 0 0 2px #c7d2fe}
button[aria-disabled=true],button:disabled{opacity:.6;cursor:not-allowed}
:focus-visible{outline:3px solid #fde047;outline-offset:2px}
[hidden]{display:none!important}
h1,h2,h3{margin:0;font-weight:750}h1{font-size:1.05rem;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
h2{font-size:1.05rem;margin-bottom:.5rem}h3{font-size:.95rem;margin:.9rem 0 .4rem}
code{font:12px/1.3 ui-monospace,Menlo,Consolas,monospace;word-break:break-all;color:#e0e7ff}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.app{display:grid;height:100%;grid-template:"head" auto "tabs" auto "main" 1fr/100%}
.head{grid-area:head;display:flex;align-items:center;gap:.5rem;padding:.35rem .6rem;background:var(--s1);border-bottom:1px solid var(--line);min-height:48px;min-width:0}
.head .back{padding:.3rem .6rem;font-weight:650;font-size:1rem}
#logo{max-height:28px;max-width:56px;object-fit:contain}
.title{flex:1;min-width:0;display:flex;align-items:center;gap:.4rem}
.badge{font-size:.7rem;font-weight:800;letter-spacing:.05em;padding:.1rem .4rem;border-radius:6px;background:#fde68a;color:#1c1402}
.wallet{text-align:right;line-height:1.1;white-space:nowrap}.wallet small{display:block;color:var(--mu);font-size:.7rem}
.wallet output{font-weight:800;font-variant-numeric:tabular-nums}.wallet.bump output{animation:bump .5s}
.tabs{grid-area:tabs;display:flex;gap:.3rem;align-items:center;padding:.3rem .6rem;background:var(--s1);border-bottom:1px solid var(--line)}
.tabs button{min-height:32px;padding:.2rem .6rem;font-size:.85rem}.tabs .rtp{margin-right:auto;font-size:.8rem;color:var(--mu)}
.view{grid-area:main;min-height:0;min-width:0;display:flex;flex-direction:column;overflow:hidden}
.side{grid-area:main;min-height:0;background:var(--bg);overflow:auto;padding:.8rem;z-index:2;display:none}
.app.open .side{display:block}.side .close{float:right;min-height:32px}
.lobby{overflow:auto;padding:.8rem;flex:1}
.tiles{list-style:none;margin:0;padding:0;display:grid;grid-template-columns:repeat(auto-fill,minmax(150px,1fr));gap:.7rem}
.tile{width:100%;padding:0;overflow:hidden;display:flex;flex-direction:column;text-align:left;background:var(--s1);border:1px solid var(--line)}
.tile img{width:100%;height:auto;aspect-ratio:8/5;display:block;object-fit:cover;background:var(--s2)}
.tile span{padding:.35rem .55rem 0;font-weight:700}.tile small{padding:0 .55rem .45rem;color:var(--mu)}
.tile[aria-current=true]{border-color:var(--ac)}
.game{flex:1;min-height:0;display:flex;flex-direction:column;gap:.4rem;padding:.5rem .6rem .6rem}
.stage{flex:1 1 0;min-height:76px;display:flex;flex-wrap:wrap;align-content:center;align-items:center;justify-content:center;gap:.45rem;border-radius:14px;background:radial-gradient(circle at 50% 35%,#26335f,#141b31 70%);overflow:hidden;padding:.4rem}
.result{min-height:2.4rem;margin:0;display:flex;flex-wrap:wrap;align-items:center;justify-content:center;column-gap:.5rem;text-align:center;font-weight:650;line-height:1.2}
.result span{font-size:.85rem;color:var(--mu);width:100%}
.result.win{color:var(--win);font-size:1.1rem}.result.win b{animation:glow 1.2s ease-out}.result.loss{color:var(--mu)}
#cup{height:28px;max-width:64px;object-fit:contain;animation:pop .6s}
.alert{margin:0;padding:.4rem 2.2rem .4rem .6rem;border-radius:10px;background:#450a0a;color:var(--err);position:relative;font-size:.9rem}
.alert button{position:absolute;right:.2rem;top:.1rem;min-height:30px;padding:0 .5rem;background:transparent}
.controls{flex:0 1 auto;min-height:0;overflow:auto;display:flex;flex-direction:column;align-items:center;gap:.35rem;padding:6px;margin:-6px}
.choices{display:grid;gap:.4rem;width:100%;max-width:560px;grid-template-columns:repeat(var(--n,2),1fr)}
.choices.c6{--n:3}.choices.c3{--n:3}
.choice{min-height:52px;display:flex;flex-direction:column;align-items:center;justify-content:center;font-weight:750;line-height:1.1}
.choice .mul{font-size:.78rem;font-weight:600;opacity:.9}
.cube{width:min(74px,18dvh);aspect-ratio:1;border-radius:14px;display:grid;place-items:center;font-weight:800;font-size:.8rem;border:3px solid #ffffffa0;box-shadow:0 4px 10px #0009;background:#334155;color:#fff}
.v-odd{background:#6d28d9;color:#fff}.v-even{background:#0e7490;color:#fff}
.c-red{background:#dc2626;color:#fff}.c-green{background:#15803d;color:#fff}.c-blue{background:#2563eb;color:#fff}
.c-yellow{background:#facc15;color:#111827}.c-white{background:#f8fafc;color:#111827}.c-pink{background:#f9a8d4;color:#111827}
.choice.c-red:hover,.choice.c-green:hover,.choice.c-blue:hover{filter:brightness(1.1)}
.choice[aria-pressed=true]{box-shadow:0 0 0 3px var(--bg),0 0 0 6px var(--ac)}
.choice.c-red[aria-pressed=true]{background:#dc2626}.choice.c-green[aria-pressed=true]{background:#15803d}.choice.c-blue[aria-pressed=true]{background:#2563eb}
.choice.c-yellow[aria-pressed=true]{background:#facc15;color:#111827}.choice.c-white[aria-pressed=true]{background:#f8fafc;color:#111827}.choice.c-pink[aria-pressed=true]{background:#f9a8d4;color:#111827}
.choice.v-odd[aria-pressed=true]{background:#6d28d9}.choice.v-even[aria-pressed=true]{background:#0e7490}
.nums .stage{flex:0 0 auto}.nums .controls{flex:1 1 0;container-type:size;justify-content:center}
.nums .controls>*{--w:min(100cqw - 12px,(100cqh - 76px) * var(--cols) / var(--rows),var(--gmax));width:var(--w);flex:none}
.nums.one .stage{flex:1 1 0}.nums.one .controls{flex:0 0 auto;container-type:normal}
.g7{--cols:7;--rows:7;--gmax:380px}.g9{--cols:9;--rows:4;--gmax:470px}.g10{--cols:10;--rows:8;--gmax:560px}
.gtools{display:flex;gap:.4rem;align-items:center}
.gtools .count{margin-right:auto;color:var(--mu);font-size:.85rem}.gtools button{min-height:30px;padding:.15rem .6rem;font-size:.85rem}
.grid{display:grid;gap:3px;grid-template-columns:repeat(var(--cols),1fr)}
.cell{min-height:0;padding:0;aspect-ratio:1;border-radius:7px;font-weight:700;font-size:.85rem;font-variant-numeric:tabular-nums}
.cell.drawn{box-shadow:inset 0 0 0 2px #93c5fd}
.cell.hit,.cell.hit[aria-pressed=true]{background:var(--ac);color:var(--act);box-shadow:0 0 0 2px #fff7d6}
.paystrip{display:flex;min-height:1.1rem;gap:.3rem;overflow-x:auto;max-width:100%;font-size:.75rem;color:var(--mu);white-space:nowrap}
.paystrip span{background:var(--s1);border-radius:6px;padding:.1rem .35rem}
.bet{display:grid;grid-template-columns:1fr auto;gap:.4rem;align-items:stretch;width:100%;max-width:560px;margin:0 auto}
.stake{display:flex;align-items:center;gap:.3rem;background:var(--s1);border:1px solid var(--line);border-radius:12px;padding:.2rem .3rem .2rem .6rem;min-width:0}
.stake label{font-size:.8rem;color:var(--mu)}
.stake input{width:100%;min-width:3.5rem;background:transparent;border:0;padding:.35rem .1rem;font-size:1.05rem;font-weight:800;text-align:right}
.stake input:focus-visible{outline-offset:0}.stake .cur{font-size:.8rem;color:var(--mu)}.stake button{min-height:32px;padding:.1rem .45rem}
.presets{grid-column:1/-1;display:flex;gap:.35rem}.presets button{flex:1;min-height:32px;font-size:.85rem;font-variant-numeric:tabular-nums}
.play{background:var(--ac);color:var(--act);font-weight:850;font-size:1.05rem;min-width:6.5rem;padding:.4rem 1rem;border-radius:12px}
.play:hover{background:#fcd34d}.play.busy{animation:pulse 1s infinite}
.ball{--b:44px;width:var(--b);height:var(--b);border-radius:50%;display:grid;place-items:center;font-weight:850;font-size:calc(var(--b) * .4);color:#0f172a;background:radial-gradient(circle at 32% 30%,#fff,#e2e8f0 55%,#94a3b8);box-shadow:0 3px 8px #0008;font-variant-numeric:tabular-nums}
.ball.big{--b:min(108px,24dvh);border:6px solid #475569}.ball.odd{border-color:#8b5cf6}.ball.even{border-color:#22d3ee}
.ball.sm{--b:min(28px,7.6vw)}.stage:has(.sm){display:grid;grid-template-columns:repeat(10,auto);justify-content:center;gap:4px}.ball.empty{background:#ffffff14;box-shadow:none;color:#ffffff80}
.ball.hit{background:radial-gradient(circle at 32% 30%,#fffbeb,#fcd34d 55%,#d97706);box-shadow:0 0 0 3px #fde68a,0 0 16px #fbbf24}
.die{--d:min(68px,16dvh);width:var(--d);height:var(--d);border-radius:14px;background:linear-gradient(145deg,#fff,#dbe3ef);box-shadow:0 4px 10px #0009;display:grid;grid-template:repeat(3,1fr)/repeat(3,1fr);padding:12%}
.die i{width:calc(var(--d) * .17);height:calc(var(--d) * .17);border-radius:50%;background:#0f172a;place-self:center;visibility:hidden}.die i.on{visibility:visible}
.cube.hit{box-shadow:0 0 0 4px var(--ac),0 0 18px var(--ac)}
.total{width:100%;text-align:center;font-weight:800;color:var(--mu)}
.spin .ball,.spin.ball{animation:wobble .25s linear infinite}.spin .die,.spin .cube{animation:roll .45s linear infinite}
.land{animation:pop .45s ease-out}
.side section{max-width:520px}.side dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem .6rem;margin:0;font-size:.88rem}
.side dt{color:var(--mu)}.side dd{margin:0;min-width:0}.side p{margin:.4rem 0;font-size:.9rem}.hint{color:var(--mu)}
table{border-collapse:collapse;width:100%;font-size:.88rem}caption{text-align:left;color:var(--mu);padding-bottom:.3rem}
td,th{padding:.3rem .4rem;border-bottom:1px solid var(--line);text-align:left}td+td,th+th{text-align:right;font-variant-numeric:tabular-nums}
.seed{display:flex;gap:.35rem;flex-wrap:wrap}.seed input,select{flex:1;min-width:8rem;background:var(--s1);border:1px solid var(--line);border-radius:10px;padding:.45rem .5rem}
.rounds{list-style:none;margin:0;padding:0;display:grid;gap:.35rem}
.rounds>li{background:var(--s1);border-radius:10px;overflow:hidden}
.rhead{width:100%;display:grid;grid-template-columns:1fr auto;gap:.1rem .5rem;text-align:left;background:transparent;border-radius:0}
.rhead small{color:var(--mu)}.rhead .amt{font-weight:800;text-align:right}.win .amt{color:var(--win)}
.rbody{padding:.3rem .6rem .6rem}.ok{color:var(--win);font-weight:700}.bad{color:var(--err);font-weight:700}
.notice{margin:auto;max-width:26rem;padding:1.5rem;text-align:center}.notice h2{font-size:1.3rem}
.notice .icon{font-size:2.4rem;line-height:1;margin-bottom:.5rem}
.loading{margin:auto;color:var(--mu)}.loading::before{content:"";display:block;width:34px;height:34px;margin:0 auto .6rem;border-radius:50%;border:4px solid var(--s3);border-top-color:var(--ac);animation:roll .8s linear infinite}
@keyframes pop{0%{transform:scale(.2);opacity:0}70%{transform:scale(1.12);opacity:1}100%{transform:none}}
@keyframes roll{to{transform:rotate(360deg)}}
@keyframes wobble{0%,100%{transform:translateY(0)}50%{transform:translateY(-6px)}}
@keyframes glow{0%{text-shadow:0 0 0 #4ade80}40%{text-shadow:0 0 18px #4ade80}100%{text-shadow:none}}
@keyframes pulse{50%{filter:brightness(1.2)}}
@keyframes bump{40%{transform:scale(1.15)}}
@media (min-width:860px){
.app{grid-template:"head head" auto "main tabs" auto "main side" 1fr/1fr minmax(320px,34%)}
.side,.app.open .side{grid-area:side;display:block;border-left:1px solid var(--line);background:var(--s1)}
.tabs{border-left:1px solid var(--line)}.side .close{display:none}
.game{padding:1rem 1.2rem}.choice{min-height:64px;font-size:1.1rem}
#logo{max-height:34px;max-width:120px}.ball.sm{--b:36px}.ball.big{--b:min(150px,22dvh)}.die{--d:min(96px,16dvh)}.cube{width:min(100px,16dvh)}.tiles{grid-template-columns:repeat(auto-fill,minmax(190px,1fr))}}
@media (max-width:399px){.back .lbl{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}.back{font-size:1.3rem}}
@media (max-height:560px){.ball.big{--b:70px}.choice{min-height:42px}}
@media (prefers-reduced-motion:reduce){*,*::before,*::after{animation:none!important;transition:none!important}}
`
