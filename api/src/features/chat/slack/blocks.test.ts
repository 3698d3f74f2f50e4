import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ReportCard } from '../../chat-platform/platform.ts';
import { esc, reportBody } from './blocks.ts';

const person = (i: number) => ({ uuid: `u${i}`, first_name: `Person${i}`, last_name: 'Q', email: `p${i}@x.test` });

/** Slack refuses a message past 50 blocks, a section past 3,000 characters, a header past 150. */
describe('Slack report blocks stay within what Slack accepts, whatever the report', () => {
  it('any number of people, answers of any length: at most 50 blocks, every text within its limit', () => {
    const card = fc.record({
      checkinName: fc.string({ maxLength: 300 }),
      answered: fc.array(fc.tuple(fc.array(fc.string({ maxLength: 4000 }), { maxLength: 4 }), fc.boolean(), fc.boolean()), { maxLength: 120 }),
      missing: fc.nat({ max: 200 }),
      anonymous: fc.boolean(),
    });
    fc.assert(
      fc.property(card, ({ checkinName, answered, missing, anonymous }) => {
        const report: ReportCard = {
          checkinName, date: '2026-03-10', anonymous,
          answered: answered.map(([answers, hasIssue, complete], i) => ({ person: person(i), answers: answers.map((a) => ({ question: 'Q?', response: a })), hasIssue, complete })),
          missing: Array.from({ length: missing }, (_, i) => person(1000 + i)),
          away: [],
        };
        const blocks = reportBody(report, 'text').blocks as { type: string; text?: { text: string }; elements?: { text: string }[] }[];
        expect(blocks.length).toBeLessThanOrEqual(50);
        expect(blocks[0].text!.text.length).toBeLessThanOrEqual(150);
        for (const block of blocks.slice(1)) {
          for (const text of [block.text?.text, ...(block.elements ?? []).map((e) => e.text)]) if (text !== undefined) expect(text.length).toBeLessThanOrEqual(3000);
        }
      }),
      { seed: 35, numRuns: 200 },
    );
  });

  it('escapes what Slack reads as markup in people\'s words', () => {
    expect(esc('<@U1> & <!channel>')).toBe('&lt;@U1&gt; &amp; &lt;!channel&gt;');
    const report: ReportCard = { checkinName: 'Daily', date: '2026-03-10', anonymous: false, answered: [{ person: person(1), answers: [{ question: 'Done?', response: '<!here> shipped' }], hasIssue: false, complete: true }], missing: [], away: [] };
    expect(JSON.stringify(reportBody(report, 'x').blocks)).not.toContain('<!here>');
  });

  it('counts only finished answers as answered and marks an answer in part (issue 34)', () => {
    const entry = (i: number, complete: boolean) => ({ person: person(i), answers: [{ question: 'Done?', response: 'Deployed' }], hasIssue: false, complete });
    const report: ReportCard = { checkinName: 'Daily', date: '2026-03-10', anonymous: false, answered: [entry(1, true), entry(2, false)], missing: [person(3)], away: [] };
    const blocks = reportBody(report, 'x').blocks as { type: string; text?: { text: string }; elements?: { text: string }[] }[];
    expect(blocks[1].elements![0].text).toBe('1 of 3 answered');
    const sections = blocks.filter((b) => b.type === 'section').map((b) => b.text!.text).join('\n\n');
    expect(sections).toContain(`*${person(2).first_name} ${person(2).last_name}*  _(not finished)_`);
    expect(sections).not.toContain(`*${person(1).first_name} ${person(1).last_name}*  _(not finished)_`);
  });
});
