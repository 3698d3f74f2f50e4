import { readJson } from '../../lib/json.ts';
import { iso } from '../../lib/time.ts';
import { presentQuestion } from '../checkins/presenter.ts';
import type { Answer } from '../checkins/responses-service.ts';
import { fullName } from '../users/repository.ts';
import { flag, workflowOf } from './repository.ts';
import type { OwnerRef } from './repository.ts';
import type { ResponseView } from './responses-service.ts';
import type { FormDetail } from './service.ts';
import { isFinal } from './states.ts';

/** CONTRACT §12 form owner: `{uuid, full_name, image, role}`. */
export const presentOwner = (o: OwnerRef) => ({ uuid: o.uuid, full_name: fullName(o), image: o.image ?? null, role: o.role });

export function presentForm(detail: FormDetail) {
  const { row } = detail;
  const workflow = workflowOf(row);
  return {
    uuid: row.uuid,
    id: row.uuid,
    name: row.name,
    description: row.description ?? null,
    form_type: row.form_type,
    is_public: flag(row.is_public),
    is_anonymous: flag(row.is_anonymous),
    is_archived: flag(row.is_archived),
    archived_at: iso(row.archived_at),
    owners: detail.owners.map(presentOwner),
    states: workflow.states,
    transitions: workflow.transitions,
    responses_count: detail.responsesCount,
    ...(detail.questions ? { questions: detail.questions.map(presentQuestion) } : {}),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

const person = (p: { uuid: string; first_name: string; last_name: string; email: string } | null) => (p ? { uuid: p.uuid, full_name: fullName(p) } : null);

/** A response: `user` is null on anonymous forms, in every read, and so is the author's own move in state_history. */
export function presentFormResponse(view: ResponseView) {
  const { row } = view;
  const final = isFinal(workflowOf(view.form), row.current_state);
  return {
    uuid: row.uuid,
    id: row.uuid,
    form_uuid: row.form_uuid,
    user: person(view.author),
    responses: readJson<Answer[]>(row.answers, []).map((a) => ({ uuid: a.uuid, index: a.index, question: a.question, response: a.response })),
    current_state: row.current_state,
    is_locked: final,
    allowed_transitions: view.allowed,
    state_history: view.history.map((h) => ({ from_state: h.from_state, to_state: h.to_state, actor: person(h.actor), note: h.note, created_at: iso(h.created_at) })),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}
