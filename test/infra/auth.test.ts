// Accounts on AWS: the Cognito user pool, its web app client (public, PKCE, no secret), the
// resource server's scopes, and the issuer configuration the API Lambda gets; the service's own
// signing key is retained.
import { beforeAll, describe, expect, it } from 'vitest';
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { SCOPES } from '../../functions/api/accounts/auth.js';
import { synthStack } from './synth.js';

let template: Template;
let resources: Record<string, { Type: string; Properties?: Record<string, any>; DeletionPolicy?: string }>;

beforeAll(() => {
  ({ template } = synthStack());
  resources = template.toJSON().Resources;
}, 120_000);

const ofType = (t: string) => Object.entries(resources).filter(([, r]) => r.Type === t);

describe('Cognito', () => {
  it('a user pool: e-mail sign-up and sign-in, passkeys, retained and protected', () => {
    const pools = ofType('AWS::Cognito::UserPool');
    expect(pools).toHaveLength(1);
    const [, pool] = pools[0];
    expect(pool.DeletionPolicy).toBe('Retain');
    expect(pool.Properties).toMatchObject({
      UsernameAttributes: ['email'],
      AutoVerifiedAttributes: ['email'],
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: false },
      DeletionProtection: 'ACTIVE',
      UserPoolTier: 'ESSENTIALS',
    });
    expect(pool.Properties!.Policies.SignInPolicy.AllowedFirstAuthFactors).toEqual(
      expect.arrayContaining(['PASSWORD', 'WEB_AUTHN']),
    );
    template.resourceCountIs('AWS::Cognito::UserPoolDomain', 1);
  });

  it('the web app is a public client: authorization code (PKCE) only, no secret, no implicit flow', () => {
    const web = ofType('AWS::Cognito::UserPoolClient')
      .map(([, r]) => r.Properties!)
      .find((p) => p.ClientName === 'libertalia-web')!;
    expect(web.GenerateSecret).toBe(false);
    expect(web.AllowedOAuthFlows).toEqual(['code']);
    expect(web.AllowedOAuthFlowsUserPoolClient).toBe(true);
    expect(JSON.stringify(web.AllowedOAuthScopes)).toContain(`/${SCOPES.play.split('/')[1]}`);
    expect(web.AllowedOAuthScopes).toContain('openid');
    expect(web.EnableTokenRevocation).toBe(true);
  });

  it('a resource server whose scopes are the ones the API checks', () => {
    const [[, rs]] = ofType('AWS::Cognito::UserPoolResourceServer');
    expect(rs.Properties!.Identifier).toBe('libertalia');
    const names = (rs.Properties!.Scopes as { ScopeName: string }[])
      .map((s) => `${rs.Properties!.Identifier}/${s.ScopeName}`)
      .sort();
    expect(names).toEqual(Object.values(SCOPES).sort());
  });

  it('the API Lambda trusts the pool as its issuer and tells the web app how to sign in', () => {
    const api = ofType('AWS::Lambda::Function')
      .map(([, r]) => r.Properties!)
      .find((p) => p.Environment?.Variables?.WEB_CLIENT)!;
    const vars = api.Environment.Variables;
    const issuers = JSON.stringify(vars.AUTH_ISSUERS);
    expect(issuers).toContain('https://cognito-idp.');
    expect(issuers).toMatch(/Ref.*Users/);
    expect(JSON.stringify(vars.WEB_CLIENT)).toMatch(/WebClient/);
    template.hasOutput('AuthIssuer', Match.anyValue());
    template.hasOutput('WebClientId', Match.anyValue());
  });

  it("the service's own signing key is retained", () => {
    const [[, secret]] = ofType('AWS::SecretsManager::Secret');
    expect(secret.DeletionPolicy).toBe('Retain');
  });
});
