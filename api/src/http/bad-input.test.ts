import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../../test/harness.ts';
import type { TestApp } from '../../test/harness.ts';
import { MAX_JSON_DEPTH } from '../lib/json.ts';

/** Names every plain object inherits from Object.prototype, and `__proto__`, which JSON makes an ordinary key. */
const PROTOTYPE_NAMES = ['constructor', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf', '__proto__'];

/** `{"k": v}` written as text: an object literal with a `__proto__` key would set a prototype instead. */
const entry = (key: string, value: string) => `{${JSON.stringify(key)}: ${value}}`;
const nested = (levels: number, leaf = '1') => '{"a": '.repeat(levels) + leaf + '}'.repeat(levels);

describe('bad input: prototype-named keys, deep nesting, unreadable bodies (a 4xx, never a 500)', () => {
  let t: TestApp;
  let key: string;
  beforeAll(async () => {
    t = await startTestApp();
    key = (await t.seedOrganization()).adminKey;
  });
  afterAll(async () => t.close());

  it('refuses a key named like an Object.prototype member as an unknown field, at the top and nested', async () => {
    for (const name of PROTOTYPE_NAMES) {
      for (const [method, path, raw, parameter] of [
        ['PATCH', '/v1/organization/', entry(name, '"x"'), name],
        ['POST', '/v1/api-keys/', entry(name, '{"a": 1}'), name],
        ['POST', '/v1/send-message/', entry(name, '"x"'), name],
        ['POST', '/v1/checkins/create/', `{"name": "Daily", "schedule": ${entry(name, '1')}}`, `schedule.${name}`],
        ['POST', '/v1/teams/', `{"name": "Core", ${JSON.stringify(name)}: null}`, name],
      ]) {
        const res = await t.request(method, path, { key, raw });
        expect([method, path, name, res.status, res.body]).toEqual([method, path, name, 400, { detail: `Unknown field: ${parameter}.`, code: 'unknown_field', extra: { parameter } }]);
      }
    }
  });

  it('stores and returns prototype-named keys inside free-form metadata exactly as given', async () => {
    const metadata = `{${PROTOTYPE_NAMES.map((name) => `${JSON.stringify(name)}: ${entry(name, '[1, {"constructor": "c"}]')}`).join(', ')}}`;
    const sent = await t.request('POST', '/v1/agent-messages/', { key, raw: `{"agent_name": "proto", "content": "hi", "metadata": ${metadata}}` });
    expect(sent.status).toBe(201);
    expect(JSON.stringify(sent.body.metadata)).toBe(JSON.stringify(JSON.parse(metadata)));
    const listed = await t.request('GET', '/v1/agent-messages/?agent_name=proto', { key });
    expect(JSON.stringify(listed.body[0].metadata)).toBe(JSON.stringify(JSON.parse(metadata)));
    const report = await t.request('POST', '/v1/agent-reports/', { key, raw: `{"agent_name": "proto", "content": "done", "metadata": ${metadata}}` });
    expect(report.status).toBe(201);
    expect(JSON.stringify(report.body.metadata)).toBe(JSON.stringify(JSON.parse(metadata)));
  });

  it(`takes JSON nested ${MAX_JSON_DEPTH} levels deep and refuses deeper, naming the field, before anything recurses`, async () => {
    // The body is level 1 and metadata level 2: metadata can hold MAX_JSON_DEPTH - 2 more levels.
    const deepest = await t.request('POST', '/v1/agent-messages/', { key, raw: `{"agent_name": "deep", "content": "x", "metadata": ${nested(MAX_JSON_DEPTH - 1)}}` });
    expect(deepest.status).toBe(201);
    for (const levels of [MAX_JSON_DEPTH, 5000, 100_000]) {
      const res = await t.request('POST', '/v1/agent-messages/', { key, raw: `{"agent_name": "deep", "content": "x", "metadata": ${nested(levels)}}` });
      expect([levels, res.status, res.body]).toEqual([levels, 400, { metadata: [`Nested more than ${MAX_JSON_DEPTH} levels deep.`] }]);
    }
    const array = await t.request('POST', '/v1/teams/', { key, raw: '['.repeat(5000) + ']'.repeat(5000) });
    expect(array.status).toBe(400);
    expect(array.body).toEqual({ detail: `The request body is nested more than ${MAX_JSON_DEPTH} levels deep.`, code: 'malformed_json', extra: { max_depth: MAX_JSON_DEPTH } });
  });

  it('refuses the NUL character anywhere in a body, a query value or a path (PostgreSQL cannot store it)', async () => {
    const message = 'Must not contain the NUL character (U+0000).';
    for (const [raw, field] of [
      ['{"name": "a\\u0000b"}', 'name'],
      ['{"agent_name": "x", "content": "y", "metadata": {"k": ["v\\u0000"]}}', 'metadata'],
      ['{"agent_name": "x", "content": "y", "metadata": {"k\\u0000": 1}}', 'metadata'],
    ]) {
      const res = await t.request('POST', raw.includes('agent_name') ? '/v1/agent-messages/' : '/v1/teams/', { key, raw });
      expect([raw, res.status, res.body]).toEqual([raw, 400, { [field]: [message] }]);
    }
    // An escaped backslash before u0000 is six ordinary characters.
    expect((await t.request('POST', '/v1/teams/', { key, raw: '{"name": "a\\\\u0000b"}' })).body.name).toBe('a\\u0000b');
    const search = await t.request('GET', '/v1/teams/?search=ab%00cd', { key });
    expect([search.status, search.body]).toEqual([400, { detail: 'search must not contain the NUL character (%00).', code: 'invalid_filter_value', extra: { parameter: 'search' } }]);
    expect((await t.request('GET', '/v1/teams/%00/', { key })).status).toBe(404);
    // Every query value on every route, read by http/query.ts or not (the Plan activity's object_kind was not: 500 on PostgreSQL).
    const nul = (parameter: string) => ({ detail: `${parameter} must not contain the NUL character (%00).`, code: 'invalid_filter_value', extra: { parameter } });
    for (const [path, parameter] of [
      ['/v1/plan/activity/?object_kind=%00', 'object_kind'],
      ['/v1/plan/activity/?object_kind=task&object_kind=a%00', 'object_kind'],
      ['/v1/me/?anything=x%00y', 'anything'],
      ['/v1/teams/?a%00b=1', 'ab'],
    ]) {
      const res = await t.request('GET', path, { key });
      expect([path, res.status, res.body]).toEqual([path, 400, nul(parameter)]);
    }
  });

  it('answers the swagger files by name only: /docs/static/__proto__ and its kin are 404, without a credential', async () => {
    for (const name of [...PROTOTYPE_NAMES, '__defineGetter__', 'propertyIsEnumerable']) {
      const res = await t.request('GET', `/docs/static/${name}`);
      expect([name, res.status, res.body]).toEqual([name, 404, { detail: 'Not found.', code: 'not_found' }]);
    }
  });

  it('answers bodies that cannot be read with a 4xx: bad compression, an unknown encoding', async () => {
    const gzipped = await t.request('PATCH', '/v1/organization/', { key, raw: Buffer.from('not gzip at all'), headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } });
    expect([gzipped.status, gzipped.body.code]).toEqual([400, 'malformed_json']);
    const good = await t.request('PATCH', '/v1/organization/', { key, raw: zlib.gzipSync('{"name": "Zipped"}'), headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } });
    expect([good.status, good.body.name]).toEqual([200, 'Zipped']);
    const unknown = await t.request('PATCH', '/v1/organization/', { key, raw: '{}', headers: { 'content-type': 'application/json', 'content-encoding': 'zstd-ish' } });
    expect([unknown.status, unknown.body.code]).toEqual([415, 'unsupported_media_type']);

    expect(t.logs.filter((line) => line.includes('unhandled error'))).toEqual([]);
  });
});
