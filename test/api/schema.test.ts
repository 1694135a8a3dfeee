import { buildSchema, getNamedType, type GraphQLInputObjectType, type GraphQLObjectType, type GraphQLType, isInputObjectType, isInterfaceType, isObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { typeDefs } from '../../functions/api/schema.generated.js';

describe('schema', () => {
  it('documents every type, every root field and every input field', () => {
    const schema = buildSchema(typeDefs);
    const missing: string[] = [];
    for (const t of Object.values(schema.getTypeMap())) {
      if (t.name.startsWith('__') || ['String', 'Int', 'Boolean', 'ID', 'Float', 'Query', 'Mutation'].includes(t.name)) continue;
      if (!t.description) missing.push(t.name);
    }
    const roots: (GraphQLObjectType | GraphQLInputObjectType)[] = [schema.getQueryType()!, schema.getMutationType()!, schema.getType('CreateGameInput') as GraphQLInputObjectType];
    for (const root of roots) {
      for (const f of Object.values(root.getFields())) if (!f.description) missing.push(`${root.name}.${f.name}`);
    }
    expect(missing).toEqual([]);
  });

  it('types closed sets as enums: String only for open text, JSON only where the data is open by design', () => {
    // Field names whose String values are open text (names, prose, labels, secrets, cursors, ids of
    // options, seeds): anything else that is a String is probably a closed set -> make it an enum.
    const OPEN_STRINGS = new Set(['after', 'endCursor', 'name', 'names', 'text', 'label', 'seed', 'seedCommitment', 'url', 'secret', 'token', 'reason', 'why', 'answer', 'island', 'tieBreak', 'worth', 'effect',
      // OAuth: issuers, client ids, tokens, scopes and integrators' user ids are open identifiers.
      'issuer', 'clientId', 'refreshToken', 'guestToken', 'scope', 'user']);
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
        if (named === 'String' && !OPEN_STRINGS.has(f.name)) bad.push(`${where}: String (use an enum, or add the name to OPEN_STRINGS if it is open text)`);
        if (named === 'JSON' && !OPEN_JSON.has(where) && !deprecated) bad.push(`${where}: JSON (type it; only open data may stay JSON, documented why)`);
        for (const a of 'args' in f ? f.args : []) {
          if (nameOf(a.type) === 'String' && !OPEN_STRINGS.has(a.name)) bad.push(`${where}(${a.name}): String`);
          if (nameOf(a.type) === 'JSON') bad.push(`${where}(${a.name}): JSON`);
        }
      }
    }
    expect(bad).toEqual([]);
    expect(schema.getType('Game') && (schema.getType('Game') as GraphQLObjectType).getFields().scenario.description).toMatch(/Deliberately JSON/);
  });
});
