// Prints the operation allowlist (functions/api/http/allowlist.ts): the id of every operation of
// the SDK (clients/typescript/src/generated.ts) and the web app (web/src/generated.ts), one per
// line. Set them as OPERATION_ALLOWLIST (comma- or space-separated) to run only those.
import * as sdk from '../clients/typescript/src/generated.js';
import * as web from '../web/src/generated.js';
import { operationId } from '../functions/api/http/allowlist.js';

const documents = new Set<string>();
for (const mod of [sdk, web]) {
  for (const [name, value] of Object.entries(mod))
    if (name.endsWith('Document') && value && typeof value.toString === 'function') documents.add(String(value));
}
const ids = [
  ...new Set([...documents].filter((d) => /^\s*(query|mutation|subscription)\b/.test(d)).map((d) => operationId(d))),
].sort();
console.log(ids.join('\n'));
