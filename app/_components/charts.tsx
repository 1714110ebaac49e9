// Charts drawn on the server with inline SVG and CSS: no chart library, no CDN. Each one carries a
// text alternative (aria-label or a visible legend with the numbers) for screen readers.
import type { ReactNode } from "react";
import { axisTicks } from "@/lib/portal/durations";

export type Segment = { label: string; value: number; color: string };

const percent = (value: number, total: number) => (total ? `${Math.round((value / total) * 100)} %` : "—");

/** A ring split by share, with the total (or a given figure) in the middle and a legend beside it. */
export function Donut({
  segments,
  label,
  center,
  caption,
}: {
  segments: Segment[];
  label: string;
  center?: ReactNode;
  caption?: string;
}) {
  const total = segments.reduce((n, s) => n + s.value, 0);
  const r = 42;
  const c = 2 * Math.PI * r;
  let offset = 0;
  return (
    <div className="flex flex-col items-center gap-4 sm:flex-row sm:items-center">
      <div className="relative size-32 shrink-0">
        <svg
          viewBox="0 0 100 100"
          className="size-32 -rotate-90"
          role="img"
          aria-label={`${label}: ${segments.map((s) => `${s.label} ${s.value}`).join(", ")}`}
        >
          <circle cx="50" cy="50" r={r} fill="none" strokeWidth="12" stroke="currentColor" className="text-slate-100" />
          {segments.map((s) => {
            if (!s.value || !total) return null;
            const length = (s.value / total) * c;
            const arc = (
              <circle
                key={s.label}
                cx="50"
                cy="50"
                r={r}
                fill="none"
                strokeWidth="12"
                stroke="currentColor"
                className={s.color}
                strokeDasharray={`${length} ${c - length}`}
                strokeDashoffset={-offset}
              />
            );
            offset += length;
            return arc;
          })}
        </svg>
        <div className="absolute inset-0 flex flex-col items-center justify-center text-center" aria-hidden="true">
          <span className="text-2xl font-semibold tabular-nums text-slate-900">{center ?? total}</span>
          {caption && <span className="text-[11px] uppercase tracking-wide text-slate-500">{caption}</span>}
        </div>
      </div>
      <Legend segments={segments} total={total} />
    </div>
  );
}

export function Legend({ segments, total }: { segments: Segment[]; total: number }) {
  return (
    <ul className="w-full space-y-1.5 text-sm">
      {segments.map((s) => (
        <li key={s.label} className="flex items-center gap-2">
          <span aria-hidden="true" className={`size-2.5 shrink-0 rounded-full bg-current ${s.color}`} />
          <span className="flex-1 text-slate-700">{s.label}</span>
          <span className="tabular-nums font-medium text-slate-900">{s.value}</span>
          <span className="w-12 text-right tabular-nums text-slate-500">{percent(s.value, total)}</span>
        </li>
      ))}
    </ul>
  );
}

/** One horizontal bar split into parts (e.g. a source's completed / failed / in progress). */
export function StackedBar({ segments, label }: { segments: Segment[]; label: string }) {
  const total = segments.reduce((n, s) => n + s.value, 0);
  return (
    <div
      role="img"
      aria-label={`${label}: ${segments.map((s) => `${s.label} ${s.value}`).join(", ")}`}
      className="flex h-2.5 w-full overflow-hidden rounded-full bg-slate-100"
    >
      {total > 0 &&
        segments.map((s) =>
          s.value ? (
            <span
              key={s.label}
              className={`h-full bg-current ${s.color}`}
              style={{ width: `${(s.value / total) * 100}%` }}
            />
          ) : null,
        )}
    </div>
  );
}

