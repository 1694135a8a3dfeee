/**
 * The secrets the API and push functions read from Secrets Manager (never the sweep or the notice
 * worker: their bundles carry no Secrets Manager client and their roles no access to it).
 * - `SIGNING_KEY_SECRET_ARN`: the key that signs the service's own tokens; `SIGNING_KEY` without it (tests, local runs).
 * - `ORIGIN_SECRET_ARN`: the edge's origin secret (API only); `ORIGIN_SECRET` without it.
 */
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';

let secretsClient: SecretsManagerClient | undefined;

/** The signing keys, current first: the secret's AWSCURRENT and AWSPREVIOUS versions (or SIGNING_KEY). */
export async function readSigningKeys(): Promise<string[]> {
  const arn = process.env.SIGNING_KEY_SECRET_ARN;
  if (arn) {
    const sm = (secretsClient ??= new SecretsManagerClient({}));
    const out = await sm.send(new GetSecretValueCommand({ SecretId: arn }));
    if (!out.SecretString) throw new Error('the signing key secret has no string value');
    let previous: string | undefined;
    try {
      previous = (await sm.send(new GetSecretValueCommand({ SecretId: arn, VersionStage: 'AWSPREVIOUS' })))
        .SecretString;
    } catch (e) {
      // No previous version before the first rotation (ResourceNotFoundException): nothing to accept.
      if ((e as { name?: string }).name !== 'ResourceNotFoundException')
        console.error('could not read the previous signing key', e);
    }
    return previous ? [out.SecretString, previous] : [out.SecretString];
  }
  const key = process.env.SIGNING_KEY;
  if (key) return [key];
  throw new Error('neither SIGNING_KEY_SECRET_ARN nor SIGNING_KEY is set');
}

/**
 * The edge's origin secret: the value of the ORIGIN_HEADER CloudFront adds to every request it
 * forwards (infra/edge.ts), read from Secrets Manager (`ORIGIN_SECRET_ARN`; `ORIGIN_SECRET` in
 * tests). Null without an edge: then no request's CloudFront-Viewer-Address is trusted.
 */
export async function readOriginSecret(): Promise<string | null> {
  const arn = process.env.ORIGIN_SECRET_ARN;
  if (arn) {
    const sm = (secretsClient ??= new SecretsManagerClient({}));
    const out = await sm.send(new GetSecretValueCommand({ SecretId: arn }));
    if (!out.SecretString) throw new Error('the origin secret has no string value');
    return out.SecretString;
  }
  return process.env.ORIGIN_SECRET || null;
}

/** For tests: forget the client (e.g. after changing the endpoint). */
export function resetSecretsForTests(): void {
  secretsClient = undefined;
}
