// The generated files are committed (a clean clone type-checks and builds without a step
// first), so they must be what the schema and the operations make now: edit schema/*.graphql or
// an operations/*.graphql file, then run `npm run codegen`.
import { describe, expect, it } from 'vitest';
import { readSdl } from '../../scripts/schema.js';
import { resolverTypes, schemaTypes, stale, TARGETS } from '../../scripts/codegen.js';

describe('generated files', () => {
  it('every generated file matches what `npm run codegen` writes now', async () => {
    expect(TARGETS.map((t) => t.file)).toEqual([
      'functions/api/schema.generated.ts',
      'functions/api/schema.types.generated.ts',
      'functions/api/resolvers/types.generated.ts',
      'clients/typescript/src/generated.ts',
      'web/src/generated.ts',
      'functions/api/accounts/confusables.generated.ts',
    ]);
    expect(await stale(), 'stale: run `npm run codegen`').toEqual([]);
  }, 60_000);

  it('the schema and resolver types follow the SDL: a field added there appears in both', async () => {
    const sdl = readSdl().replace(/type Seat \{/, 'type Seat {\n  parrot: Int!');
    expect(await schemaTypes(sdl)).toMatch(
      /export type Seat = \{[^}]*\n {2}parrot: EntireFieldWrapper<Scalars\['Int'\]\['output'\]>;/,
    );
    expect(await resolverTypes(sdl)).toMatch(
      /export type SeatResolvers<[^\n]*\n(?:.*\n)*? {2}parrot\?: Resolver<ResolversTypes\['Int'\]/,
    );
  }, 60_000);
});