/** Daily columns, stacked when there are several series; labels every few days to stay legible on a phone. */
export function Columns({
  points,
  series,
  label,
}: {
  points: { day: string; values: number[] }[];
  series: { label: string; color: string }[];
  label: string;
}) {
  const max = Math.max(1, ...points.map((p) => p.values.reduce((a, b) => a + b, 0)));
  const every = Math.ceil(points.length / 7);
  return (
    <figure>
      <div
        className="flex h-36 items-end gap-1 border-b border-slate-200"
        role="img"
        aria-label={`${label}: ${points.map((p) => `${p.day} ${p.values.join("/")}`).join(", ")}`}
      >
        {points.map((p) => (
          <div
            key={p.day}
            className="flex h-full flex-1 flex-col-reverse"
            title={`${p.day}: ${series.map((s, i) => `${p.values[i]} ${s.label}`).join(", ")}`}
          >
            {p.values.map((v, i) =>
              v ? (
                <span
                  key={i}
                  className={`w-full bg-current last:rounded-t-sm ${series[i]!.color}`}
                  style={{ height: `${(v / max) * 100}%` }}
                />
              ) : null,
            )}
          </div>
        ))}
      </div>
      <div className="mt-1 flex gap-1" aria-hidden="true">
        {points.map((p, i) => (
          <span key={p.day} className="flex-1 text-center text-[10px] text-slate-500">
            {i % every === (points.length - 1) % every ? p.day.slice(5).replace("-", "/") : ""}
          </span>
        ))}
      </div>
      {series.length > 1 && (
        <figcaption className="mt-2 flex flex-wrap gap-3 text-xs text-slate-600">
          {series.map((s) => (
            <span key={s.label} className="inline-flex items-center gap-1.5">
              <span aria-hidden="true" className={`size-2.5 rounded-sm bg-current ${s.color}`} />
              {s.label}
            </span>
          ))}
        </figcaption>
      )}
    </figure>
  );
}

/** A filled share of a limit, amber near it and red at it. */
export function Meter({ value, max, label }: { value: number; max: number; label: string }) {
  const share = Math.min(1, value / Math.max(1, max));
  const tone = share >= 1 ? "text-red-600" : share >= 0.8 ? "text-amber-500" : "text-brand-600";
  return (
    <div className="flex items-center gap-2">
      <div
        role="meter"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={max}
        aria-valuenow={value}
        className="h-2 w-full min-w-20 overflow-hidden rounded-full bg-slate-100"
      >
        <span className={`block h-full bg-current ${tone}`} style={{ width: `${share * 100}%` }} />
      </div>
      <span className="whitespace-nowrap text-xs tabular-nums text-slate-700">
        {value} / {max}
      </span>
    </div>
  );
}

export type Lane = { label: string; marks: { startMs: number; durationMs: number; color: string; title: string }[] };

/** Per-source lanes on one time axis from registration: each attempt a mark at its start, as long as it took. */
export function LaneChart({ lanes, spanMs, label }: { lanes: Lane[]; spanMs: number; label: string }) {
  const span = Math.max(spanMs, 1);
  const axis = axisTicks(span);
  return (
    <figure aria-label={label}>
      <div className="space-y-2">
        {lanes.map((lane) => (
          <div
            key={lane.label}
            className="grid grid-cols-[6.5rem_1fr] sm:grid-cols-[9.5rem_1fr] items-center gap-3 text-sm"
          >
            <span className="text-xs leading-tight text-slate-700 sm:text-sm">{lane.label}</span>
            <div className="relative h-6 rounded bg-slate-50 ring-1 ring-inset ring-slate-200">
              {lane.marks.map((m, i) => {
                // At least visible, never past the axis's end.
                const left = Math.min(99, (m.startMs / span) * 100);
                return (
                  <span
                    key={i}
                    title={m.title}
                    className={`absolute top-1 h-4 rounded-sm bg-current ${m.color}`}
                    style={{
                      left: `${left}%`,
                      width: `min(${100 - left}%, max(0.5rem, ${(m.durationMs / span) * 100}%))`,
                    }}
                  />
                );
              })}
            </div>
          </div>
        ))}
      </div>
      <div className="mt-1 grid grid-cols-[6.5rem_1fr] sm:grid-cols-[9.5rem_1fr] gap-3" aria-hidden="true">
        <span />
        <div className="relative h-3 text-[10px] text-slate-500">
          {axis.ticks.map((t) => (
            <span
              key={t}
              className="absolute whitespace-nowrap"
              // The first label starts at the axis, the rest are centred on their tick.
              style={{ left: `${(t / span) * 100}%`, transform: t ? "translateX(-50%)" : undefined }}
            >
              {axis.label(t)}
            </span>
          ))}
        </div>
      </div>
    </figure>
  );
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  if (ms < 3_600_000) return `${Math.round(ms / 60_000)} min`;
  return `${(ms / 3_600_000).toFixed(1)} h`;
}

