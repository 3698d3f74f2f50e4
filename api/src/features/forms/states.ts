import type { FormType, TransitionRole } from './schema.ts';

export interface FormState {
  name: string;
  is_initial: boolean;
  is_final: boolean;
  color: string | null;
}

export interface FormTransition {
  from_state: string;
  to_state: string;
  roles: TransitionRole[];
}

export interface Workflow {
  states: FormState[];
  transitions: FormTransition[];
}

const DEFAULT_ROLES: TransitionRole[] = ['owner', 'admin'];

/** An approval form without states of its own: pending → approved or rejected, by owners and admins. */
export const APPROVAL_WORKFLOW: Workflow = {
  states: [
    { name: 'pending', is_initial: true, is_final: false, color: null },
    { name: 'approved', is_initial: false, is_final: true, color: null },
    { name: 'rejected', is_initial: false, is_final: true, color: null },
  ],
  transitions: [
    { from_state: 'pending', to_state: 'approved', roles: DEFAULT_ROLES },
    { from_state: 'pending', to_state: 'rejected', roles: DEFAULT_ROLES },
  ],
};

type StateInput = { name: string; is_initial?: boolean; is_final?: boolean; color?: string | null };
type TransitionInput = { from_state: string; to_state: string; roles?: TransitionRole[] };

/**
 * Checks a form's states and transitions: standard forms have none; approval forms get APPROVAL_WORKFLOW when
 * they give none; otherwise unique names, exactly one initial state, at least one final state, transitions
 * between known states, none out of a final state (a final state locks the response).
 */
export function buildWorkflow(type: FormType, states: StateInput[] | undefined, transitions: TransitionInput[] | undefined, problems: Record<string, string[]>): Workflow {
  if (type === 'standard') {
    if (states?.length) problems.states = ['Standard forms have no states; use form_type approval or workflow.'];
    if (transitions?.length) problems.transitions = ['Standard forms have no transitions.'];
    return { states: [], transitions: [] };
  }
  if (!states?.length) {
    if (type === 'approval' && !transitions?.length) return APPROVAL_WORKFLOW;
    problems.states = ['Give the states of the form: at least an initial and a final one.'];
    return { states: [], transitions: [] };
  }
  const built = states.map((s) => ({ name: s.name, is_initial: s.is_initial ?? false, is_final: s.is_final ?? false, color: s.color ?? null }));
  const names = new Set<string>();
  built.forEach((s, i) => {
    if (names.has(s.name)) problems[`states.${i}.name`] = ['Two states have this name.'];
    names.add(s.name);
    if (s.is_initial && s.is_final) problems[`states.${i}`] = ['A state is not both initial and final.'];
  });
  if (built.filter((s) => s.is_initial).length !== 1) problems.states = ['Exactly one state is the initial one (is_initial).'];
  else if (!built.some((s) => s.is_final)) problems.states = ['At least one state is final (is_final): it locks the response.'];
  const finals = new Set(built.filter((s) => s.is_final).map((s) => s.name));
  const seen = new Set<string>();
  const builtTransitions = (transitions ?? []).map((t, i) => {
    if (!names.has(t.from_state)) problems[`transitions.${i}.from_state`] = ['No state with this name.'];
    else if (finals.has(t.from_state)) problems[`transitions.${i}.from_state`] = ['A final state locks the response: no transition leaves it.'];
    if (!names.has(t.to_state)) problems[`transitions.${i}.to_state`] = ['No state with this name.'];
    if (t.from_state === t.to_state) problems[`transitions.${i}.to_state`] = ['A transition goes to another state.'];
    const key = `${t.from_state}\u0000${t.to_state}`;
    if (seen.has(key)) problems[`transitions.${i}`] = ['This transition is listed twice.'];
    seen.add(key);
    return { from_state: t.from_state, to_state: t.to_state, roles: [...new Set(t.roles ?? DEFAULT_ROLES)] };
  });
  return { states: built, transitions: builtTransitions };
}

export const initialState = (workflow: Workflow): string | null => workflow.states.find((s) => s.is_initial)?.name ?? null;
export const isFinal = (workflow: Workflow, state: string | null): boolean => state !== null && workflow.states.some((s) => s.name === state && s.is_final);

/** The states `roles` may move a response in `state` to. */
export function allowedTransitions(workflow: Workflow, state: string | null, roles: Set<TransitionRole>): string[] {
  if (state === null || isFinal(workflow, state)) return [];
  return workflow.transitions.filter((t) => t.from_state === state && t.roles.some((r) => roles.has(r))).map((t) => t.to_state);
}
