// Every ID and String argument of a root field is length-checked before its resolver runs, on
// every path (HTTP and graphql-ws share these resolvers): a 3,000-character id used to reach
// DynamoDB and come back as INTERNAL_SERVER_ERROR (a key over its size limit). The bounds come
// from the schema the field runs in (the resolver's `info`), so an argument added later is
// covered without a line here. They are read on a field's first call and kept: no schema is built
// for them (a second build of the schema at module load was most of the API bundle's import time).
import type { GraphQLResolveInfo, GraphQLType } from 'graphql';
import { ApiError } from '../errors.js';

/** Characters (UTF-16 units) an argument may have (documented in the README, "Threat model and limits"). */
export const ARG_BOUNDS = {
  /** Every ID: game, prompt, option, request and webhook ids are UUIDs or shorter. */
  id: 128,
  /** Every String: tokens (a Cognito JWT is under 2,000), URLs, names, cursors. */
  string: 4096,
};

type Resolver = (parent: unknown, args: Record<string, unknown>, ctx: unknown, info: GraphQLResolveInfo) => unknown;

/**
 * The name of a type under its list and non-null wrappers. Read from the type's shape, not with
 * graphql's getNamedType: its instanceof checks fail when the schema was built by another copy of
 * graphql (Apollo's CommonJS build beside our ESM one, outside the bundles).
 */
function namedType(type: GraphQLType): string {
  let t: GraphQLType = type;
  while ('ofType' in t) t = t.ofType;
  return t.name;
}

/** The bounded arguments of a root field (`{ id: 128 }` for Mutation.deleteWebhook), from its definition in the schema. */
function boundsOf(info: GraphQLResolveInfo): Record<string, number> {
  const b: Record<string, number> = {};
  for (const a of info.parentType.getFields()[info.fieldName]?.args ?? []) {
    const t = namedType(a.type);
    if (t === 'ID') b[a.name] = ARG_BOUNDS.id;
    else if (t === 'String') b[a.name] = ARG_BOUNDS.string;
  }
  return b;
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

/** The root types whose fields' arguments are checked. */
const ROOTS = ['Query', 'Mutation', 'Subscription'];

/** The resolvers with every root field's ID and String arguments checked first. */
export function bounded<T extends object>(resolvers: T): T {
  const out: Record<string, unknown> = { ...(resolvers as Record<string, unknown>) };
  for (const type of ROOTS) {
    if (!out[type]) continue;
    const group = { ...(out[type] as Record<string, unknown>) };
    for (const [field, r] of Object.entries(group)) {
      const where = `${type}.${field}`;
      // Per schema: the HTTP server and graphql-ws each build theirs from the same type definitions.
      const seen = new WeakMap<GraphQLResolveInfo['schema'], Record<string, number>>();
      const wrap =
        (f: Resolver): Resolver =>
        (p, args, ctx, info) => {
          let b = seen.get(info.schema);
          if (!b) seen.set(info.schema, (b = boundsOf(info)));
          checkArgs(where, b, args);
          return f(p, args, ctx, info);
        };
      if (typeof r === 'function') group[field] = wrap(r as Resolver);
      else if (r && typeof r === 'object' && typeof (r as { subscribe?: unknown }).subscribe === 'function')
        group[field] = { ...r, subscribe: wrap((r as { subscribe: Resolver }).subscribe) };
    }
    out[type] = group;
  }
  return out as T;
}