/** Mainland Spain and the Balearics (and, inset, the Canaries): the frame a parcel's point is drawn in. */
const MAINLAND = { west: -9.6, east: 4.6, south: 35.8, north: 43.9 };
const CANARIES = { west: -18.3, east: -13.3, south: 27.5, north: 29.5 };

/**
 * A static location view: the parcel's point in Spain's frame, drawn locally (no map tiles from
 * the internet), with the coordinates as text for everyone.
 */
/** The cadastre's own map viewer at a reference's parcel (its first 14 characters). */
export const cadastreViewerUrl = (reference: string) =>
  `https://www1.sedecatastro.gob.es/Cartografia/mapa.aspx?refcat=${encodeURIComponent(reference.slice(0, 14))}`;

/** OpenStreetMap at a point, for the partner's browser to load (the server fetches no tiles). */
export const openStreetMapUrl = (latitude: number, longitude: number) =>
  `https://www.openstreetmap.org/?mlat=${latitude}&mlon=${longitude}#map=18/${latitude}/${longitude}`;

export function LocationView({
  latitude,
  longitude,
  reference,
}: {
  latitude: number;
  longitude: number;
  reference: string;
}) {
  const canaries = latitude < 30;
  const box = canaries ? CANARIES : MAINLAND;
  const width = 240;
  const height = Math.round(
    (width * (box.north - box.south)) /
      ((box.east - box.west) * Math.cos((((box.north + box.south) / 2) * Math.PI) / 180)),
  );
  const x = ((longitude - box.west) / (box.east - box.west)) * width;
  const y = ((box.north - latitude) / (box.north - box.south)) * height;
  const label = `${latitude.toFixed(5)}, ${longitude.toFixed(5)}`;
  return (
    <figure className="block max-w-60">
      <svg
        viewBox={`0 0 ${width} ${height}`}
        className="h-auto w-full rounded border border-slate-200 bg-sky-50"
        role="img"
        aria-label={`Location ${label} in ${canaries ? "the Canary Islands" : "Spain"}`}
      >
        {[0.25, 0.5, 0.75].map((f) => (
          <g key={f} className="text-slate-200" stroke="currentColor" strokeWidth="0.5">
            <line x1={f * width} y1="0" x2={f * width} y2={height} />
            <line x1="0" y1={f * height} x2={width} y2={f * height} />
          </g>
        ))}
        <circle cx={x} cy={y} r="9" className="text-brand-700" fill="currentColor" opacity="0.15" />
        <circle cx={x} cy={y} r="3.5" className="text-brand-700" fill="currentColor" />
      </svg>
      <figcaption className="mt-1 text-xs text-slate-600">
        <span className="font-mono">{label}</span> (WGS 84) ·{" "}
        <a className="link" href={cadastreViewerUrl(reference)} target="_blank" rel="noopener noreferrer">
          Cadastre viewer
        </a>{" "}
        ·{" "}
        <a className="link" href={openStreetMapUrl(latitude, longitude)} target="_blank" rel="noopener noreferrer">
          OpenStreetMap
        </a>
      </figcaption>
    </figure>
  );
}

/** Probability of each letter, as bars with their percentages. */
export function RatingBars({ probabilities }: { probabilities: Record<string, number> }) {
  return (
    <ul className="mt-1 space-y-0.5 text-xs" aria-label="Probability of each letter">
      {Object.entries(probabilities).map(([letter, p]) => (
        <li key={letter} className="flex items-center gap-2">
          <span className="w-3 font-semibold">{letter}</span>
          <span
            className="h-2 rounded bg-brand-600"
            style={{ width: `${Math.max(1, Math.round(p * 120))}px` }}
            aria-hidden="true"
          />
          <span className="tabular-nums text-slate-600">{Math.round(p * 100)} %</span>
        </li>
      ))}
    </ul>
  );
}
