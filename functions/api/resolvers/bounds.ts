// Every ID and String argument of a root field is length-checked before its resolver runs, on
// every path (HTTP and graphql-ws share these resolvers): a 3,000-character id used to reach
// DynamoDB and come back as INTERNAL_SERVER_ERROR (a key over its size limit). The bounds come
// from the schema, so an argument added later is covered without a line here.
import { buildSchema, getNamedType, type GraphQLObjectType } from 'graphql';
import { ApiError } from '../errors.js';
import { typeDefs } from '../schema.generated.js';

/** Characters (UTF-16 units) an argument may have (documented in the README, "Threat model and limits"). */
export const ARG_BOUNDS = {
  /** Every ID: game, prompt, option, request and webhook ids are UUIDs or shorter. */
  id: 128,
  /** Every String: tokens (a Cognito JWT is under 2,000), URLs, names, cursors. */
  string: 4096,
};

type Resolver = (parent: unknown, args: Record<string, unknown>, ctx: unknown, info: unknown) => unknown;

/** The bounded arguments of each root field: `Mutation.deleteWebhook` -> { id: 128 }. */
function boundsOf(): Map<string, Record<string, number>> {
  const schema = buildSchema(typeDefs);
  const out = new Map<string, Record<string, number>>();
  for (const root of [
    schema.getQueryType(),
    schema.getMutationType(),
    schema.getSubscriptionType(),
  ] as (GraphQLObjectType | null)[]) {
    if (!root) continue;
    for (const field of Object.values(root.getFields())) {
      const b: Record<string, number> = {};
      for (const a of field.args) {
        const t = getNamedType(a.type).name;
        if (t === 'ID') b[a.name] = ARG_BOUNDS.id;
        else if (t === 'String') b[a.name] = ARG_BOUNDS.string;
      }
      if (Object.keys(b).length) out.set(`${root.name}.${field.name}`, b);
    }
  }
  return out;
}

export function checkArgs(where: string, bounds: Record<string, number>, args: Record<string, unknown>): void {
  for (const [name, max] of Object.entries(bounds)) {
    const v = args[name];
    if (typeof v === 'string' && v.length > max)
      throw new ApiError('BAD_USER_INPUT', `${name}: at most ${max} characters (${where})`, {
        argument: name,
        maxLength: max,
      });
  }
}

/** The resolvers with every root field's ID and String arguments checked first. */
export function bounded<T extends object>(resolvers: T): T {
  const out: Record<string, unknown> = { ...(resolvers as Record<string, unknown>) };
  for (const [key, b] of boundsOf()) {
    const [type, field] = key.split('.');
    const group = { ...(out[type] as Record<string, unknown>) };
    const r = group[field];
    const wrap =
      (f: Resolver): Resolver =>
      (p, args, ctx, info) => {
        checkArgs(key, b, args);
        return f(p, args, ctx, info);
      };
    if (typeof r === 'function') group[field] = wrap(r as Resolver);
    else if (r && typeof r === 'object' && typeof (r as { subscribe?: unknown }).subscribe === 'function')
      group[field] = { ...r, subscribe: wrap((r as { subscribe: Resolver }).subscribe) };
    out[type] = group;
  }
  return out as T;
}
