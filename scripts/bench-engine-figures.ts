// Reference figures the engine benchmark (bench-engine.ts) is compared with in the report.

/**
 * Issue 14's "today" (before clone.ts and the later speed work), measured on this machine:
 * complete random games per second per edition and player count, and the pure apply() at
 * about 62,000 commands/s with the JSON round trip as its copy. The report shows each row's
 * ratio to these (`xIssue`); the issue's goals: 4-player classic >= 20,000 games/s, apply()
 * >= 5x. They were measured with a shorter warm-up than the benchmark's now; the engine of that
 * day by the same method as today's: `npm run bench:engine -- --engine-ref 5f987f4^` (docs/performance.md).
 */
export const ISSUE_TODAY: Record<string, Record<number, number>> = {
  classic: { 2: 22_663, 4: 10_305, 6: 6_660 },
  'galecrest/calm': { 2: 10_330, 4: 7_487, 6: 4_966 },
};
export const ISSUE_TODAY_APPLY_COMMANDS = 62_000;
