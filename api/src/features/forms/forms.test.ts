import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { MISSING, seedPeople } from '../../../test/people-fixtures.ts';
import type { People } from '../../../test/people-fixtures.ts';
import { TEST_CA, startHttpsReceiver } from '../../../test/receivers.ts';
import type { HttpsReceiver } from '../../../test/receivers.ts';

const QUESTIONS = [
  { question_type: 'text', question: 'What do you need?' },
  { question_type: 'numeric', question: 'How many days?', required: false },
];

describe('Forms (CONTRACT §7, §12)', () => {
  let t: TestApp;
  let p: People;
  beforeEach(async () => {
    t = await startTestApp();
    p = await seedPeople(t);
  });
  afterEach(async () => t.close());

  const create = (body: Record<string, unknown>, key = p.adminKey) => t.request('POST', '/v1/forms/create/', { key, body: { questions: QUESTIONS, ...body } });
  const answer = (form: string, key: string, responses: unknown[] = [{ index: 0, response: 'A laptop' }]) => t.request('POST', `/v1/forms/${form}/responses/`, { key, body: { responses } });

  it('creates (admins and managers), reads, lists with the client filters, edits (owners and admins) and archives', async () => {
    const res = await create({ name: 'Equipment', description: 'Ask for gear', form_type: 'approval', owner_uuids: [p.manager.user.uuid] });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      uuid: res.body.uuid, id: res.body.uuid, name: 'Equipment', description: 'Ask for gear', form_type: 'approval', is_public: true, is_anonymous: false, is_archived: false,
      owners: [{ uuid: p.manager.user.uuid, full_name: 'Manny Member', image: null, role: 'manager' }],
      states: [{ name: 'pending', is_initial: true, is_final: false, color: null }, { name: 'approved', is_initial: false, is_final: true, color: null }, { name: 'rejected', is_initial: false, is_final: true, color: null }],
      transitions: [{ from_state: 'pending', to_state: 'approved', roles: ['owner', 'admin'] }, { from_state: 'pending', to_state: 'rejected', roles: ['owner', 'admin'] }],
      responses_count: 0,
    });
    expect(res.body.questions.map((q: { question: string; index: number }) => [q.index, q.question])).toEqual([[0, 'What do you need?'], [1, 'How many days?']]);
    const refused = await create({ name: 'Mine' }, p.member.key);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('org_manager_required');
    const draft = (await create({ name: 'Draft', is_public: false }, p.manager.key)).body;
    await create({ name: 'Feedback' });

    const names = (r: { body: { results: { name: string }[] } }) => r.body.results.map((f) => f.name);
    expect(names(await t.request('GET', '/v1/forms/', { key: p.member.key }))).toEqual(['Feedback', 'Equipment']);
    expect(names(await t.request('GET', '/v1/forms/?is_ascend=true', { key: p.adminKey }))).toEqual(['Equipment', 'Draft', 'Feedback']);
    expect(names(await t.request('GET', '/v1/forms/?filter=approval', { key: p.adminKey }))).toEqual(['Equipment']);
    expect(names(await t.request('GET', '/v1/forms/?owner=me', { key: p.manager.key }))).toEqual(['Draft', 'Equipment']);
    expect(names(await t.request('GET', `/v1/forms/?owner_user_ids=${p.admin.uuid},${p.member.user.uuid}`, { key: p.adminKey }))).toEqual(['Feedback']);
    expect(names(await t.request('GET', '/v1/forms/?order=name&is_ascend=true', { key: p.adminKey }))).toEqual(['Draft', 'Equipment', 'Feedback']);
    const withQuestions = await t.request('GET', '/v1/forms/?include=questions&search=equip', { key: p.member.key });
    expect(withQuestions.body.results[0].questions).toHaveLength(2);
    expect((await t.request('GET', '/v1/forms/', { key: p.member.key })).body.results[0]).not.toHaveProperty('questions');
    const tooMany = await t.request('GET', `/v1/forms/?owner_user_ids=${Array.from({ length: 51 }, (_, i) => `0190c8f4-0000-7000-8000-${String(i).padStart(12, '0')}`).join(',')}`, { key: p.adminKey });
    expect(tooMany.body).toEqual({ detail: 'owner_user_ids takes at most 50 values.', code: 'too_many_filter_values', extra: { parameter: 'owner_user_ids', limit: 50 } });
    expect((await t.request('GET', '/v1/forms/?filter=mine', { key: p.adminKey })).body.code).toBe('invalid_filter_value');
    expect((await t.request('GET', '/v1/forms/?include=answers', { key: p.adminKey })).body.code).toBe('invalid_filter_value');
    // A non-public form is its owners' and the admins'.
    expect((await t.request('GET', `/v1/forms/${draft.uuid}/`, { key: p.member.key })).status).toBe(404);

    const owners = await t.request('GET', '/v1/forms/form-owners/', { key: p.adminKey });
    expect(owners.body).toEqual({
      count: 2, next: null, previous: null,
      results: [{ uuid: p.admin.uuid, full_name: 'Ada Admin', image: null, role: 'admin' }, { uuid: p.manager.user.uuid, full_name: 'Manny Member', image: null, role: 'manager' }],
    });

    const other = (await t.request('PATCH', `/v1/forms/${res.body.uuid}/config/`, { key: p.member.key, body: { name: 'x' } }));
    expect(other.status).toBe(403);
    expect(other.body).toEqual({ detail: 'Only the form\'s owners and organization admins can do this.', code: 'form_owner_required' });
    const renamed = await t.request('PATCH', `/v1/forms/${res.body.uuid}/config/`, { key: p.manager.key, body: { name: 'Gear', owner_uuids: [p.manager.user.uuid, p.other.user.uuid] } });
    expect(renamed.body).toMatchObject({ name: 'Gear', owners: [{ full_name: 'Manny Member' }, { full_name: 'Otto Member' }] });
    expect((await t.request('DELETE', `/v1/forms/${res.body.uuid}/archive/`, { key: p.other.key })).status).toBe(204);
    expect(names(await t.request('GET', '/v1/forms/?filter=archived', { key: p.adminKey }))).toEqual(['Gear']);
    expect(names(await t.request('GET', '/v1/forms/', { key: p.adminKey }))).toEqual(['Feedback', 'Draft']);
    expect((await answer(res.body.uuid, p.member.key)).body.code).toBe('form_archived');
    const globex = await seedPeople(t, { name: 'Globex' });
    expect((await t.request('GET', `/v1/forms/${draft.uuid}/`, { key: globex.adminKey })).body).toEqual({ detail: 'Not found.', code: 'not_found' });
  });

  it('keeps questions as check-ins do: add, edit, reorder, delete (one stays)', async () => {
    const form = (await create({ name: 'Q' })).body;
    const added = await t.request('POST', `/v1/forms/${form.uuid}/questions/`, { key: p.adminKey, body: { question_type: 'multiple_choice', question: 'Where?', options: ['Home', 'Office'], index: 0 } });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ index: 0, question: 'Where?', choices: [{ label: 'Home', value: 'Home' }, { label: 'Office', value: 'Office' }] });
    expect((await t.request('POST', `/v1/forms/${form.uuid}/questions/`, { key: p.member.key, body: { question_type: 'text', question: 'x' } })).status).toBe(403);
    const detail = (await t.request('GET', `/v1/forms/${form.uuid}/`, { key: p.adminKey })).body;
    const order = detail.questions.map((q: { uuid: string }) => q.uuid).reverse();
    const reordered = await t.request('PUT', `/v1/forms/${form.uuid}/questions/reorder/`, { key: p.adminKey, body: { question_uuids: order } });
    expect(reordered.body.questions.map((q: { uuid: string }) => q.uuid)).toEqual(order);
    const edited = await t.request('PATCH', `/v1/forms/${form.uuid}/questions/${order[0]}/`, { key: p.adminKey, body: { required: true } });
    expect(edited.body.required).toBe(true);
    for (const uuid of order.slice(1)) expect((await t.request('DELETE', `/v1/forms/${form.uuid}/questions/${uuid}/delete/`, { key: p.adminKey })).status).toBe(204);
    const last = await t.request('DELETE', `/v1/forms/${form.uuid}/questions/${order[0]}/delete/`, { key: p.adminKey });
    expect(last.body).toEqual({ detail: 'A form keeps at least one question.', code: 'last_question' });
  });

  it('responses: members see their own, owners and admins all (filter by user and date); answers are checked', async () => {
    const form = (await create({ name: 'Requests', owner_uuids: [p.manager.user.uuid] })).body;
    const mine = await answer(form.uuid, p.member.key, [{ index: 0, response: 'Monitor' }, { index: 1, response: 2 }]);
    expect(mine.status).toBe(201);
    expect(mine.body).toEqual({
      uuid: mine.body.uuid, id: mine.body.uuid, form_uuid: form.uuid, user: { uuid: p.member.user.uuid, full_name: 'Mia Member' },
      responses: [{ uuid: form.questions[0].uuid, index: 0, question: 'What do you need?', response: 'Monitor' }, { uuid: form.questions[1].uuid, index: 1, question: 'How many days?', response: 2 }],
      current_state: null, is_locked: false, allowed_transitions: [], state_history: [], created_at: t.clock.now().toISOString(), updated_at: t.clock.now().toISOString(),
    });
    t.clock.advance(86_400_000);
    await answer(form.uuid, p.other.key);
    const bad = await answer(form.uuid, p.other.key, [{ index: 1, response: 'many' }]);
    expect(bad.body).toEqual({ 'responses.0.response': ['A numeric answer is a number.'] });
    expect((await answer(form.uuid, p.other.key, [{ index: 1, response: 3 }])).body).toEqual({ responses: ['Answer every required question: #0.'] });

    const count = async (key: string, query = '') => (await t.request('GET', `/v1/forms/${form.uuid}/responses/${query}`, { key })).body.count;
    expect(await count(p.member.key)).toBe(1);
    expect(await count(p.manager.key)).toBe(2);
    expect(await count(p.adminKey, `?user=${p.other.user.uuid}`)).toBe(1);
    expect(await count(p.adminKey, '?start_date=2026-03-11')).toBe(1);
    expect(await count(p.adminKey, '?date=2026-03-10')).toBe(1);
    expect(await count(p.member.key, `?user=${p.other.user.uuid}`)).toBe(0);
    expect((await t.request('GET', `/v1/forms/${form.uuid}/responses/?since=tomorrow`, { key: p.adminKey })).body.code).toBe('invalid_date_range');
    expect((await t.request('GET', `/v1/forms/${form.uuid}/responses/${mine.body.uuid}/`, { key: p.other.key })).status).toBe(404);
    expect((await t.request('GET', `/v1/forms/${form.uuid}/responses/${mine.body.uuid}/`, { key: p.manager.key })).status).toBe(200);

    const edited = await t.request('PATCH', `/v1/forms/${form.uuid}/responses/${mine.body.uuid}/`, { key: p.member.key, body: { responses: [{ index: 0, response: 'Two monitors' }] } });
    expect(edited.body.responses.map((r: { response: unknown }) => r.response)).toEqual(['Two monitors', 2]);
    const notAuthor = await t.request('PATCH', `/v1/forms/${form.uuid}/responses/${mine.body.uuid}/`, { key: p.adminKey, body: { responses: [] } });
    expect(notAuthor.status).toBe(403);
    expect(notAuthor.body.code).toBe('not_response_author');
    expect((await t.request('DELETE', `/v1/forms/${form.uuid}/responses/${mine.body.uuid}/`, { key: p.manager.key })).status).toBe(204);
    expect(await count(p.adminKey)).toBe(1);
    const agent = await t.seedUser(p.org.uuid, { role: 'admin', kind: 'organization' });
    expect((await answer(form.uuid, agent.key)).body.code).toBe('insufficient_scope');
  });

  it('moves responses along allowed transitions by role, keeps state_history, and locks them in a final state', async () => {
    const form = (await create({
      name: 'Expenses', form_type: 'workflow', owner_uuids: [p.manager.user.uuid],
      states: [{ name: 'submitted', is_initial: true }, { name: 'review' }, { name: 'paid', is_final: true }, { name: 'withdrawn', is_final: true }],
      transitions: [
        { from_state: 'submitted', to_state: 'review', roles: ['owner'] },
        { from_state: 'submitted', to_state: 'withdrawn', roles: ['respondent'] },
        { from_state: 'review', to_state: 'paid', roles: ['admin'] },
      ],
    })).body;
    const r = (await answer(form.uuid, p.member.key)).body;
    expect(r).toMatchObject({ current_state: 'submitted', allowed_transitions: ['withdrawn'], state_history: [{ from_state: null, to_state: 'submitted', actor: { uuid: p.member.user.uuid, full_name: 'Mia Member' }, note: null }] });
    const move = (key: string, to_state: string, note?: string) => t.request('POST', `/v1/forms/${form.uuid}/responses/${r.uuid}/transition/`, { key, body: { to_state, ...(note ? { note } : {}) } });

    const byAdmin = await move(p.adminKey, 'review');
    expect(byAdmin.status).toBe(403);
    expect(byAdmin.body).toEqual({ detail: 'Only owner can move a response from "submitted" to "review".', code: 'transition_not_allowed' });
    const skip = await move(p.manager.key, 'paid');
    expect(skip.status).toBe(400);
    expect(skip.body).toEqual({ detail: 'No transition from "submitted" to "paid".', code: 'invalid_transition', extra: { from_state: 'submitted', allowed: ['review', 'withdrawn'] } });
    const reviewed = await move(p.manager.key, 'review', 'Looks fine');
    expect(reviewed.status).toBe(200);
    expect(reviewed.body).toMatchObject({ current_state: 'review', is_locked: false, allowed_transitions: [] });
    expect((await t.request('GET', `/v1/forms/${form.uuid}/responses/${r.uuid}/`, { key: p.adminKey })).body.allowed_transitions).toEqual(['paid']);
    t.clock.advance(60_000);
    const paid = await move(p.adminKey, 'paid');
    expect(paid.body).toMatchObject({ current_state: 'paid', is_locked: true, allowed_transitions: [] });
    expect(paid.body.state_history.map((h: { from_state: string | null; to_state: string; actor: { full_name: string }; note: string | null }) => [h.from_state, h.to_state, h.actor.full_name, h.note])).toEqual([
      [null, 'submitted', 'Mia Member', null],
      ['submitted', 'review', 'Manny Member', 'Looks fine'],
      ['review', 'paid', 'Ada Admin', null],
    ]);
    const locked = { detail: 'This response is in a final state and can no longer change.', code: 'response_locked' };
    expect((await move(p.adminKey, 'review')).body).toEqual(locked);
    expect((await t.request('PATCH', `/v1/forms/${form.uuid}/responses/${r.uuid}/`, { key: p.member.key, body: { responses: [] } })).body).toEqual(locked);
    const del = await t.request('DELETE', `/v1/forms/${form.uuid}/responses/${r.uuid}/`, { key: p.adminKey });
    expect(del.status).toBe(409);
    expect(del.body).toEqual(locked);
    // A state responses are in cannot be removed.
    const keep = await t.request('PATCH', `/v1/forms/${form.uuid}/config/`, { key: p.adminKey, body: { states: [{ name: 'submitted', is_initial: true }, { name: 'done', is_final: true }], transitions: [] } });
    expect(keep.status).toBe(409);
    expect(keep.body).toEqual({ detail: 'Responses are in "paid"; keep those states.', code: 'state_in_use', extra: { states: ['paid'] } });
  });

  it('validates states and transitions', async () => {
    const bad = await create({ name: 'W', form_type: 'workflow', states: [{ name: 'a', is_initial: true }, { name: 'a' }, { name: 'z', is_final: true }], transitions: [{ from_state: 'z', to_state: 'q' }] });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      'states.1.name': ['Two states have this name.'],
      'transitions.0.from_state': ['A final state locks the response: no transition leaves it.'],
      'transitions.0.to_state': ['No state with this name.'],
    });
    expect((await create({ name: 'S', states: [{ name: 'x', is_initial: true }] })).body).toEqual({ states: ['Standard forms have no states; use form_type approval or workflow.'] });
    expect((await create({ name: 'N', form_type: 'workflow', states: [{ name: 'x' }, { name: 'y', is_final: true }] })).body).toEqual({ states: ['Exactly one state is the initial one (is_initial).'] });
    expect((await create({ name: 'R', transitions: [], roles: [] })).body.code).toBe('unknown_field');
  });
});

