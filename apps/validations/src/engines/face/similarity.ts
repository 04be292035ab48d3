// Similarity of two face descriptors for the validations' threshold (default 0.65).
//
// face-api's descriptors are compared by Euclidean distance d (0 = identical; the library suggests
// d < 0.6 for "same person"). The validations API compares a similarity in 0..1 with a threshold, so
// d is mapped linearly: similarity = clamp(1 − 0.75·d, 0, 1). At the default threshold 0.65 this accepts
// d ≤ 0.467, stricter than face-api's 0.6 because the package's sample photos put two different people of
// one photo at d = 0.486 (measurements in docs/services/validations-engines.md).

export const DISTANCE_SLOPE = 0.75;

export function euclideanDistance(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length) throw new Error(`descriptors of different lengths (${a.length}, ${b.length})`);
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i] - b[i]) ** 2;
  return Math.sqrt(sum);
}

export function distanceToSimilarity(distance: number): number {
  return Math.min(1, Math.max(0, 1 - DISTANCE_SLOPE * distance));
}

export function descriptorSimilarity(a: readonly number[], b: readonly number[]): number {
  return Math.round(distanceToSimilarity(euclideanDistance(a, b)) * 10000) / 10000;
}
