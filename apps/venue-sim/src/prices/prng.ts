// Math functions held locally: hot loops stay fast in sandboxed runtimes (jest) too.
const { imul, floor, sqrt } = Math;

/**
 * Counter-based seeded randomness: every draw is a pure hash of (seed, stream, index), so any point of the
 * price history can be computed on its own, in any order, with the same result.
 */
const TWO_32 = 4294967296;

function mix(h: number): number {
  h = imul(h ^ (h >>> 16), 0x85ebca6b);
  h = imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** 32-bit hash of a seed, a stream id and an integer index (|index| < 2^53). */
export function hash32(seed: number, stream: number, index: number): number {
  const lo = ((index % TWO_32) + TWO_32) % TWO_32;
  const hi = floor(index / TWO_32);
  let h = mix((seed >>> 0) ^ 0x9e3779b9);
  h = mix(h ^ imul(stream >>> 0, 0x27d4eb2f));
  h = mix(h ^ lo);
  return mix(h ^ imul(hi | 0, 0x165667b1));
}

/** Uniform in [0, 1). */
export function uniform(seed: number, stream: number, index: number): number {
  return hash32(seed, stream, index) / TWO_32;
}

/** Standard normal (approximated by the sum of four uniforms, scaled to unit variance). */
export function gaussian(seed: number, stream: number, index: number): number {
  const a = hash32(seed, stream, index);
  const b = hash32(seed ^ 0x5bd1e995, stream, index);
  const sum = (a & 0xffff) + (a >>> 16) + (b & 0xffff) + (b >>> 16);
  return (sum / 65536 - 2) * sqrt(3);
}
