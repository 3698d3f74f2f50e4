import type { PlanResource } from '../../../http/plan/registrar.ts';
import type { ReactableKind } from '../emoji/kinds.ts';
import { presentReaction } from '../emoji/presenter.ts';
import { reactionSchema } from '../emoji/schema.ts';
import { DISTINCT_EMOJI_LIMIT, addReaction, listReactions, removeReaction } from '../emoji/service.ts';

/** The reaction routes of one kind of object, under `<object>/reactions/` (comments declare theirs with their kind). */
export function reactionResource(kind: ReactableKind): PlanResource {
  return (plan) => {
    const r = plan.tagged(kind.tag);
    const base = `${kind.path}/reactions/`;
    r.list({ path: base, keyParams: kind.keyParams, summary: `Reactions on the ${kind.noun}, one item per emoji`, item: 'PlanReaction' }, async (call) => {
      const { count, groups } = await listReactions(call, kind, call.page);
      return { count, results: groups.map(presentReaction) };
    });
    r.write(
      {
        method: 'post', path: base, keyParams: kind.keyParams, body: reactionSchema, status: 201, response: 'PlanReaction',
        summary: `React with one emoji (reaction_invalid_emoji; at most ${DISTINCT_EMOJI_LIMIT} different ones: reaction_limit_reached); 200 when you already had`,
      },
      async (call) => {
        const { group, created } = await addReaction(call, kind, call.body.emoji);
        if (!created) call.status(200);
        return presentReaction(group);
      },
    );
    r.write(
      { method: 'delete', path: `${base}:emoji/`, keyParams: [...(kind.keyParams ?? []), 'emoji'], status: 204, summary: 'Take back your reaction (the emoji percent-encoded in the path)' },
      (call) => removeReaction(call, kind, call.params.emoji),
    );
  };
}
