// Numbers as the portal words them: a count with its noun, a share as a percentage that never
// rounds a failure away.

/** "1 row", "2 rows", "1,024 rows" (`plural` for nouns that do not take an s). */
export const countOf = (n: number, noun: string, plural = `${noun}s`): string =>
  `${n.toLocaleString("en")} ${n === 1 ? noun : plural}`;

/**
 * A share (0 to 1) as a percentage: whole numbers, one decimal near the ends, and rounded toward
 * 50 %, so that 1 failure in 3,000 reads 99.9 %, never 100.0 %, and 1 success in 3,000 never 0 %.
 */
export function percentText(share: number): string {
  if (share <= 0 || share >= 1) return `${Math.round(share * 100)} %`;
  const near = share > 0.99 || share < 0.01;
  const scale = near ? 1000 : 100;
  const scaled = share * scale;
  // Toward 50 %: down above it, up below it.
  const rounded = share > 0.5 ? Math.floor(scaled) : Math.ceil(scaled);
  return `${(rounded / (scale / 100)).toFixed(near ? 1 : 0)} %`;
}
