import { buildSchema, type GraphQLInputObjectType, type GraphQLObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { typeDefs } from '../../functions/api/schema.generated.js';
import { generated, readSdl } from '../../scripts/schema.js';

describe('schema', () => {
  it('the generated module matches schema/*.graphql (run `npm run schema` after editing)', () => {
    expect(typeDefs).toBe(JSON.parse(generated(readSdl()).split('export const typeDefs = ')[1].replace(/;\n$/, '')));
  });

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
});
