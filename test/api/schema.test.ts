import {
  buildSchema,
  getNamedType,
  type GraphQLInputObjectType,
  type GraphQLObjectType,
  type GraphQLType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  printSchema,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { typeDefs } from '../../functions/api/schema.generated.js';
import { readSdl } from '../../scripts/schema.js';

describe('schema', () => {
  it('the module the API ships builds the same schema as schema/*.graphql, every description included (only comments and layout are left out)', () => {
    const written = readSdl();
    expect(printSchema(buildSchema(typeDefs))).toBe(printSchema(buildSchema(written)));
    expect(typeDefs.length).toBeLessThan(written.length);
    expect(typeDefs).not.toMatch(/^\s*#/m);
  });

  it('documents every type, field, argument and enum value (the schema documents itself)', () => {
    const schema = buildSchema(typeDefs);
    const missing: string[] = [];
    for (const t of Object.values(schema.getTypeMap())) {
      if (t.name.startsWith('__') || ['String', 'Int', 'Boolean', 'ID', 'Float'].includes(t.name)) continue;
      if (!t.description?.trim()) missing.push(t.name);
      if (isObjectType(t) || isInterfaceType(t) || isInputObjectType(t)) {
        for (const f of Object.values(t.getFields())) {
          if (!f.description?.trim()) missing.push(`${t.name}.${f.name}`);
          for (const a of 'args' in f ? f.args : [])
            if (!a.description?.trim()) missing.push(`${t.name}.${f.name}(${a.name})`);
        }
      }
      if (isEnumType(t)) for (const v of t.getValues()) if (!v.description?.trim()) missing.push(`${t.name}.${v.name}`);
    }
    expect(missing).toEqual([]);
  });

  it('dates every deprecation ("..., since YYYY-MM-DD") and deprecates instead of removing', () => {
    const schema = buildSchema(typeDefs);
    const undated: string[] = [];
    const check = (where: string, reason: string | null | undefined) => {
      if (reason && !/since \d{4}-\d{2}-\d{2}\.?$/.test(reason)) undated.push(`${where}: ${reason}`);
    };
    for (const t of Object.values(schema.getTypeMap())) {
      if (t.name.startsWith('__')) continue;
      if (isObjectType(t) || isInterfaceType(t) || isInputObjectType(t)) {
        for (const f of Object.values(t.getFields())) {
          check(`${t.name}.${f.name}`, f.deprecationReason);
          for (const a of 'args' in f ? f.args : []) check(`${t.name}.${f.name}(${a.name})`, a.deprecationReason);
        }
      }
      if (isEnumType(t)) for (const v of t.getValues()) check(`${t.name}.${v.name}`, v.deprecationReason);
    }
    expect(undated).toEqual([]);
    // The older forms stay (docs/versioning.md): removing one would break the clients written against it.
    const query = schema.getQueryType()!.getFields();
    expect(query.events.deprecationReason).toMatch(/eventsPage/);
    expect(query.game.args.find((a) => a.name === 'id')?.deprecationReason).toMatch(/gameId/);
  });

  it('names a game `gameId` in every argument, and pages every growing list with first/after and PageInfo', () => {
    const schema = buildSchema(typeDefs);
    const odd: string[] = [];
    for (const root of [schema.getQueryType()!, schema.getMutationType()!, schema.getSubscriptionType()!]) {
      for (const f of Object.values(root.getFields())) {
        if (f.deprecationReason) continue;
        for (const a of f.args)
          if (a.name === 'id' && !a.deprecationReason && getNamedType(f.type).name === 'Game')
            odd.push(`${root.name}.${f.name}(id)`);
        const named = getNamedType(f.type);
        if (isObjectType(named) && named.getFields().pageInfo) {
          if (getNamedType(named.getFields().pageInfo.type).name !== 'PageInfo')
            odd.push(`${root.name}.${f.name}: ${named.name}.pageInfo is not PageInfo`);
          const after = f.args.find((a) => a.name === 'after');
          if (!after || getNamedType(after.type).name !== 'String' || !f.args.some((a) => a.name === 'first'))
            odd.push(`${root.name}.${f.name}: not first/after: String`);
        }
      }
    }
    expect(odd).toEqual([]);
  });

  it('spells enum values UPPER_CASE, except the engine-named enums kept as they are (docs/versioning.md)', () => {
    // These enums' values are the engine's own names, also sent as strings elsewhere (prompt option
    // ids are LootKind names, CharacterEvent places): renaming them would break every client, and
    // an output enum cannot carry two spellings of one value. This list may only shrink.
    const ENGINE_NAMED = new Set(['EventType', 'CardPlace', 'LootKind', 'PromptKind', 'TileSide', 'Timing']);
    const schema = buildSchema(typeDefs);
    const odd: string[] = [];
    for (const t of Object.values(schema.getTypeMap())) {
      if (t.name.startsWith('__') || !isEnumType(t)) continue;
      const upper = t.getValues().every((v) => /^[A-Z][A-Z0-9_]*$/.test(v.name));
      if (upper === ENGINE_NAMED.has(t.name)) odd.push(t.name);
    }
    expect(odd).toEqual([]);
  });

  it('types closed sets as enums: String only for open text, JSON only where the data is open by design', () => {
    // Field names whose String values are open text (names, prose, labels, secrets, cursors, ids of
    // options, seeds): anything else that is a String is probably a closed set -> make it an enum.
    const OPEN_STRINGS = new Set([
      'after',
      'email',
      'endCursor',
      'name',
      'authorName',
      'names',
      'text',
      'label',
      'seed',
      'seedCommitment',
      'url',
      'secret',
      'token',
      'reason',
      'why',
      'answer',
      'island',
      'tieBreak',
      'worth',
      'effect',
      // OAuth: issuers, client ids, tokens, scopes and integrators' user ids are open identifiers.
      'issuer',
      'clientId',
      'refreshToken',
      'guestToken',
      'scope',
      'user',
      // A rate-limit bucket's name: `<kind>:<whose>`, kinds may be added.
      'bucket',
    ]);
    // JSON: the scenario file is the engine's open format (documented on the field); the rest are
    // deprecated untyped copies kept for older clients.
    const OPEN_JSON = new Set(['Game.scenario']);
    const schema = buildSchema(typeDefs);
    const nameOf = (t: GraphQLType) => getNamedType(t)?.name;
    const bad: string[] = [];
    for (const t of Object.values(schema.getTypeMap())) {
      if (t.name.startsWith('__') || !(isObjectType(t) || isInterfaceType(t) || isInputObjectType(t))) continue;
      for (const f of Object.values(t.getFields())) {
        const named = nameOf(f.type);
        const where = `${t.name}.${f.name}`;
        const deprecated = 'deprecationReason' in f && f.deprecationReason;
        if (named === 'String' && !OPEN_STRINGS.has(f.name))
          bad.push(`${where}: String (use an enum, or add the name to OPEN_STRINGS if it is open text)`);
        if (named === 'JSON' && !OPEN_JSON.has(where) && !deprecated)
          bad.push(`${where}: JSON (type it; only open data may stay JSON, documented why)`);
        for (const a of 'args' in f ? f.args : []) {
          if (nameOf(a.type) === 'String' && !OPEN_STRINGS.has(a.name)) bad.push(`${where}(${a.name}): String`);
          if (nameOf(a.type) === 'JSON') bad.push(`${where}(${a.name}): JSON`);
        }
      }
    }
    expect(bad).toEqual([]);
    expect(
      schema.getType('Game') && (schema.getType('Game') as GraphQLObjectType).getFields().scenario.description,
    ).toMatch(/Deliberately JSON/);
  });
});
