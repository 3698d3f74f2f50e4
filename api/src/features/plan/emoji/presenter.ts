import { personRef } from '../frame/presenters.ts';
import type { ReactionGroup } from './service.ts';

export function presentReaction(group: ReactionGroup) {
  return { emoji: group.emoji, count: group.people.length, users: group.people.map((p) => personRef(p)), reacted: group.mine };
}
