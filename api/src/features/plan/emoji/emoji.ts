import { badRequest } from '../../../lib/errors.ts';

/**
 * A reaction is one emoji: one RGI emoji (Unicode's recommended-for-general-interchange set, which includes skin
 * tones, ZWJ sequences such as families, flags and keycaps), checked with the Unicode property `RGI_Emoji` of the
 * regular expression `v` flag, at most 32 characters. An emoji sent without its variation selector ("❤" for "❤️")
 * is kept in its full form, so the same emoji is one reaction whoever sends it.
 */
export const REACTION_MAX_LENGTH = 32;
const ONE_EMOJI = /^\p{RGI_Emoji}$/v;

export function reactionEmoji(value: string): string {
  const candidates = [value, `${value}\uFE0F`];
  const emoji = [...value].length <= REACTION_MAX_LENGTH ? candidates.find((c) => ONE_EMOJI.test(c)) : undefined;
  if (!emoji) throw badRequest('reaction_invalid_emoji', `A reaction is a single emoji of at most ${REACTION_MAX_LENGTH} characters.`);
  return emoji;
}
