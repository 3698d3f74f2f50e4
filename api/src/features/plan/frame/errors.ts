import { ApiError, forbidden } from '../../../http/errors.ts';

/** Refusals shared by every Plan resource. Codes are the spec's Plan catalogue unless noted. */
export const planUpgradeRequired = () =>
  new ApiError(402, 'plan_upgrade_required', 'Plan is not enabled for this organization. GET /v1/plan/entitlements/ shows what it may use.');
export const guestNotAllowed = () => forbidden('guest_not_allowed', 'Guest accounts cannot use Plan.');
export const personOnly = () => forbidden('insufficient_scope', 'This endpoint acts for a person; agent and organization keys cannot call it.');
export const missingScope = (scope: string) => forbidden('insufficient_scope', `This key's scopes do not include ${scope}.`);
export const actorRequired = (parameter: string) =>
  new ApiError(400, 'actor_required', `${parameter}=me needs a person; agent and organization keys act for no one.`, { extra: { parameter } });
export const readOnly = () =>
  new ApiError(503, 'feature_temporarily_read_only', 'Plan is read-only during an incident; reads continue. Retry the write later.', { headers: { 'Retry-After': '60' } });

/** Not in the spec's catalogue (it names no role refusal): a member who does not manage the board or project. */
export const boardManagerRequired = () => forbidden('board_manager_required', 'Only a manager of this board or an organization admin can do this.');
export const projectManagerRequired = () => forbidden('project_manager_required', 'Only a manager of this project or an organization admin can do this.');
