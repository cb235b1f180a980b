import { lazyModule } from '../../util/lazy-module';

/** d3's scales and line generator, loaded at the first dashboard drawn (an admin page most processes never serve). */
const d3Scale = lazyModule(() => require('d3-scale') as typeof import('d3-scale'));
const d3Shape = lazyModule(() => require('d3-shape') as typeof import('d3-shape'));

/** The drawing box of every chart (SVG user units; the stylesheet scales it to the card's width). */
const WIDTH = 640;
const HEIGHT = 200;
// Right: room for half of the last (current hour's or day's) label, centred on the plot's edge.
const MARGIN = { top: 12, right: 28, bottom: 32, left: 44 };

/** A chart as the view draws it: plain numbers and path strings, no script, no style attributes. */
export interface Chart {
  width: number;
  height: number;
  lines: Array<{ name: string; className: string; d: string }>;
  bars: Array<{ x: number; y: number; width: number; height: number; className: string }>;
  yTicks: Array<{ y: number; label: string }>;
  xTicks: Array<{ x: number; label: string }>;
  plot: { left: number; right: number; top: number; bottom: number };
}

function yAxis(max: number) {
  const y = d3Scale().scaleLinear().domain([0, Math.max(1, max)]).nice(4).range([HEIGHT - MARGIN.bottom, MARGIN.top]);
  const ticks = y.ticks(4).filter(Number.isInteger).map((t) => ({ y: y(t), label: String(t) }));
  return { y, ticks };
}

const plot = { left: MARGIN.left, right: WIDTH - MARGIN.right, top: MARGIN.top, bottom: HEIGHT - MARGIN.bottom };

/** Every n-th label counted back from the latest (always shown), so an axis stays legible and evenly spaced. */
function sparse(labels: string[], every: number, at: (i: number) => number) {
  return labels.flatMap((label, i) => ((labels.length - 1 - i) % every === 0 ? [{ x: at(i), label }] : []));
}

/** Lines over time (sign-ins by outcome): one path per series from d3-shape's line generator. */
export function lineChart(labels: string[], series: Array<{ name: string; className: string; values: number[] }>, every: number): Chart {
  const x = d3Scale().scalePoint<number>().domain(labels.map((_, i) => i)).range([plot.left, plot.right]);
  const { y, ticks } = yAxis(Math.max(0, ...series.flatMap((s) => s.values)));
  const path = d3Shape().line<number>().x((_, i) => x(i) ?? 0).y((v) => y(v));
  return {
    width: WIDTH, height: HEIGHT, plot, bars: [], yTicks: ticks,
    lines: series.map((s) => ({ name: s.name, className: s.className, d: path(s.values) ?? '' })),
    xTicks: sparse(labels, every, (i) => x(i) ?? 0),
  };
}

/** Bars over time (new users), on d3-scale's band scale. */
export function barChart(labels: string[], values: number[], className: string, every: number): Chart {
  const x = d3Scale().scaleBand<number>().domain(labels.map((_, i) => i)).range([plot.left, plot.right]).padding(0.2);
  const { y, ticks } = yAxis(Math.max(0, ...values));
  return {
    width: WIDTH, height: HEIGHT, plot, lines: [], yTicks: ticks,
    bars: values.map((v, i) => ({ x: x(i) ?? 0, y: y(v), width: x.bandwidth(), height: y(0) - y(v), className })),
    xTicks: sparse(labels, every, (i) => (x(i) ?? 0) + x.bandwidth() / 2),
  };
}
