// The documentation pages and how the docs tests read them: README.md and every docs/*.md,
// their fenced blocks, their headings (as GitHub makes anchors of them) and their links.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSchema, parse, validate } from 'graphql';
import { typeDefs } from '../../functions/api/schema.generated.js';

export const ROOT = join(import.meta.dirname, '..', '..');
export const MARK = '<!-- readme-test: run -->';
/** `<!-- readme-test: after docs/x.md -->`: this page's marked blocks run after x's, in the same shell (they use what x set). */
const AFTER = /^<!-- readme-test: after (\S+) -->$/m;

/** The page whose marked blocks this page's continue, or null. */
export const continues = (md: string): string | null => AFTER.exec(md)?.[1] ?? null;

/** Every documentation page, by its path from the repository root: README.md and CHANGELOG.md, then docs/ in name order. */
export function docPages(): string[] {
  const docs = readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`);
  return ['README.md', 'CHANGELOG.md', ...docs];
}

export const readPage = (page: string): string => readFileSync(join(ROOT, page), 'utf8');

export interface Block {
  lang: string;
  code: string;
  /** The marker line precedes the fence: the docs test runs it. */
  run: boolean;
  line: number;
}

/** Fenced blocks: language, code, and whether the marker line precedes the fence. */
export function blocks(md: string): Block[] {
  const out: Block[] = [];
  const lines = md.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w*)\s*$/.exec(lines[i]);
    if (!open) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i] !== '```'; i++) body.push(lines[i]);
    out.push({ lang: open[1], code: body.join('\n'), run: lines[start - 1]?.trim() === MARK, line: start + 1 });
  }
  return out;
}

/** The text outside fenced blocks (headings and links in code are not headings and links). */
export function prose(md: string): string {
  let fenced = false;
  return md
    .split('\n')
    .filter((l) => {
      if (/^```/.test(l)) fenced = !fenced;
      return !fenced && !/^```/.test(l);
    })
    .join('\n');
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens; repeats get -1, -2... */
export function anchors(md: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of prose(md).matchAll(/^#{1,6} (.+)$/gm)) {
    const base = m[1]
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\- _]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Relative Markdown links of a page: `[text](target)` outside code, without http(s) and mailto links. */
export function relativeLinks(md: string): string[] {
  return [...prose(md).matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]).filter((t) => !/^(https?:|mailto:)/.test(t));
}

/** The script of a page's marked blocks, in page order, for one bash with `set -euo pipefail`. */
export function walkthrough(page: string, text: string): string {
  const run = blocks(text).filter((b) => b.run);
  // Each block says where it starts on stderr, so a failure names the block it happened in.
  return ['set -euo pipefail', ...run.map((b) => `echo '---- ${page} line ${b.line}' >&2\n${b.code}`)].join('\n');
}

/** Repository paths a page names in backticks (`functions/api/`, `test/docs/pages.ts`), outside code blocks; globs left out. */
export function repoPaths(md: string): string[] {
  const roots = 'functions|infra|test|scripts|web|clients|schema|docs|scenarios';
  return [...prose(md).matchAll(new RegExp(`\`((?:${roots})/[\\w./-]*)\``, 'g'))].map((m) => m[1]);
}

const schema = buildSchema(typeDefs);

/** Problems of one GraphQL document against the schema ([] when it validates). */
export function problems(doc: string): string[] {
  try {
    return validate(schema, parse(doc)).map((e) => e.message);
  } catch (e) {
    return [(e as Error).message];
  }
}
