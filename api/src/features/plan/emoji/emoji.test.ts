import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { reactionEmoji } from './emoji.ts';

const ONE = /^\p{RGI_Emoji}$/v;
const refusal = (value: string) => {
  try {
    reactionEmoji(value);
    return null;
  } catch (err) {
    return (err as { code?: string }).code;
  }
};

describe('reaction emoji grammar (spec reaction_invalid_emoji: a single emoji of at most 32 characters)', () => {
  it('takes single emojis of every shape, and keeps the fully qualified form', () => {
    for (const emoji of ['👍', '👍🏽', '👨‍👩‍👧‍👦', '🏳️‍🌈', '🇫🇷', '1️⃣', '❤️', '🫠', '🧑🏿‍🤝‍🧑🏻']) expect(reactionEmoji(emoji)).toBe(emoji);
    expect(reactionEmoji('❤')).toBe('❤️');
    expect(reactionEmoji('☺')).toBe('☺️');
  });

  it('refuses text, several emojis, an emoji with text, and lone parts of sequences', () => {
    for (const value of ['', 'a', ':+1:', '👍👍', '👍 ', ' 👍', 'ok👍', '1', '#', '\u200d', '🇫', '👨‍', '\uFE0F', '\ud83d']) expect(refusal(value)).toBe('reaction_invalid_emoji');
  });

  it('accepts exactly what is one RGI emoji of at most 32 characters, whatever string is sent (property)', () => {
    const emojiLike = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 3 }),
      fc.constantFrom('👍', '🏽', '\u200d', '\uFE0F', '👩', '❤', '🇫', '🇷', '1', '⃣', 'a').chain((part) => fc.array(fc.constant(part), { maxLength: 4 }).map((a) => a.join(''))),
      fc.array(fc.constantFrom('👍', '🏽', '\u200d', '\uFE0F', '👩', '❤', '🇫', '🇷', '1', '⃣'), { maxLength: 6 }).map((a) => a.join('')),
    );
    fc.assert(
      fc.property(emojiLike, (value) => {
        const code = refusal(value);
        const wanted = [...value].length <= 32 && (ONE.test(value) || ONE.test(`${value}\uFE0F`));
        expect(code === null).toBe(wanted);
        if (code === null) expect(ONE.test(reactionEmoji(value))).toBe(true);
        else expect(code).toBe('reaction_invalid_emoji');
      }),
      { numRuns: 2000 },
    );
  });
});
