import { describe, expect, it } from 'vitest';
import { credentialRefusal } from './api.ts';

/** Each 401 code, for each kind of credential the client sends (test/cli-client.test.ts sees them from a server). */
describe('what the client says when the server refuses its credential', () => {
  const server = 'http://localhost:8080';
  const key = { kind: 'api_key', value: 'rk_x', from: '--key' } as const;
  const session = { kind: 'bearer', value: 'rct_x', from: '/home/ana/.config/rollcall/session.json' } as const;

  it('names the credential, the reason and what to do, never "not provided"', () => {
    expect(credentialRefusal('credential_malformed', key, server)).toBe('the API key from --key is malformed: an API key is rk_ and 40 letters and digits (credential_malformed).');
    expect(credentialRefusal('invalid_credentials', key, server)).toBe(`the API key from --key is unknown to ${server}: revoked, regenerated, or made on another server; check the key, or create a new one (invalid_credentials).`);
    expect(credentialRefusal('credential_expired', key, server)).toBe('the API key from --key has expired; create a new one (credential_expired).');
    expect(credentialRefusal('credential_malformed', session, server)).toBe(`the session in ${session.from} is malformed; sign in again with \`rollcall login\` (credential_malformed).`);
    expect(credentialRefusal('invalid_credentials', session, server)).toBe(`the session in ${session.from} is no longer valid on ${server} (signed out, or revoked); sign in again with \`rollcall login\` (invalid_credentials).`);
    expect(credentialRefusal('credential_expired', session, server)).toBe(`the session in ${session.from} has expired; sign in again with \`rollcall login\` (credential_expired).`);
    expect(credentialRefusal('credential_absent', null, server)).toBe(`${server} refused the request (credential_absent): sign in with \`rollcall login\`, or set ROLLCALL_API_KEY.`);
  });
});
