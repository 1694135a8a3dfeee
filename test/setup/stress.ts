// Test sizes: the CI number by default, the big one under `npm run stress` (STRESS=1), for the
// reliability suite and the store's bounds (each size's comment says why the CI number still
// fails on the bug the test exists for).
export const STRESS = process.env.STRESS === '1';
/** CI size or stress size. */
export const size = (ci: number, stress: number) => (STRESS ? stress : ci);
/** A per-test timeout that grows with the stress sizes. */
export const timeout = (ciMs: number, stressMs: number) => (STRESS ? stressMs : ciMs);
