// Every deploy-time setting of the stack as a `-c name=value` context value (docs/aws.md,
// "Every -c setting"): read here, in one place, so that infra/app.ts stays a composition root and
// the docs test can check that each name is documented.
import * as logs from 'aws-cdk-lib/aws-logs';
import type { LibertaliaStackProps } from './stack.js';

type Kind = 'number' | 'list' | 'string' | 'boolean' | 'days';

/**
 * The context names, their kind and the stack prop each sets. A list is comma-separated
 * (`-c webCallbackUrls=https://a/,https://b/`); a boolean is `true` or `false`.
 */
export const CONTEXT_SETTINGS = {
  sweepIntervalMinutes: 'number',
  dataProtection: 'boolean',
  webAclArn: 'string',
  apiRateLimit: 'number',
  apiBurstLimit: 'number',
  sweepReservedConcurrency: 'number',
  noticeMaxConcurrency: 'number',
  tableMaxReadUnits: 'number',
  tableMaxWriteUnits: 'number',
  pushRateLimit: 'number',
  pushBurstLimit: 'number',
  sweepBacklogAlarm: 'number',
  logRetentionDays: 'days',
  authDomainPrefix: 'string',
  webCallbackUrls: 'list',
  integratorClients: 'list',
  sesFromEmail: 'string',
  tableName: 'string',
} as const satisfies Record<string, Kind>;

/** Context names that are not stack props: the stack's name, the edge firewall switch. */
export const APP_CONTEXT = ['stackName', 'edgeFirewall'] as const;

/** The retention periods CloudWatch Logs accepts (RetentionDays values, in days). */
const RETENTIONS = new Set<number>(Object.values(logs.RetentionDays).filter((v): v is number => typeof v === 'number'));

function parse(name: string, kind: Kind, raw: unknown): unknown {
  const text = String(raw).trim();
  switch (kind) {
    case 'number': {
      const n = Number(text);
      if (text === '' || !Number.isFinite(n) || n < 0) throw new Error(`-c ${name}=${text}: a number of 0 or more`);
      return n;
    }
    case 'boolean':
      if (text !== 'true' && text !== 'false') throw new Error(`-c ${name}=${text}: true or false`);
      return text === 'true';
    case 'list':
      return Array.isArray(raw)
        ? raw.map(String)
        : text
            .split(',')
            .map((s) => s.trim())
            .filter((s) => s !== '');
    case 'days': {
      const n = Number(text);
      if (!RETENTIONS.has(n))
        throw new Error(
          `-c ${name}=${text}: one of CloudWatch Logs' retentions (${[...RETENTIONS].sort((a, b) => a - b).join(', ')})`,
        );
      return n as logs.RetentionDays;
    }
    default:
      if (text === '') throw new Error(`-c ${name}=: empty`);
      return text;
  }
}

/** The stack props given by context (`tryGetContext`); a setting not given is left to the stack's default. */
export function propsFromContext(get: (name: string) => unknown): Partial<LibertaliaStackProps> {
  const out: Record<string, unknown> = {};
  for (const [name, kind] of Object.entries(CONTEXT_SETTINGS)) {
    const raw = get(name);
    if (raw === undefined || raw === null) continue;
    const prop = name === 'logRetentionDays' ? 'logRetention' : name;
    out[prop] = parse(name, kind, raw);
  }
  return out as Partial<LibertaliaStackProps>;
}
