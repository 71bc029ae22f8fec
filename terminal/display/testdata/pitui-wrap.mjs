// Writes pitui-wrap.json: lines of styled spans, each wrapped at a width by
// pi-tui 0.80.7's wrapTextWithAnsi, and the rows it made (text, style runs
// by grapheme, the SGR state left open for the padding). TestWrapPiTUI
// checks display.Wrap against them. Run from a directory where
// `npm install @earendil-works/pi-tui@0.80.7` was run:
//
//	node pitui-wrap.mjs > pitui-wrap.json
import { wrapTextWithAnsi } from "@earendil-works/pi-tui";

// A line is written as a palette writes it: a style's SGR sequence where
// the style changes, a reset where it ends.
const styles = ["", "2", "4;35", "1;2", "3", "36"];
const pieces = ["a", "bb", "word", "  ", " ", "   ", "supercalifragilistic", "漢字", "，", "·", "中", "x",
  "日本語", "👍", "é", "한국", "カナ", "、"];
let seed = 42;
const rnd = n => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };

function ansi(spans) {
  let out = "", prev = "";
  for (const [text, st] of spans) {
    if (text === "") continue;
    if (st !== prev) {
      if (prev !== "") out += "\x1b[0m";
      if (st !== "") out += `\x1b[${st}m`;
      prev = st;
    }
    out += text;
  }
  return prev !== "" ? out + "\x1b[0m" : out;
}

const seg = new Intl.Segmenter(undefined, { granularity: "grapheme" });
// parse returns a row's text, its style runs by grapheme, and the state
// open at its end.
function parse(row) {
  let st = new Set(), fg = "";
  const cur = () => [...[...st].sort(), ...(fg ? [fg] : [])].join(";");
  let text = "", runs = [], i = 0, k = 0;
  while (i < row.length) {
    const m = /^\x1b\[([\d;]*)m/.exec(row.slice(i));
    if (m) {
      for (const p of (m[1] || "0").split(";")) {
        const n = +p;
        if (n === 0) { st = new Set(); fg = ""; }
        else if (n === 22) { st.delete("1"); st.delete("2"); }
        else if (n === 23) st.delete("3");
        else if (n === 24) st.delete("4");
        else if (n >= 30 && n <= 37) fg = String(n);
        else if (n === 39) fg = "";
        else st.add(String(n));
      }
      i += m[0].length;
      continue;
    }
    let j = i;
    while (j < row.length && row[j] !== "\x1b") j++;
    for (const { segment } of seg.segment(row.slice(i, j))) {
      text += segment;
      const s = cur();
      if (runs.length && runs.at(-1)[2] === s && runs.at(-1)[1] === k - 1) runs.at(-1)[1] = k;
      else runs.push([k, k, s]);
      k++;
    }
    i = j;
  }
  return { text, runs: runs.filter(r => r[2] !== ""), pad: cur() };
}

const cases = [];
for (let n = 0; n < 400; n++) {
  const spans = [];
  for (let s = 1 + rnd(4); s > 0; s--) {
    let t = "";
    for (let p = rnd(10); p > 0; p--) t += pieces[rnd(pieces.length)];
    spans.push([t, styles[rnd(styles.length)]]);
  }
  const width = 2 + rnd(25);
  const rows = wrapTextWithAnsi(ansi(spans), width).map(parse);
  rows.at(-1).pad = "";
  cases.push({ spans, width, rows });
}
console.log(JSON.stringify(cases, null, 0).replaceAll('},{"spans"', '},\n{"spans"'));
