// Durations from the configuration as people read them, so pages state the running settings
// (retry schedules, overlaps) instead of copies that drift.

/** 5 s, 5 min, 2 h, 1.5 h, 2 d: the largest unit that keeps the number short. */
export function duration(seconds: number): string {
  const units: [number, string][] = [
    [86_400, "d"],
    [3600, "h"],
    [60, "min"],
    [1, "s"],
  ];
  const [size, unit] = units.find(([size]) => seconds >= size) ?? [1, "s"];
  const value = Math.round((seconds / size) * 10) / 10;
  return `${value} ${unit}`;
}

/** "5 s, 5 min and 30 min": a schedule's delays in order. */
export function scheduleText(seconds: readonly number[]): string {
  const parts = seconds.map(duration);
  return parts.length > 1 ? `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}` : (parts[0] ?? "never");
}

/** "about 28 hours", "about 15 seconds": how long a schedule runs in all, rounded for prose. */
export function aboutTotal(seconds: readonly number[]): string {
  const total = seconds.reduce((a, b) => a + b, 0);
  if (total >= 2 * 86_400) return `about ${Math.round(total / 86_400)} days`;
  if (total >= 2 * 3600) return `about ${Math.round(total / 3600)} hours`;
  if (total >= 120) return `about ${Math.round(total / 60)} minutes`;
  return `about ${Math.round(total)} seconds`;
}

/**
 * A time axis over `spanMs`: ticks every 1, 2 or 5 times a power of ten of one unit (the largest of
 * ms, s, min and h the span reaches), about four steps across, each labelled in that unit.
 */
export function axisTicks(spanMs: number): { ticks: number[]; label: (ms: number) => string } {
  const span = Math.max(spanMs, 1);
  const units: [number, string][] = [
    [3_600_000, "h"],
    [60_000, "min"],
    [1000, "s"],
    [1, "ms"],
  ];
  const [size, name] = units.find(([u]) => span >= u) ?? units.at(-1)!;
  const raw = span / size / 4;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = ([1, 2, 5, 10].find((m) => m * power >= raw - 1e-9) ?? 10) * power * size;
  const ticks = Array.from({ length: Math.floor(span / step + 1e-9) + 1 }, (_, i) => i * step);
  const digits = Math.max(0, -Math.floor(Math.log10(step / size) + 1e-9));
  return { ticks, label: (ms) => `${Number((ms / size).toFixed(digits))} ${name}` };
}
