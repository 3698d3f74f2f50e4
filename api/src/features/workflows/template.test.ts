import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MAX_OUTPUT, TemplateError, checkTemplate, renderTemplate } from './template.ts';

const json = fc.jsonValue({ maxDepth: 4 }) as fc.Arbitrary<unknown>;
const payload = fc.dictionary(fc.string({ maxLength: 8 }), json, { maxKeys: 8 });

describe('workflow templates (Mustache with our limits)', () => {
  it('renders values by path, escaping for where the text goes', () => {
    const data = { payload: { text: 'A "quote" <b>', n: 3, list: [{ name: 'x' }, { name: 'y' }], ok: true } };
    expect(renderTemplate('{{payload.text}} #{{payload.n}}', data, 'text')).toBe('A "quote" <b> #3');
    expect(renderTemplate('<p>{{payload.text}}</p>', data, 'html')).toBe('<p>A &quot;quote&quot; &lt;b&gt;</p>');
    expect(JSON.parse(renderTemplate('{"t": "{{payload.text}}", "all": {{payload.list}}}', data, 'json'))).toEqual({ t: 'A "quote" <b>', all: [{ name: 'x' }, { name: 'y' }] });
    expect(renderTemplate('{{#payload.list}}[{{name}}]{{/payload.list}}{{^payload.missing}}none{{/payload.missing}}', data, 'text')).toBe('[x][y]none');
  });

  it('refuses what could reach outside the data or blow up: partials, unescaped tags, nested sections, inherited names', () => {
    for (const template of ['{{> p}}', '{{{payload.x}}}', '{{&payload.x}}', '{{=<% %>=}}', '{{#a}}{{#b}}{{/b}}{{/a}}', '{{payload.constructor}}', '{{#payload.__proto__}}x{{/payload.__proto__}}',  '{{#a}}', '{{/a}}']) {
      expect(() => checkTemplate(template), template).toThrow(TemplateError);
    }
    expect(() => checkTemplate('{{x}}'.repeat(101))).toThrow('at most 100 tags');
  });

  it('never throws anything but TemplateError, on any template text and any JSON payload', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60, unit: fc.constantFrom('{', '}', '#', '^', '/', '>', '&', '=', '!', '.', 'a', 'payload', ' ', '"') }), payload, (template, data) => {
        for (const escaping of ['text', 'html', 'json'] as const) {
          try {
            const out = renderTemplate(template, { payload: data }, escaping);
            expect(out.length).toBeLessThanOrEqual(MAX_OUTPUT);
          } catch (err) {
            expect(err).toBeInstanceOf(TemplateError);
          }
        }
      }),
      { numRuns: 400 },
    );
  });

  it('keeps a JSON body valid JSON whatever the payload holds (strings in quotes, other values bare)', () => {
    fc.assert(
      fc.property(fc.string(), json.filter((v) => v !== null && typeof v !== 'string'), (text, value) => {
        const body = renderTemplate('{"text": "{{payload.text}}", "value": {{payload.value}}}', { payload: { text, value } }, 'json');
        expect(JSON.parse(body)).toEqual({ text, value: JSON.parse(JSON.stringify(value)) });
      }),
      { numRuns: 300 },
    );
  });

  it('reaches no built-in through the data, even by names a list or an object inherits', () => {
    const data = { payload: { list: [1, 2], obj: { a: 1 } } };
    expect(renderTemplate('[{{payload.list.map}}][{{payload.obj.toString}}][{{#payload.list.concat}}x{{/payload.list.concat}}][{{payload.list.length}}]', data, 'text')).toBe('[][][][2]');
  });

  it('bounds what a section makes of a long list', () => {
    const list = Array.from({ length: 5000 }, (_, i) => i);
    const out = renderTemplate('{{#payload.list}}{{.}},{{/payload.list}}', { payload: { list } }, 'text');
    expect(out.split(',').length - 1).toBe(100);
  });
});
