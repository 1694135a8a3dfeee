// What one parsed operation costs in rate-limit tokens: every root field it selects (aliases and
// fragments expanded, `@skip`/`@include` ignored: the charge is on what was sent), so 15 aliased
// fields are 15 tokens, whatever the transport (HTTP and graphql-ws both charge here). The text
// sniffed before parsing (app.ts `sniffOperation`) is only a cheap first fee, never the charge.
import { type FragmentDefinitionNode, Kind, type OperationDefinitionNode, type SelectionSetNode } from 'graphql';

export interface Charge {
  /** Query and subscription root fields (at least 1 per operation). */
  read: number;
  /** Mutation root fields other than signUp. */
  write: number;
  /** signUp fields: counted per address whatever token is sent. */
  signUp: number;
  /** `__schema` and `__type` root fields: their own per-caller bucket. */
  introspection: number;
}

const INTROSPECTION = new Set(['__schema', '__type']);

/** The root field names of `op`, one per field node (an alias is its own field). */
export function rootFields(
  op: OperationDefinitionNode,
  fragments: Record<string, FragmentDefinitionNode> | ReadonlyMap<string, FragmentDefinitionNode>,
): string[] {
  const get = (n: string) =>
    fragments instanceof Map ? fragments.get(n) : (fragments as Record<string, FragmentDefinitionNode>)[n];
  const out: string[] = [];
  const seen = new Set<string>(); // a fragment spread twice at the root selects the same fields
  const walk = (set: SelectionSetNode) => {
    for (const s of set.selections) {
      if (s.kind === Kind.FIELD) out.push(s.name.value);
      else if (s.kind === Kind.INLINE_FRAGMENT) walk(s.selectionSet);
      else if (!seen.has(s.name.value)) {
        seen.add(s.name.value);
        const f = get(s.name.value);
        if (f) walk(f.selectionSet);
      }
    }
  };
  walk(op.selectionSet);
  return out;
}

export function chargeOf(op: OperationDefinitionNode, fragments: Parameters<typeof rootFields>[1]): Charge {
  const c: Charge = { read: 0, write: 0, signUp: 0, introspection: 0 };
  for (const f of rootFields(op, fragments)) {
    if (op.operation === 'mutation') {
      if (f === 'signUp') c.signUp++;
      else c.write++;
    } else if (INTROSPECTION.has(f)) c.introspection++;
    else c.read++;
  }
  if (c.read + c.write + c.signUp + c.introspection === 0) c.read = 1;
  return c;
}

/** The fragments of a document by name (graphql-ws hands the document, Apollo a map). */
export function fragmentsOf(definitions: readonly { kind: string }[]): Map<string, FragmentDefinitionNode> {
  const m = new Map<string, FragmentDefinitionNode>();
  for (const d of definitions)
    if (d.kind === Kind.FRAGMENT_DEFINITION)
      m.set((d as FragmentDefinitionNode).name.value, d as FragmentDefinitionNode);
  return m;
}