describe('Anonymous forms and form events (CONTRACT §7)', () => {
  let t: TestApp;
  let p: People;
  let rx: HttpsReceiver;
  beforeEach(async () => {
    rx = await startHttpsReceiver();
    t = await startTestApp({ allowPrivateWebhooks: true }, {}, { ca: TEST_CA });
    p = await seedPeople(t);
  });
  afterEach(async () => {
    await t.close();
    await rx.close();
  });

  it('hides the author everywhere (lists, detail, history, events, webhooks) and sends forms.response.created|updated|deleted', async () => {
    await t.request('POST', '/v1/webhook-subscription/', { key: p.adminKey, body: { hook_url: `${rx.url}/hook`, subscriptions: ['forms.response.created', 'forms.response.updated', 'forms.response.deleted'] } });
    const form = (await t.request('POST', '/v1/forms/create/', { key: p.adminKey, body: { name: 'Pulse', is_anonymous: true, form_type: 'approval', questions: QUESTIONS } })).body;
    const created = await t.request('POST', `/v1/forms/${form.uuid}/responses/`, { key: p.member.key, body: { responses: [{ index: 0, response: 'More focus time' }] } });
    expect(created.body).toMatchObject({ user: null, state_history: [{ to_state: 'pending', actor: null }] });
    await t.request('PATCH', `/v1/forms/${form.uuid}/responses/${created.body.uuid}/`, { key: p.member.key, body: { responses: [{ index: 0, response: 'Fewer meetings' }] } });
    await t.request('POST', `/v1/forms/${form.uuid}/responses/${created.body.uuid}/transition/`, { key: p.adminKey, body: { to_state: 'approved' } });
    const second = (await t.request('POST', `/v1/forms/${form.uuid}/responses/`, { key: p.member.key, body: { responses: [{ index: 0, response: 'x' }] } })).body;
    await t.request('DELETE', `/v1/forms/${form.uuid}/responses/${second.uuid}/`, { key: p.member.key });
    for (const path of [`/v1/forms/${form.uuid}/responses/`, `/v1/forms/${form.uuid}/responses/${created.body.uuid}/`]) {
      const res = await t.request('GET', path, { key: p.adminKey });
      expect(res.status).toBe(200);
      expect(res.text).not.toContain(p.member.user.uuid);
      expect(res.text).not.toContain('Mia');
    }
    const byUser = await t.request('GET', `/v1/forms/${form.uuid}/responses/?user=${p.member.user.uuid}`, { key: p.adminKey });
    expect(byUser.body).toEqual({ detail: 'This form is anonymous: responses cannot be filtered by author.', code: 'invalid_filter_value', extra: { parameter: 'user' } });
    // The author still finds their own.
    expect((await t.request('GET', `/v1/forms/${form.uuid}/responses/`, { key: p.member.key })).body.count).toBe(1);
    // An anonymous form with responses stays anonymous.
    expect((await t.request('PATCH', `/v1/forms/${form.uuid}/config/`, { key: p.adminKey, body: { is_anonymous: false } })).body.code).toBe('form_anonymity_locked');

    await t.deps.delivery.runDue();
    const events = rx.received.map((r) => r.json);
    expect(events.map((e) => e.event).sort()).toEqual(['forms.response.created', 'forms.response.created', 'forms.response.deleted', 'forms.response.updated', 'forms.response.updated']);
    const transition = events.find((e) => e.body.transition);
    expect(transition.body).toMatchObject({ form_uuid: form.uuid, is_anonymous: true, current_state: 'approved', transition: { from_state: 'pending', to_state: 'approved', note: null } });
    for (const r of rx.received) {
      expect(r.json.body).not.toHaveProperty('user');
      expect(r.body).not.toContain(p.member.user.uuid);
    }
    expect((await t.request('GET', `/v1/forms/${MISSING}/responses/`, { key: p.adminKey })).status).toBe(404);
  });
});
