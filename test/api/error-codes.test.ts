// Every extensions.code the API sends is a value of the schema's ErrorCode enum
// (schema/errors.graphql): the codes written anywhere in functions/ (a static scan), the status
// table, and the formatting path every error goes out through (which refuses an unlisted code
// under test, so any test that provoked one would fail).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { buildSchema, type GraphQLEnumType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { typeDefs } from '../../functions/api/schema.generated.js';
import { ApiError, formatError, HTTP_STATUS, listedCode, restError } from '../../functions/api/errors.js';

const enumValues = (buildSchema(typeDefs).getType('ErrorCode') as GraphQLEnumType).getValues().map((v) => v.name);

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) return sources(p);
    return p.endsWith('.ts') && !p.endsWith('.generated.ts') ? [p] : [];
  });
}

/** Every code literal the service can put on the wire: ApiError/apiError/fail calls and `code: '...'` properties. */
function codesWritten(): Map<string, string> {
  const found = new Map<string, string>();
  const patterns = [
    /new (?:ApiError|EngineError)\(\s*'([A-Za-z_]+)'/g,
    /\bapiError\(\s*'([A-Za-z_]+)'/g,
    /\bfail\(\s*'([A-Za-z_]+)'/g,
    /\bcode: '([A-Za-z_]+)'/g,
  ];
  for (const file of sources(join(import.meta.dirname, '../../functions'))) {
    const text = readFileSync(file, 'utf8');
    for (const re of patterns)
      for (const m of text.matchAll(re))
        if (/^[A-Z][A-Z_]+$/.test(m[1]) && !m[1].startsWith('ERR_')) found.set(m[1], file);
  }
  return found;
}

describe('error codes', () => {
  it('sends no code outside the ErrorCode enum (every code written in functions/)', () => {
    const written = codesWritten();
    expect(written.size).toBeGreaterThan(10);
    const unlisted = [...written]
      .filter(([code]) => !enumValues.includes(code))
      .map(([code, file]) => `${code} (${file})`);
    expect(unlisted).toEqual([]);
  });

  it('gives every enum value an HTTP status, and nothing else', () => {
    expect(Object.keys(HTTP_STATUS).sort()).toEqual([...enumValues].sort());
  });

  it('refuses an unlisted code on the way out (formatError, restError), so no test can send one unnoticed', () => {
    const rogue = new ApiError('NOT_A_CODE' as never, 'made up');
    expect(() => formatError({ message: 'made up' }, rogue)).toThrow(/not in the ErrorCode enum/);
    expect(() => restError(rogue)).toThrow(/not in the ErrorCode enum/);
    expect(listedCode('STALE')).toBe('STALE');
    const ok = formatError({ message: 'x' }, new ApiError('STALE', 'moved on', { version: 3 }));
    expect(ok.extensions).toEqual({ code: 'STALE', version: 3 });
  });
});
