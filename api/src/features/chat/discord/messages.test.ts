import fs from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PromptCard, ReportCard } from '../../chat-platform/platform.ts';
import { CONTENT_MAX, packMessages, postBody, promptBody, reportBody } from './messages.ts';
import { answerModal, formValuesOf, readCustomId, refId } from './modal.ts';
import { ROLLCALL_COMMAND } from './commands.ts';
import type { QuestionRow } from '../../../db/tables.ts';

const person = (i: number, name = `Person${i}`) => ({ uuid: `u${i}`, first_name: name, last_name: 'Q', email: `p${i}@x.test` });
type Message = { content: string };

/** Discord refuses a message whose content passes 2,000 characters, a modal title past 45, an input label past 45. */
describe('Discord messages stay within what Discord accepts, whatever the report', () => {
  it('any number of people, answers and names of any length: every message within 2,000 characters, nobody left out', () => {
    const card = fc.record({
      checkinName: fc.string({ maxLength: 300 }),
      answered: fc.array(fc.tuple(fc.string({ minLength: 1, maxLength: 300 }), fc.array(fc.string({ maxLength: 5000 }), { maxLength: 4 }), fc.boolean(), fc.boolean()), { maxLength: 60 }),
      missing: fc.nat({ max: 300 }),
      anonymous: fc.boolean(),
      single: fc.boolean(),
    });
    fc.assert(
      fc.property(card, ({ checkinName, answered, missing, anonymous, single }) => {
        const report: ReportCard = {
          checkinName, date: '2026-03-10', anonymous, single,
          answered: answered.map(([name, answers, hasIssue, complete], i) => ({ person: person(i, name), answers: answers.map((a) => ({ question: 'Q?', response: a })), hasIssue, complete })),
          missing: Array.from({ length: missing }, (_, i) => person(1000 + i)),
          away: [],
        };
        const messages = reportBody(report).messages as Message[];
        expect(messages.length).toBeGreaterThan(0);
        for (const m of messages) {
          expect(m.content.length).toBeGreaterThan(0);
          expect(m.content.length).toBeLessThanOrEqual(CONTENT_MAX);
        }
        // Each person's part is there: one heading line each.
        const headings = messages.flatMap((m) => m.content.split('\n')).filter((line) => line.startsWith('### '));
        expect(headings).toHaveLength(answered.length);
      }),
      { seed: 35, numRuns: 150 },
    );
  });

  it('packs whole sections while they fit, and cuts a section longer than a message between its lines', () => {
    expect(packMessages(['a', 'b'])).toEqual(['a\n\nb']);
    const long = Array.from({ length: 30 }, (_, i) => `line ${i} ${'x'.repeat(100)}`).join('\n');
    const packed = packMessages(['head', long, 'tail']);
    expect(packed.every((m) => m.length <= CONTENT_MAX)).toBe(true);
    expect(packed.join('\n').replace(/\n+/g, '\n')).toBe(['head', long, 'tail'].join('\n'));
    expect(packMessages(['y'.repeat(5000)])).toEqual([`${'y'.repeat(1999)}…`]);
  });

  it('prompts and posts of any length stay within the limits; text in them is not read as markup or mentions', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), fc.array(fc.string({ maxLength: 1000 }), { maxLength: 30 }), fc.string({ maxLength: 5000 }), (name, questions, text) => {
        const card: PromptCard = {
          prompt_uuid: '0190c6f2-7a3b-7c1d-8e2f-3a4b5c6d7e8f', checkin_name: name, date: '2026-03-10', intro: text, outro: null, url: 'https://rollcall.example.com/checkins/answer/x',
          questions: questions.map((q, i) => ({ uuid: `q${i}`, text: q, type: 'text', required: false, choices: [] })),
        };
        for (const body of [promptBody(card, false), promptBody(card, true), promptBody({ ...card, answered: true }, false), postBody({ text, buttons: [{ text: name || 'x', url: 'https://x.test/' }], imageUrl: null })]) {
          expect((body.content as string).length).toBeLessThanOrEqual(CONTENT_MAX);
          expect(body.allowed_mentions).toEqual({ parse: [] });
        }
      }),
      { seed: 35, numRuns: 100 },
    );
    expect(promptBody({ prompt_uuid: 'p', checkin_name: '**Daily** <@123>', date: '2026-03-10', intro: null, outro: null, url: 'https://x.test/', questions: [] }, false).content).toBe('**\\*\\*Daily\\*\\* \\<\\@123\\>** — 2026-03-10');
  });

  it('a modal holds at most 5 inputs, its title and labels within 45 characters; custom ids within 100 and read back', () => {
    const question = (i: number, text: string): QuestionRow => ({ uuid: `0190c6f2-7a3b-7c1d-8e2f-3a4b5c6d7e${String(i).padStart(2, '0')}`, question: text, question_type: 'text', required: 0, choices: '[]' } as unknown as QuestionRow);
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), fc.array(fc.string({ maxLength: 300 }), { minLength: 1, maxLength: 40 }), (name, texts) => {
        const questions = texts.map((text, i) => question(i, text));
        const ref = { checkin: '0190c6f2-7a3b-7c1d-8e2f-3a4b5c6d7e8f', date: '2026-03-10', prompt: '0190c6f2-7a3b-7c1d-8e2f-3a4b5c6d7e90' };
        const view = { checkin: { name }, questions, answers: new Map(), date: ref.date } as never;
        const parts = Math.ceil(texts.length / 5);
        for (let part = 1; part <= parts; part++) {
          const modal = answerModal(view, ref, part, {}) as { custom_id: string; title: string; components: { components: { label: string }[] }[] };
          expect(modal.components.length).toBeLessThanOrEqual(5);
          expect(modal.title.length).toBeLessThanOrEqual(45);
          for (const row of modal.components) expect(row.components[0].label.length).toBeLessThanOrEqual(45);
          expect(modal.custom_id.length).toBeLessThanOrEqual(100);
          expect(readCustomId(modal.custom_id)).toEqual({ kind: 'part', ref, part, modal: true });
          expect(`rc:a:r:${refId(ref, part)}`.length).toBeLessThanOrEqual(100);
        }
      }),
      { seed: 35, numRuns: 100 },
    );
  });

  it('reads typed yes/no and choices; what it cannot read is named', () => {
    const q = (uuid: string, type: string, choices: unknown[] = []) => ({ uuid, question: uuid, question_type: type, required: 0, choices: JSON.stringify(choices) } as unknown as QuestionRow);
    const questions = [q('b', 'boolean'), q('m', 'multiple_choice', [{ label: 'Red', value: 'r' }, { label: 'Blue', value: 'b' }]), q('x', 'boolean')];
    const { form, problems } = formValuesOf(questions, { 'q.b': ' Sí ', 'q.m': 'red\nBLUE', 'q.x': 'maybe' });
    expect([...form]).toEqual([['q.b', ['yes']], ['q.m', ['r', 'b']]]);
    expect([...problems]).toEqual([['x', 'Answer Yes or No.']]);
    expect([...formValuesOf(questions, { 'q.m': 'green' }).problems]).toEqual([['m', 'Not a choice: green. Choose from: Red, Blue.']]);
  });

  it('docs/chat.md registers the /rollcall command the interactions endpoint answers', () => {
    const docs = fs.readFileSync(new URL('../../../../../docs/chat.md', import.meta.url), 'utf8');
    const registered = /applications\/\$APP\/commands"[^]*?-d '(\[.*?\])'/.exec(docs)?.[1];
    expect(JSON.parse(registered ?? 'null')).toEqual([ROLLCALL_COMMAND]);
  });
});
